/*
 * kernel/fs/sys_mount.c - mount(2), umount2(2) and sync(2) for a kernel
 * whose trees are built in: /proc and /sys (procfs.c) and /dev
 * (devices.c) exist from boot, so "mounting" one attaches nothing; it
 * checks that the caller asked for the tree where rtk keeps it, which
 * is what an init script (busybox's, tools/compare_linux.py) needs.
 *
 * mount(source, target, type, flags, data):
 *   [1] the target walked (symlinks followed): the walk's errors
 *       (-ENOENT, -ENOTDIR, -EFAULT, -ENAMETOOLONG), as Linux looks the
 *       target up first (do_mount's user_path_at);
 *   [2] the type: NULL is -EINVAL, a string rtk knows no file system
 *       by is -ENODEV (Linux's get_fs_type failing);
 *   [3] a known type on its own directory is 0 -- also a second time:
 *       Linux mounts proc again on /proc and succeeds (it stacks a new
 *       mount); elsewhere it is -EINVAL (rtk cannot put a tree at a
 *       second place).  flags and data are not looked at (MS_NOSUID,
 *       MS_NODEV, MS_NOEXEC, "mode=0755" and the like change nothing).
 * umount2: unknown flags -EINVAL, a missing target -ENOENT, rtk's three
 * trees -EBUSY (Linux's answer for a mount still in use: the built-in
 * trees always are), any other directory -EINVAL (not a mount point).
 * sync: nothing to write back (the tree is in memory): 0.
 * Linux counterpart: fs/namespace.c (do_mount, path_mount,
 * do_new_mount, ksys_umount), fs/filesystems.c (get_fs_type),
 * fs/sync.c.
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/user_path.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MNT_FORCE		0x1	/* umount2's flags (linux/fs.h) */
#define MNT_DETACH		0x2
#define MNT_EXPIRE		0x4
#define UMOUNT_NOFOLLOW		0x8

/* The built-in trees: each type's names and its one directory. */
static const struct builtin_fs {
	const char *type, *alias, *dir;
} builtin_fs[] = {
	{ "proc", NULL, "/proc" },
	{ "sysfs", NULL, "/sys" },
	{ "devtmpfs", "udev", "/dev" },	/* Debian's initramfs says udev */
};

/* builtin_at - is inode the directory of tree fs?  Context: task,
 * sleeps.  Locking: the walk takes the tree lock. */
static bool builtin_at(const struct builtin_fs *fs, struct inode *inode)
{
	struct inode *root = get_fs_root(&init_fs), *dir;
	bool same = false;

	might_sleep();
	if (!root)
		return false;
	if (!filename_lookup(root, root, fs->dir, LOOKUP_FOLLOW, &dir)) {
		same = dir == inode;
		iput(dir);
	}
	iput(root);
	return same;
}

long sys_mount(const char __user *dev_name, const char __user *dir_name,
	       const char __user *type, unsigned long flags,
	       const void __user *data)
{
	struct inode *target;
	char kind[32];
	long len, err;

	might_sleep();
	err = user_path_at(AT_FDCWD, dir_name, LOOKUP_FOLLOW, false,	/* [1] */
			   &target);
	if (err)
		return err;
	err = -EINVAL;							/* [2] */
	if (!type)
		goto out;
	len = strncpy_from_user(kind, type, sizeof(kind));
	err = len < 0 ? len : -ENODEV;
	if (len < 0 || len == sizeof(kind))
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(builtin_fs); i++) {		/* [3] */
		const struct builtin_fs *fs = &builtin_fs[i];

		if (strcmp(kind, fs->type) && (!fs->alias || strcmp(kind, fs->alias)))
			continue;
		err = builtin_at(fs, target) ? 0 : -EINVAL;
		break;
	}
out:
	iput(target);
	return err;
}

long sys_umount2(const char __user *name, int flags)
{
	struct inode *target;
	long err;

	might_sleep();
	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	err = user_path_at(AT_FDCWD, name,
			   (flags & UMOUNT_NOFOLLOW) ? 0 : LOOKUP_FOLLOW, false,
			   &target);
	if (err)
		return err;
	err = -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(builtin_fs); i++)
		if (builtin_at(&builtin_fs[i], target))
			err = -EBUSY;
	iput(target);
	return err;
}

long sys_sync(void)
{
	return 0;
}
