/*
 * tests/kernel/test_fs.c - the root file system after boot (kernel/fs/):
 * every regular file of the boot initramfs is found by its path, still
 * in the boot module; init_fs (the article's INIT_FS(name); its lock's
 * name is checked by rwlock:test_lock_initializers_take_the_lock_and_name_it)
 * holds the root and the cwd; the task-level calls (path_lookupat from the cwd,
 * fs_chdir) on the live tree.
 *
 * The walk's corner cases (".", "..", symlinks, -ELOOP, the length
 * limits, O_EXCL, the copy on first write, refused archives) are host
 * tests: tests/host/test_namei.c.  One task; the tests change the tree
 * only below /ktest_fs and put the cwd back.
 */
#include "kernel/ktest.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/user/initramfs.h"
#include "kernel/user/process.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

struct member_check {
	struct ktest *t;
	int seen, found;
};

static void check_member(const char *name, size_t size, void *arg)
{
	struct member_check *c = arg;
	struct inode *inode;
	char path[128];		/* rtk's program names are short */
	int ret;

	c->seen++;
	if (snprintf(path, sizeof(path), "/%s", name) >= (int)sizeof(path))
		return;		/* not counted as found: the test fails */
	ret = path_lookupat(NULL, path, LOOKUP_FOLLOW, &inode);
	KTEST_EXPECT(c->t, ret == 0, "%s: lookup gave %d", path, ret);
	if (ret)
		return;
	fs_tree_read_lock();
	KTEST_EXPECT(c->t, S_ISREG(inode->i_mode), "%s: mode %o", path,
		     inode->i_mode);
	KTEST_EXPECT(c->t, inode->i_size == size, "%s: size %zu, archive %zu",
		     path, inode->i_size, size);
	KTEST_EXPECT(c->t, inode_data_in_module(inode),
		     "%s: data copied out of the boot module", path);
	fs_tree_read_unlock();
	iput(inode);
	c->found++;
}

static void test_boot_initramfs_members_are_found_by_path(struct ktest *t)
{
	struct member_check c = { .t = t };

	if (initramfs_for_each(check_member, &c) < 0)
		ktest_skip(t, "no initramfs (boot with -initrd)");
	KTEST_EXPECT(t, c.seen > 0, "the initramfs has no regular file");
	KTEST_EXPECT_EQ(t, c.found, c.seen);
}

static void test_init_fs_holds_the_root_and_the_cwd(struct ktest *t)
{
	struct inode *root = get_fs_root(&init_fs), *pwd, *slash;

	KTEST_ASSERT(t, root != NULL, "init_fs has no root after boot");
	KTEST_EXPECT(t, S_ISDIR(root->i_mode) && root->i_parent == root,
		     "the root is a directory that is its own parent");
	KTEST_EXPECT(t, task_fs(current) == &init_fs,
		     "a kernel thread walks with init_fs");
	KTEST_EXPECT(t, init_fs.users >= 1, "users %d", init_fs.users);
	pwd = get_fs_pwd(&init_fs);
	KTEST_EXPECT(t, pwd == root, "the boot cwd is /");
	KTEST_EXPECT_EQ(t, path_lookupat(NULL, "/", 0, &slash), 0);
	KTEST_EXPECT(t, slash == root, "/ is init_fs.root");
	iput(slash);
	iput(pwd);
	iput(root);
}

static void test_chdir_moves_relative_lookups(struct ktest *t)
{
	struct inode *root = get_fs_root(&init_fs), *f = NULL, *g = NULL;
	int ret;

	KTEST_ASSERT(t, root != NULL, "no root");
	ret = do_mkdirat(root, root, "/ktest_fs", 0755);
	KTEST_ASSERT(t, ret == 0, "mkdir /ktest_fs: %d", ret);
	ret = path_openat(root, root, "/ktest_fs/f", O_CREAT | O_EXCL | O_RDWR,
			  0644, &f);
	KTEST_EXPECT_EQ(t, ret, 0);
	KTEST_EXPECT_EQ(t, fs_chdir("/ktest_fs/f"), -ENOTDIR);
	KTEST_EXPECT_EQ(t, fs_chdir("/ktest_fs"), 0);
	KTEST_EXPECT_EQ(t, path_lookupat(NULL, "f", 0, &g), 0);
	KTEST_EXPECT(t, f && f == g, "f from the new cwd");
	if (!ret)
		KTEST_EXPECT_EQ(t, inode_write(f, "rtk", 3, 0), 3);
	KTEST_EXPECT_EQ(t, fs_chdir(".."), 0);
	KTEST_EXPECT_EQ(t, path_lookupat(NULL, "f", 0, &g), -ENOENT);
	KTEST_EXPECT_EQ(t, do_unlinkat(root, root, "/ktest_fs/f"), 0);
	KTEST_EXPECT_EQ(t, do_rmdir(root, root, "ktest_fs"), 0);
	if (f)
		iput(f);
	if (g)
		iput(g);
	iput(root);
}

/* A user process's task points at init_fs while it runs (process_spawn),
 * and gives its use back at exit (exit_fs): users is as before. */
static void test_user_process_task_points_at_init_fs(struct ktest *t)
{
	char *argv[] = { "hello", NULL };
	int users = __atomic_load_n(&init_fs.users, __ATOMIC_RELAXED);
	struct user_thread *th;
	struct process *p;
	int err = 0, listed = 0, on_init_fs = 0;
	const void *data;
	size_t size;

	if (initramfs_find("hello", &data, &size))
		ktest_skip(t, "no initramfs or no hello (boot with -initrd)");
	p = process_spawn(1, argv, &err);
	KTEST_ASSERT(t, p != NULL, "spawn hello: %d", err);
	spin_lock(&p->lock);
	list_for_each_entry(th, &p->threads, node) {	/* listed: alive */
		listed++;
		on_init_fs += th->task->fs == &init_fs;
	}
	spin_unlock(&p->lock);
	KTEST_EXPECT_EQ(t, on_init_fs, listed);
	KTEST_EXPECT_EQ(t, process_wait(p), 0);
	process_put(p);
	KTEST_EXPECT_EQ(t, __atomic_load_n(&init_fs.users, __ATOMIC_RELAXED),
			users);
}

KTEST_SUITE(fs,
	    KTEST_CASE(test_boot_initramfs_members_are_found_by_path),
	    KTEST_CASE(test_init_fs_holds_the_root_and_the_cwd),
	    KTEST_CASE(test_chdir_moves_relative_lookups),
	    KTEST_CASE(test_user_process_task_points_at_init_fs));
