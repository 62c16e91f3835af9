/*
 * kernel/fs/user_path.c - a path as a system call receives it: a user
 * string (getname: copied once, checked against PATH_MAX) and the
 * directory fd it is relative to (AT_FDCWD: the cwd), turned into the
 * root and start inodes kernel/fs/namei.c walks from.
 *
 * The *at rules, Linux's: an absolute path ignores dfd (even a bad one);
 * a relative one needs dfd open (-EBADF) and a directory (-ENOTDIR); an
 * empty path is -ENOENT unless the call takes AT_EMPTY_PATH, when it
 * names dfd itself.
 * Linux counterpart: fs/namei.c (getname_flags, path_init's dfd case,
 * user_path_at), include/linux/namei.h.
 */
#include "kernel/fs/user_path.h"
#include "kernel/fs/fdtable.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"

/*
 * getname_flags - copy the user path into a PATH_MAX kernel buffer
 * (putname frees it): NULL with *err -EFAULT, -ENAMETOOLONG (no NUL in
 * PATH_MAX bytes), -ENOENT (empty, unless empty_ok), -ENOMEM.
 * Context: task, may sleep.
 */
char *getname_flags(const char __user *filename, bool empty_ok, int *err)
{
	char *name;
	long len;

	might_sleep();
	name = kmalloc(PATH_MAX, GFP_KERNEL);
	*err = -ENOMEM;
	if (!name)
		return NULL;
	len = strncpy_from_user(name, filename, PATH_MAX);
	if (len < 0)
		*err = (int)len;
	else if (len == PATH_MAX)
		*err = -ENAMETOOLONG;
	else if (len == 0 && !empty_ok)
		*err = -ENOENT;
	else
		return name;
	kfree(name);
	return NULL;
}

char *getname(const char __user *filename, int *err)
{
	return getname_flags(filename, false, err);
}

void putname(char *name)
{
	kfree(name);
}

/*
 * at_path_get - the root and the start directory for path relative to
 * dfd, referenced (at_path_put drops them): 0, -EBADF, -ENOTDIR, -ENOENT
 * before the root exists.
 * Context: task, may sleep.  Locking: fs->lock and the fd table's lock,
 * each taken and dropped.
 */
int at_path_get(int dfd, const char *path, struct at_path *ap)
{
	struct fs_struct *fs = task_fs(current);
	struct file *file;

	might_sleep();
	ap->root = get_fs_root(fs);
	if (!ap->root)
		return -ENOENT;
	if (path[0] == '/' || dfd == AT_FDCWD) {
		ap->start = get_fs_pwd(fs);
		return 0;
	}
	file = fget((unsigned int)dfd);
	if (!file) {			/* a negative dfd is never open */
		iput(ap->root);
		return -EBADF;
	}
	if (!S_ISDIR(file->f_inode->i_mode) && path[0]) {
		fput(file);
		iput(ap->root);
		return -ENOTDIR;
	}
	ap->start = iget(file->f_inode);
	fput(file);
	return 0;
}

void at_path_put(struct at_path *ap)
{
	iput(ap->start);
	iput(ap->root);
}

/*
 * user_path_at - look the user path up relative to dfd with LOOKUP_*
 * flags; with empty_ok an empty path names dfd's inode (AT_EMPTY_PATH;
 * AT_FDCWD: the cwd).  *out gets a reference.  0 or the errors above and
 * the walk's.
 * Context: task, may sleep.  Locking: as at_path_get, then the tree lock.
 */
int user_path_at(int dfd, const char __user *upath, unsigned int flags,
		 bool empty_ok, struct inode **out)
{
	struct at_path ap;
	char *path;
	int ret;

	might_sleep();
	path = getname_flags(upath, empty_ok, &ret);
	if (!path)
		return ret;
	ret = at_path_get(dfd, path, &ap);
	if (ret)
		goto out_putname;
	if (!path[0])
		*out = iget(ap.start);
	else
		ret = filename_lookup(ap.root, ap.start, path, flags, out);
	at_path_put(&ap);
out_putname:
	putname(path);
	return ret;
}
