/*
 * kernel/fs/fs_struct.c - init_fs, the tasks' root and cwd, and the
 * boot-time root file system.
 *
 * init_fs is the article's INIT_FS(name) user ("A realtime preemption
 * overview", section "Miscellaneous" of its summary of primitives): its
 * rwlock_t is named "init_fs.lock" at compile time.  Every user process's
 * task points at it (task->fs; part 2's fork copies it); kernel threads
 * (task->fs NULL) use it too, as Linux's do.
 * fs_init makes the root directory, points init_fs at it and unpacks
 * every boot module into it (kernel/fs/unpack.c).
 * Linux counterpart: fs/fs_struct.c (set_fs_pwd, exit_fs), fs/namei.c
 * path_lookupat / set_nameidata (the start at dfd or cwd), fs/open.c
 * ksys_chdir, init/do_mounts.c + init/initramfs.c populate_rootfs.
 */
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/mm/slab.h"
#include "kernel/fs/unpack.h"
#include "kernel/sched/sched.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "arch/x86_64/arch.h"
#include "lib/bug.h"
#include "lib/errno.h"

struct fs_struct init_fs = INIT_FS(init_fs);

/* task_fs - the fs_struct p walks paths with.  Context: any. */
struct fs_struct *task_fs(struct task_struct *p)
{
	return p->fs ? p->fs : &init_fs;
}

/* get_fs_struct - one more task uses fs (process_spawn, a thread's clone:
 * CLONE_FS).  Context: any. */
struct fs_struct *get_fs_struct(struct fs_struct *fs)
{
	BUG_ON(__atomic_fetch_add(&fs->users, 1, __ATOMIC_RELAXED) <= 0);
	return fs;
}

/*
 * copy_fs_struct - a fork's own copy of fs: the same root, cwd and umask,
 * with a reference to each directory, one user.  NULL: no memory.
 * Context: task, may sleep.  Locking: takes fs->lock for reading.
 */
struct fs_struct *copy_fs_struct(struct fs_struct *fs)
{
	struct fs_struct *new = kzalloc(sizeof(*new), GFP_KERNEL);

	might_sleep();
	if (!new)
		return NULL;
	new->users = 1;
	rwlock_init(&new->lock);
	read_lock(&fs->lock);
	new->umask = fs->umask;
	new->root = fs->root ? iget(fs->root) : NULL;
	new->pwd = fs->pwd ? iget(fs->pwd) : NULL;
	read_unlock(&fs->lock);
	return new;
}

/*
 * exit_fs - p stops using its fs_struct (do_exit).  init_fs is never
 * freed (its first user is the kernel); a copied one (a fork's) is freed
 * by its last user, with its root and cwd references.
 * Context: task, may sleep.  Locking: none (users is atomic).
 */
void exit_fs(struct task_struct *p)
{
	struct fs_struct *fs = p->fs;
	int left;

	if (!fs)
		return;
	p->fs = NULL;
	left = __atomic_sub_fetch(&fs->users, 1, __ATOMIC_ACQ_REL);
	BUG_ON(left <= 0 && fs == &init_fs);
	if (left)
		return;
	might_sleep();
	if (fs->root)
		iput(fs->root);
	if (fs->pwd)
		iput(fs->pwd);
	kfree(fs);
}

/*
 * get_fs_root, get_fs_pwd - fs's root or cwd with a reference for the
 * caller (iput it).  NULL before fs_init.
 * Context: task.  Locking: takes and drops fs->lock for reading.
 */
struct inode *get_fs_root(struct fs_struct *fs)
{
	struct inode *root;

	read_lock(&fs->lock);
	root = fs->root ? iget(fs->root) : NULL;
	read_unlock(&fs->lock);
	return root;
}

struct inode *get_fs_pwd(struct fs_struct *fs)
{
	struct inode *pwd;

	read_lock(&fs->lock);
	pwd = fs->pwd ? iget(fs->pwd) : NULL;
	read_unlock(&fs->lock);
	return pwd;
}

/*
 * set_fs_pwd - make dir (a directory the caller holds a reference to)
 * fs's cwd; the old cwd's reference is dropped.
 * Context: task, may sleep (the iput).  Locking: takes and drops fs->lock
 * for writing; iput outside it.
 */
void set_fs_pwd(struct fs_struct *fs, struct inode *dir)
{
	struct inode *old;

	might_sleep();
	BUG_ON(!S_ISDIR(dir->i_mode));
	iget(dir);
	write_lock(&fs->lock);
	old = fs->pwd;
	fs->pwd = dir;
	write_unlock(&fs->lock);
	if (old)
		iput(old);
}

/*
 * path_lookupat - walk path for current: an absolute path from its root,
 * a relative one from start (a directory fd's inode), or from its cwd
 * when start is NULL (AT_FDCWD).  flags: LOOKUP_*.  *out gets a reference.
 * 0 or vfs_path_lookup's errors; -ENOENT before fs_init.
 * Context: task, may sleep.  Locking: fs->lock (read) to take root and
 * cwd, then the tree lock (read) for the walk; never both.
 */
int path_lookupat(struct inode *start, const char *path, unsigned int flags,
		  struct inode **out)
{
	struct fs_struct *fs = task_fs(current);
	struct inode *root, *from;
	int ret = -ENOENT;

	might_sleep();
	root = get_fs_root(fs);
	if (!root)
		goto out;
	from = start ? iget(start) : get_fs_pwd(fs);
	ret = filename_lookup(root, from, path, flags, out);
	iput(from);
	iput(root);
out:
	return ret;
}

/*
 * fs_chdir - chdir(2) for current: path must name a directory (symlinks
 * followed).  0, -ENOTDIR or the walk's errors.
 * Context: task, may sleep.  Locking: as path_lookupat, then set_fs_pwd.
 */
int fs_chdir(const char *path)
{
	struct inode *dir;
	int ret;

	ret = path_lookupat(NULL, path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dir);
	if (ret)
		return ret;
	set_fs_pwd(task_fs(current), dir);
	iput(dir);
	return 0;
}

/*
 * fs_init - make the root directory, point init_fs at it and unpack each
 * boot module into it (all of them: rtk's only module is the initramfs).
 * A module that is not an uncompressed newc cpio is refused with a
 * message by unpack_to_rootfs and leaves the tree as it was.
 * Context: boot, task "init".  Locking: the tree lock, then init_fs.lock.
 */
void __init fs_init(void)
{
	struct inode *root;
	int total = 0;

	might_sleep();
	fs_tree_write_lock();
	root = fs_new_root();
	fs_tree_write_unlock();
	if (!root)
		panic("fs_init: no memory for the root directory");
	write_lock(&init_fs.lock);
	init_fs.root = iget(root);
	init_fs.pwd = iget(root);
	write_unlock(&init_fs.lock);
	for (int i = 0; i < boot_info.nr_modules; i++) {
		const void *base = phys_to_virt(boot_info.modules[i].start);
		size_t len = boot_info.modules[i].end - boot_info.modules[i].start;
		int n = unpack_to_rootfs(root, base, len, "initramfs");

		if (n > 0)
			total += n;
	}
	pr_info("fs: root file system: %d entries from %d boot module(s)\n",
		total, boot_info.nr_modules);
	iput(root);	/* init_fs and the tree hold it */
}
