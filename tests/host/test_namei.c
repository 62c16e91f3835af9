/*
 * tests/host/test_namei.c - the file system of kernel/fs/ on the host:
 * a newc archive built here, unpacked by unpack_to_rootfs into a tree of
 * its own, then walked (kernel/fs/namei.c: ".", "..", relative and
 * absolute symlinks, the 40-link limit, the length limits, -ENOTDIR,
 * -ENOENT), changed (path_openat with O_CREAT/O_EXCL/O_TRUNC/O_NOFOLLOW,
 * do_unlinkat, do_rmdir, do_mkdirat, do_symlinkat) and written (the copy
 * on first write must leave the archive's bytes alone).  A gzip'd, a
 * foreign and a malformed archive are refused with a message.
 * One thread; tests/host/fake_kernel.c's tree lock checks the Locking:
 * claims, ASan the references (a leaked or twice-freed inode fails).
 */

#include "tests/host/check.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/fs/unpack.h"
#include "kernel/mm/slab.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

extern char fake_printk_last[512];
extern bool fake_printk_quiet;

/* ---- a newc writer (tools/mkcpio.py's format) */
static char archive[1 << 16];
static size_t archive_len;

static void cpio_add(const char *name, unsigned int mode, const void *data,
		     size_t size, unsigned int major, unsigned int minor)
{
	size_t namesize = strlen(name) + 1;
	char *p = archive + archive_len;

	snprintf(p, 111,
		 "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		 1, mode, 0, 0, 1, 0, size, 0, 0, major, minor, namesize, 0);
	memcpy(p + 110, name, namesize);
	archive_len = ALIGN_UP(archive_len + 110 + namesize, 4);
	memcpy(archive + archive_len, data, size);
	archive_len = ALIGN_UP(archive_len + size, 4);
}

static const char busybox[] = "\177ELF busybox bytes";

/* build_archive - the shape of compare-linux's initramfs, in small. */
static void build_archive(void)
{
	archive_len = 0;
	memset(archive, 0, sizeof(archive));
	cpio_add(".", S_IFDIR | 0755, "", 0, 0, 0);
	cpio_add("bin", S_IFDIR | 0755, "", 0, 0, 0);
	cpio_add("bin/busybox", S_IFREG | 0755, busybox, sizeof(busybox), 0, 0);
	cpio_add("bin/sh", S_IFLNK | 0777, "busybox", 7, 0, 0);
	/* no "lib" member: unpack makes the directories */
	cpio_add("lib/x86_64-linux-gnu/ld.so", S_IFREG | 0755, "LD", 2, 0, 0);
	cpio_add("lib64", S_IFDIR | 0755, "", 0, 0, 0);
	cpio_add("lib64/ld-linux-x86-64.so.2", S_IFLNK | 0777,
		 "../lib/x86_64-linux-gnu/ld.so", 29, 0, 0);
	cpio_add("abs", S_IFLNK | 0777, "/bin", 4, 0, 0);
	cpio_add("loop1", S_IFLNK | 0777, "loop2", 5, 0, 0);
	cpio_add("loop2", S_IFLNK | 0777, "/loop1", 6, 0, 0);
	cpio_add("file", S_IFREG | 0644, "hello", 5, 0, 0);
	cpio_add("dev/console", S_IFCHR | 0600, "", 0, 5, 1);
	cpio_add("TRAILER!!!", 0, "", 0, 0, 0);
}

static struct inode *new_tree(void)
{
	struct inode *root;
	int n;

	build_archive();
	fs_tree_write_lock();
	root = fs_new_root();
	fs_tree_write_unlock();
	n = unpack_to_rootfs(root, archive, archive_len, "test");
	CHECK_EQ(n, 12);	/* "." counts */
	return root;
}

static void kill_tree(struct inode *root)
{
	fs_tree_write_lock();
	fs_kill_tree(root);
	fs_tree_write_unlock();
}

/* lookup - filename_lookup's result, the reference dropped (the tree
 * keeps the inode alive); NULL with *err set on failure. */
static struct inode *lookup(struct inode *root, struct inode *start,
			    const char *path, unsigned int flags, int *err)
{
	struct inode *inode = NULL;

	*err = filename_lookup(root, start, path, flags, &inode);
	if (*err)
		return NULL;
	iput(inode);
	return inode;
}

static int lookup_err(struct inode *root, const char *path, unsigned int flags)
{
	int err;

	lookup(root, root, path, flags, &err);
	return err;
}

static void test_walk_absolute_and_relative_paths(void)
{
	struct inode *root = new_tree(), *bb, *bin;
	int err;

	bb = lookup(root, root, "/bin/busybox", 0, &err);
	CHECK_EQ(err, 0);
	bin = lookup(root, root, "bin", 0, &err);
	CHECK(bin && S_ISDIR(bin->i_mode), "bin is a directory");
	CHECK(lookup(root, bin, "busybox", 0, &err) == bb, "relative from bin");
	CHECK(lookup(root, bin, "/bin//busybox", 0, &err) == bb,
	      "absolute ignores start, repeated slashes");
	CHECK(bb && S_ISREG(bb->i_mode) && bb->i_size == sizeof(busybox),
	      "busybox's size");
	CHECK(lookup(root, root, "/", 0, &err) == root, "/ is the root");
	CHECK_EQ(lookup_err(root, "", 0), -ENOENT);
	kill_tree(root);
}

static void test_dot_and_dotdot_and_dotdot_at_root_stays(void)
{
	struct inode *root = new_tree(), *bb, *bin;
	int err;

	bb = lookup(root, root, "/bin/busybox", 0, &err);
	bin = lookup(root, root, "/bin", 0, &err);
	CHECK(lookup(root, root, "/bin/./../bin/busybox", 0, &err) == bb,
	      "/bin/./../bin/busybox");
	CHECK(lookup(root, root, "/../../..", 0, &err) == root, "/../..");
	CHECK(lookup(root, root, "..", 0, &err) == root, ".. at root");
	CHECK(lookup(root, bin, "../file", 0, &err) ==
	      lookup(root, root, "/file", 0, &err), "../file from bin");
	CHECK(lookup(root, bin, ".", 0, &err) == bin, ". is start");
	/* a subtree as the root: ".." stops there (a chroot) */
	CHECK(lookup(bin, bin, "../../busybox", 0, &err) == bb,
	      ".. stops at the walk's root");
	kill_tree(root);
}

static void test_symlinks_relative_and_absolute_are_followed(void)
{
	struct inode *root = new_tree(), *bb, *ld, *sh;
	int err;

	bb = lookup(root, root, "/bin/busybox", 0, &err);
	ld = lookup(root, root, "/lib/x86_64-linux-gnu/ld.so", 0, &err);
	CHECK(ld != NULL, "implied directories made");
	CHECK(lookup(root, root, "/bin/sh", LOOKUP_FOLLOW, &err) == bb,
	      "relative link");
	CHECK(lookup(root, root, "/lib64/ld-linux-x86-64.so.2", LOOKUP_FOLLOW,
		     &err) == ld, "relative link through ..");
	CHECK(lookup(root, root, "/abs/busybox", 0, &err) == bb,
	      "absolute link as a directory, followed without LOOKUP_FOLLOW");
	CHECK(lookup(root, root, "abs/sh", LOOKUP_FOLLOW, &err) == bb,
	      "two links");
	CHECK(lookup(root, root, "/abs/", 0, &err) ==
	      lookup(root, root, "/bin", 0, &err), "trailing slash follows");
	sh = lookup(root, root, "/bin/sh", 0, &err);
	CHECK(sh && S_ISLNK(sh->i_mode), "last link not followed without it");
	if (sh) {
		char buf[16] = "";

		CHECK_EQ(vfs_readlink(sh, buf, sizeof(buf)), 7);
		CHECK(!memcmp(buf, "busybox", 7), "readlink gave %.7s", buf);
	}
	CHECK_EQ(vfs_readlink(bb, (char[4]){ 0 }, 4), -EINVAL);
	kill_tree(root);
}

static void test_symlink_loop_and_more_than_40_links_give_eloop(void)
{
	struct inode *root = new_tree();
	char name[16], target[16];
	int err;

	CHECK_EQ(lookup_err(root, "/loop1", LOOKUP_FOLLOW), -ELOOP);
	CHECK_EQ(lookup_err(root, "/loop1/x", 0), -ELOOP);
	CHECK_EQ(lookup_err(root, "/loop1", 0), 0);	/* lstat works */
	/* l1 -> l2 -> ... -> l40 -> file: 40 links, fine; l0 makes 41 */
	for (int i = 0; i <= 40; i++) {
		snprintf(name, sizeof(name), "/l%d", i);
		if (i == 40)
			snprintf(target, sizeof(target), "file");
		else
			snprintf(target, sizeof(target), "l%d", i + 1);
		CHECK_EQ(do_symlinkat(target, root, root, name), 0);
	}
	CHECK(lookup(root, root, "/l1", LOOKUP_FOLLOW, &err) ==
	      lookup(root, root, "/file", 0, &err), "40 links are allowed");
	CHECK_EQ(lookup_err(root, "/l0", LOOKUP_FOLLOW), -ELOOP);
	kill_tree(root);
}

static void test_too_long_names_and_paths_give_enametoolong(void)
{
	struct inode *root = new_tree();
	char *path = kmalloc(PATH_MAX + 2, GFP_KERNEL);

	memset(path, 'a', NAME_MAX + 1);
	path[NAME_MAX + 1] = '\0';
	CHECK_EQ(lookup_err(root, path, 0), -ENAMETOOLONG);
	path[NAME_MAX] = '\0';
	CHECK_EQ(lookup_err(root, path, 0), -ENOENT);
	CHECK_EQ(do_mkdirat(root, root, path, 0755), 0);	/* 255 is fine */
	path[NAME_MAX] = 'a';
	CHECK_EQ(do_mkdirat(root, root, path, 0755), -ENAMETOOLONG);
	/* PATH_MAX bytes without the NUL: too long; one less is walked */
	for (int i = 0; i < PATH_MAX; i++)
		path[i] = i % 2 ? '/' : '.';
	path[PATH_MAX] = '\0';
	CHECK_EQ(lookup_err(root, path, 0), -ENAMETOOLONG);
	path[PATH_MAX - 1] = '\0';
	CHECK_EQ(lookup_err(root, path, 0), 0);
	kfree(path);
	kill_tree(root);
}

static void test_file_as_directory_gives_enotdir_and_missing_enoent(void)
{
	struct inode *root = new_tree();

	CHECK_EQ(lookup_err(root, "/file/x", 0), -ENOTDIR);
	CHECK_EQ(lookup_err(root, "/file/", 0), -ENOTDIR);
	CHECK_EQ(lookup_err(root, "/file", LOOKUP_DIRECTORY), -ENOTDIR);
	CHECK_EQ(lookup_err(root, "/bin/sh/x", 0), -ENOTDIR);
	CHECK_EQ(lookup_err(root, "/bin/sh/", 0), -ENOTDIR);	/* link to a file */
	CHECK_EQ(lookup_err(root, "/abs/", 0), 0);		/* link to a dir */
	CHECK_EQ(lookup_err(root, "/nope", 0), -ENOENT);
	CHECK_EQ(lookup_err(root, "/nope/file", 0), -ENOENT);
	CHECK_EQ(do_mkdirat(root, root, "/file/d", 0755), -ENOTDIR);
	kill_tree(root);
}

static void test_open_create_excl_nofollow_trunc(void)
{
	struct inode *root = new_tree(), *a = NULL, *b = NULL, *i = NULL;
	char buf[8];
	int err;

	CHECK_EQ(path_openat(root, root, "/new", O_CREAT | O_EXCL | O_RDWR,
			     0600, &a), 0);
	CHECK(a && S_ISREG(a->i_mode) && (a->i_mode & 07777) == 0600,
	      "a new 0600 file");
	CHECK_EQ(path_openat(root, root, "/new", O_CREAT | O_EXCL, 0600, &b),
		 -EEXIST);
	CHECK_EQ(path_openat(root, root, "new", O_CREAT | O_RDWR, 0600, &b), 0);
	CHECK(a == b, "O_CREAT without O_EXCL opens the existing file");
	iput(b);
	CHECK_EQ(path_openat(root, root, "/bin/sh", O_CREAT | O_EXCL, 0, &i),
		 -EEXIST);
	CHECK_EQ(path_openat(root, root, "/bin/sh", O_NOFOLLOW, 0, &i), -ELOOP);
	CHECK_EQ(path_openat(root, root, "/bin", O_CREAT, 0, &i), -EISDIR);
	CHECK_EQ(path_openat(root, root, "/bin", O_WRONLY, 0, &i), -EISDIR);
	CHECK_EQ(path_openat(root, root, "/file", O_DIRECTORY, 0, &i), -ENOTDIR);
	CHECK_EQ(path_openat(root, root, "/nope/x", O_CREAT, 0, &i), -ENOENT);
	CHECK_EQ(path_openat(root, root, "/bin/sh", O_RDONLY, 0, &i), 0);
	CHECK(i && i->i_size == sizeof(busybox), "open follows the link");
	iput(i);
	CHECK_EQ(path_openat(root, root, "/file", O_WRONLY | O_TRUNC, 0, &i), 0);
	CHECK(i && i->i_size == 0, "O_TRUNC emptied it");
	CHECK_EQ(inode_read(i, buf, sizeof(buf), 0), 0);
	iput(i);
	/* O_CREAT through a dangling link creates its target, as Linux */
	CHECK_EQ(do_symlinkat("made/by-link", root, root, "/bin/dangling"), 0);
	CHECK_EQ(do_mkdirat(root, root, "/bin/made", 0755), 0);
	CHECK_EQ(path_openat(root, root, "/bin/dangling", O_CREAT | O_WRONLY,
			     0644, &i), 0);
	CHECK(i && i == lookup(root, root, "/bin/made/by-link", 0, &err),
	      "the link's target was created");
	iput(i);
	CHECK_EQ(path_openat(root, root, "/bin/dangling", O_CREAT | O_EXCL, 0,
			     &i), -EEXIST);
	CHECK_EQ(path_openat(root, root, "/loop1", O_CREAT, 0, &i), -ELOOP);
	CHECK_EQ(path_openat(root, root, "/newdir/", O_CREAT, 0, &i), -EISDIR);
	CHECK_EQ(path_openat(root, root, "/", O_CREAT, 0, &i), -EISDIR);
	CHECK_EQ(path_openat(root, root, "/bin/..", O_CREAT, 0, &i), -EISDIR);
	CHECK_EQ(path_openat(root, root, "/d", O_CREAT | O_DIRECTORY, 0, &i),
		 -EINVAL);
	CHECK_EQ(lookup_err(root, "/d", 0), -ENOENT);	/* nothing made */
	/* /dev/shm: a file made, written, sized, unlinked while open */
	CHECK_EQ(do_mkdirat(root, root, "/dev/shm", 01777), 0);
	CHECK_EQ(path_openat(root, root, "/dev/shm/ct1",
			     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0666, &i), 0);
	CHECK_EQ(inode_truncate(i, 30), 0);
	CHECK_EQ(i->i_size, 30);
	CHECK_EQ(do_unlinkat(root, root, "/dev/shm/ct1"), 0);
	CHECK_EQ(inode_write(i, "x", 1, 29), 1);	/* still usable */
	iput(i);					/* now freed */
	iput(a);
	kill_tree(root);
}

static void test_unlink_then_lookup_gives_enoent(void)
{
	struct inode *root = new_tree();

	CHECK_EQ(do_unlinkat(root, root, "/bin/sh"), 0);	/* the link */
	CHECK_EQ(lookup_err(root, "/bin/sh", 0), -ENOENT);
	CHECK_EQ(lookup_err(root, "/bin/busybox", 0), 0);	/* not its target */
	CHECK_EQ(do_unlinkat(root, root, "/file/"), -ENOTDIR);
	CHECK_EQ(do_unlinkat(root, root, "/file"), 0);
	CHECK_EQ(lookup_err(root, "/file", 0), -ENOENT);
	CHECK_EQ(do_unlinkat(root, root, "/file"), -ENOENT);
	CHECK_EQ(do_unlinkat(root, root, "/bin"), -EISDIR);
	CHECK_EQ(do_unlinkat(root, root, "/"), -EISDIR);
	CHECK_EQ(do_rmdir(root, root, "/bin"), -ENOTEMPTY);
	CHECK_EQ(do_rmdir(root, root, "/bin/busybox"), -ENOTDIR);
	CHECK_EQ(do_rmdir(root, root, "/"), -EBUSY);
	CHECK_EQ(do_unlinkat(root, root, "/bin/busybox"), 0);
	CHECK_EQ(do_rmdir(root, root, "/bin"), 0);
	CHECK_EQ(lookup_err(root, "/bin", 0), -ENOENT);
	CHECK_EQ(lookup_err(root, "/abs/busybox", 0), -ENOENT); /* dangling */
	kill_tree(root);
}

static void test_mkdir_symlink_mknod_and_devices_from_the_archive(void)
{
	struct inode *root = new_tree(), *con, *d;
	int err;

	con = lookup(root, root, "/dev/console", 0, &err);
	CHECK(con && S_ISCHR(con->i_mode) && MAJOR(con->i_rdev) == 5 &&
	      MINOR(con->i_rdev) == 1, "dev/console is char 5:1");
	CHECK_EQ(do_mknodat(root, root, "/dev/null", S_IFCHR | 0666,
			    MKDEV(1, 3)), 0);
	CHECK_EQ(do_mknodat(root, root, "/dev/fifo", S_IFIFO | 0666, 0), -EINVAL);
	CHECK_EQ(do_mkdirat(root, root, "/etc", 0755), 0);
	CHECK_EQ(do_mkdirat(root, root, "/etc", 0755), -EEXIST);
	CHECK_EQ(do_mkdirat(root, root, "/etc/..", 0755), -EEXIST);
	CHECK_EQ(do_mkdirat(root, root, "/", 0755), -EEXIST);
	d = lookup(root, root, "/etc", 0, &err);
	CHECK(d && d->i_nlink == 2 && root->i_nlink == 7,
	      "nlink: etc %u root %u", d ? d->i_nlink : 0, root->i_nlink);
	/* busybox --install -s: links made relative to a cwd */
	CHECK_EQ(do_symlinkat("/bin/busybox", root, d, "ls"), 0);
	CHECK_EQ(do_symlinkat("/bin/busybox", root, d, "ls"), -EEXIST);
	CHECK(lookup(root, root, "/etc/ls", LOOKUP_FOLLOW, &err) ==
	      lookup(root, root, "/bin/busybox", 0, &err), "new link works");
	CHECK_EQ(do_symlinkat("", root, root, "/empty"), -ENOENT);
	kill_tree(root);
}

static void test_copy_on_first_write_leaves_the_archive_unchanged(void)
{
	struct inode *root = new_tree(), *bb = NULL;
	static char before[sizeof(archive)];
	char buf[64];
	size_t len = archive_len;

	memcpy(before, archive, len);
	CHECK_EQ(path_openat(root, root, "/bin/busybox", O_RDWR, 0, &bb), 0);
	fs_tree_read_lock();
	CHECK(inode_data_in_module(bb), "unpacked in place");
	CHECK(bb->i_data >= archive && bb->i_data < archive + len,
	      "points into the archive");
	fs_tree_read_unlock();
	CHECK_EQ(inode_truncate(bb, 4), 0);	/* a shrink copies nothing */
	fs_tree_read_lock();
	CHECK(inode_data_in_module(bb), "shrunk in place");
	fs_tree_read_unlock();
	CHECK_EQ(inode_write(bb, "XY", 2, 2), 2);
	fs_tree_read_lock();
	CHECK(!inode_data_in_module(bb), "copied by the write");
	fs_tree_read_unlock();
	CHECK_EQ(inode_read(bb, buf, sizeof(buf), 0), 4);
	CHECK(!memcmp(buf, "\177EXY", 4), "read back the write");
	CHECK_EQ(inode_write(bb, "Z", 1, 10), 1);	/* a hole: zeros */
	CHECK_EQ(inode_read(bb, buf, sizeof(buf), 0), 11);
	CHECK(!memcmp(buf + 4, "\0\0\0\0\0\0Z", 7), "hole reads as zeros");
	CHECK_EQ(inode_truncate(bb, 2), 0);
	CHECK_EQ(inode_truncate(bb, 6), 0);
	CHECK_EQ(inode_read(bb, buf, sizeof(buf), 0), 6);
	CHECK(!memcmp(buf, "\177E\0\0\0\0", 6), "regrown bytes read as zeros");
	CHECK_EQ(inode_read(bb, buf, sizeof(buf), 6), 0);
	CHECK(!memcmp(archive, before, len), "archive bytes unchanged");
	CHECK_EQ(inode_truncate(bb, FS_MAX_FILE_SIZE + 1), -EFBIG);
	CHECK_EQ(inode_write(bb, "x", 1, FS_MAX_FILE_SIZE), -EFBIG);
	iput(bb);
	kill_tree(root);
}

static int unpack_fresh(const void *buf, size_t len)
{
	struct inode *root;
	int n;

	fs_tree_write_lock();
	root = fs_new_root();
	fs_tree_write_unlock();
	fake_printk_last[0] = '\0';
	n = unpack_to_rootfs(root, buf, len, "test");
	kill_tree(root);
	return n;
}

static void test_gzip_foreign_and_malformed_archives_are_refused(void)
{
	static const unsigned char gz[] = { 0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0 };
	size_t cut;

	CHECK_EQ(unpack_fresh(gz, sizeof(gz)), -EINVAL);
	CHECK(strstr(fake_printk_last, "gzip"), "message: %s", fake_printk_last);
	CHECK_EQ(unpack_fresh("BZh91AY&SY", 10), -EINVAL);
	CHECK(strstr(fake_printk_last, "not a cpio"), "message: %s",
	      fake_printk_last);
	CHECK_EQ(unpack_fresh("", 0), -EINVAL);
	/* a bad hex digit in the second member's mode */
	build_archive();
	cut = ALIGN_UP(110 + 2, 4);	/* "." is the first member */
	archive[cut + 14] = 'g';
	CHECK_EQ(unpack_fresh(archive, archive_len), -EINVAL);
	CHECK(strstr(fake_printk_last, "malformed cpio header at offset 112"),
	      "message: %s", fake_printk_last);
	/* a namesize past the end, a file size past the end: every cut of
	 * the archive is refused or accepted, never read past (ASan) */
	build_archive();
	fake_printk_quiet = true;
	for (cut = 0; cut < archive_len; cut += 3)
		CHECK(unpack_fresh(archive, cut) <= 12, "cut at %zu", cut);
	fake_printk_quiet = false;
	build_archive();
	memcpy(archive + 94, "FFFFFFF0", 8);	/* namesize of "." */
	CHECK_EQ(unpack_fresh(archive, archive_len), -EINVAL);
	/* ".." in a member's name is refused, the rest unpacked */
	archive_len = 0;
	cpio_add("../escape", S_IFREG | 0644, "x", 1, 0, 0);
	cpio_add("ok", S_IFREG | 0644, "x", 1, 0, 0);
	cpio_add("TRAILER!!!", 0, "", 0, 0, 0);
	CHECK_EQ(unpack_fresh(archive, archive_len), 1);
	CHECK(strstr(fake_printk_last, "escape"), "message: %s",
	      fake_printk_last);
}

int main(void)
{
	return check_run("namei", (struct check_case[]){
		CHECK_CASE(test_walk_absolute_and_relative_paths),
		CHECK_CASE(test_dot_and_dotdot_and_dotdot_at_root_stays),
		CHECK_CASE(test_symlinks_relative_and_absolute_are_followed),
		CHECK_CASE(test_symlink_loop_and_more_than_40_links_give_eloop),
		CHECK_CASE(test_too_long_names_and_paths_give_enametoolong),
		CHECK_CASE(test_file_as_directory_gives_enotdir_and_missing_enoent),
		CHECK_CASE(test_open_create_excl_nofollow_trunc),
		CHECK_CASE(test_unlink_then_lookup_gives_enoent),
		CHECK_CASE(test_mkdir_symlink_mknod_and_devices_from_the_archive),
		CHECK_CASE(test_copy_on_first_write_leaves_the_archive_unchanged),
		CHECK_CASE(test_gzip_foreign_and_malformed_archives_are_refused),
		{ 0 } });
}
