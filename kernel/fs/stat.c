/*
 * kernel/fs/stat.c - newfstatat(2) with stat, lstat and fstat on top,
 * readlinkat(2) and readlink(2): what a path or an fd names, told in
 * x86_64 Linux's struct stat (kernel/fs/stat_abi.c), and a symlink's
 * target.
 *
 * newfstatat's flags: AT_SYMLINK_NOFOLLOW (lstat: the link itself),
 * AT_EMPTY_PATH ("" names dfd: glibc's fstat is newfstatat(fd, "",
 * AT_EMPTY_PATH)), AT_NO_AUTOMOUNT (nothing to do); any other bit is
 * -EINVAL.  The record is filled under the tree lock and copied out
 * after it is dropped.
 * Linux counterpart: fs/stat.c (vfs_fstatat, vfs_fstat, cp_new_stat,
 * do_readlinkat).  Left out: statx, the old stat layouts.
 */
#include "kernel/fs/fdtable.h"
#include "kernel/fs/stat_abi.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/fs/user_path.h"
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

/* stat_to_user - inode's struct stat into statbuf: 0 or -EFAULT.
 * Context: task.  Locking: the tree lock (read) for the fill only. */
static long stat_to_user(struct inode *inode, struct stat __user *statbuf)
{
	struct stat st;

	fs_tree_read_lock();
	cp_new_stat(inode, &st);
	fs_tree_read_unlock();
	return copy_to_user(statbuf, &st, sizeof(st)) ? -EFAULT : 0;
}

long sys_newfstatat(int dfd, const char __user *filename,
		    struct stat __user *statbuf, int flag)
{
	unsigned int lookup = LOOKUP_FOLLOW;
	struct inode *inode;
	long ret;

	might_sleep();
	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH))
		return -EINVAL;
	if (flag & AT_SYMLINK_NOFOLLOW)
		lookup = 0;
	ret = user_path_at(dfd, filename, lookup, flag & AT_EMPTY_PATH, &inode);
	if (ret)
		return ret;
	ret = stat_to_user(inode, statbuf);
	iput(inode);
	return ret;
}

long sys_stat(const char __user *filename, struct stat __user *statbuf)
{
	return sys_newfstatat(AT_FDCWD, filename, statbuf, 0);
}

long sys_lstat(const char __user *filename, struct stat __user *statbuf)
{
	return sys_newfstatat(AT_FDCWD, filename, statbuf, AT_SYMLINK_NOFOLLOW);
}

long sys_fstat(unsigned int fd, struct stat __user *statbuf)
{
	struct file *file = fget(fd);
	long ret;

	might_sleep();
	if (!file)
		return -EBADF;
	ret = stat_to_user(file->f_inode, statbuf);
	fput(file);
	return ret;
}

/* sys_readlinkat - up to bufsiz bytes of the symlink's target, no NUL:
 * the count; -EINVAL for bufsiz <= 0 or a path that is not a symlink,
 * the walk's errors (the last component is not followed), -EFAULT. */
long sys_readlinkat(int dfd, const char __user *pathname, char __user *buf,
		    int bufsiz)
{
	struct inode *inode;
	size_t len;
	char *kbuf;
	long ret;

	might_sleep();
	if (bufsiz <= 0)
		return -EINVAL;
	ret = user_path_at(dfd, pathname, 0, false, &inode);
	if (ret)
		return ret;
	len = (size_t)bufsiz < PATH_MAX ? (size_t)bufsiz : PATH_MAX;
	ret = -ENOMEM;
	kbuf = kmalloc(len, GFP_KERNEL);
	if (!kbuf)
		goto out_put;
	ret = vfs_readlink(inode, kbuf, len);
	if (ret > 0 && copy_to_user(buf, kbuf, (size_t)ret))
		ret = -EFAULT;
	kfree(kbuf);
out_put:
	iput(inode);
	return ret;
}

long sys_readlink(const char __user *path, char __user *buf, int bufsiz)
{
	return sys_readlinkat(AT_FDCWD, path, buf, bufsiz);
}
