/*
 * tests/kernel/test_fdtable.c - the fd table (kernel/fs/fdtable.c) driven
 * from the kernel, on files opened on /dev/null: the parts no rtk
 * program reaches yet (dup_fd: clone without CLONE_FILES, part 2's
 * fork) and the table's own rules, with the slab counts back at the end.
 *
 * Scenario: one task, a table A.  [1] alloc_fd hands out 0, 1, 2, then
 * the lowest free fd (a hole left by close_fd is reused first) and
 * -EMFILE at the limit; [2] 200 fds grow A past NR_OPEN_DEFAULT;
 * [3] B = dup_fd(A) holds the same files (one more reference each) and
 * the same close-on-exec bits; closing in B leaves A's fd open, and a
 * replace_fd in B leaves A's file alone; [4] put B, put A: every file
 * is released and the slab object count is back.
 */
#include "kernel/ktest.h"
#include "kernel/fs/fdtable.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/mm/slab.h"
#include "lib/errno.h"

static struct file *open_null(struct ktest *t)
{
	struct inode *root = get_fs_root(&init_fs), *inode;
	struct file *file = NULL;
	int err;

	if (!root)
		return NULL;
	err = path_openat(root, root, "/dev/null", O_RDWR, 0, &inode);
	iput(root);
	KTEST_EXPECT(t, err == 0, "open /dev/null: %d", err);
	if (err)
		return NULL;
	file = vfs_open(inode, O_RDWR, &err);
	if (!file)
		iput(inode);
	return file;
}

static void test_fdtable_lowest_fd_limit_growth_and_dup_fd(struct ktest *t)
{
	struct files_struct *a, *b;
	unsigned long objs0, objs1, pages;
	struct file *f, *g;
	int fd;

	slab_drain_all();
	kmem_cache_totals(&objs0, &pages);
	a = files_alloc();
	f = open_null(t);
	KTEST_ASSERT(t, a && f, "no table or no /dev/null");
	for (int i = 0; i < 3; i++)				/* [1] */
		KTEST_EXPECT_EQ(t, alloc_fd(a, get_file(f), 0, 16, false), i);
	KTEST_EXPECT_EQ(t, close_fd(a, 1), 0);
	KTEST_EXPECT_EQ(t, close_fd(a, 1), -EBADF);
	KTEST_EXPECT_EQ(t, alloc_fd(a, get_file(f), 0, 16, true), 1);
	KTEST_EXPECT_EQ(t, get_close_on_exec(a, 1), 1);
	KTEST_EXPECT_EQ(t, alloc_fd(a, get_file(f), 10, 16, false), 10);
	KTEST_EXPECT_EQ(t, alloc_fd(a, f, 16, 16, false), -EMFILE);
	for (int i = 0; i < 200; i++) {				/* [2] */
		fd = alloc_fd(a, get_file(f), 0, FD_TABLE_MAX, false);
		KTEST_EXPECT(t, fd >= 3, "alloc_fd %d: %d", i, fd);
		if (fd < 0)
			fput(f);
	}
	KTEST_EXPECT(t, a->max_fds >= 256, "table grew to %u", a->max_fds);
	KTEST_EXPECT_EQ(t, files_count_open(a), 204);
	b = dup_fd(a);						/* [3] */
	KTEST_ASSERT(t, b, "dup_fd: no memory");
	KTEST_EXPECT_EQ(t, files_count_open(b), 204);
	KTEST_EXPECT_EQ(t, get_close_on_exec(b, 1), 1);
	KTEST_EXPECT_EQ(t, get_close_on_exec(b, 0), 0);
	KTEST_EXPECT_EQ(t, close_fd(b, 10), 0);
	g = fget_files(a, 10);
	KTEST_EXPECT(t, g == f, "A's fd 10 survives B's close");
	if (g)
		fput(g);
	KTEST_EXPECT_EQ(t, replace_fd(b, 0, get_file(f), true), 0);
	KTEST_EXPECT_EQ(t, get_close_on_exec(b, 0), 1);
	KTEST_EXPECT_EQ(t, get_close_on_exec(a, 0), 0);
	put_files_struct(b);					/* [4] */
	KTEST_EXPECT_EQ(t, f->f_count, 1 + 204);
	fput(f);	/* the one not installed: -EMFILE left it ours */
	put_files_struct(a);
	slab_drain_all();
	kmem_cache_totals(&objs1, &pages);
	KTEST_EXPECT(t, objs1 == objs0, "slab objects back to %lu, saw %lu",
		     objs0, objs1);
}

KTEST_SUITE(fdtable, KTEST_CASE(test_fdtable_lowest_fd_limit_growth_and_dup_fd));
