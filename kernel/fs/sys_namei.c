/*
 * kernel/fs/sys_namei.c - the system calls that add or remove a name:
 * mkdir(2), mkdirat(2), rmdir(2), unlink(2), unlinkat(2), symlink(2),
 * symlinkat(2).  Each copies its path(s) in (getname), resolves dfd
 * (kernel/fs/user_path.c) and calls the do_*at of kernel/fs/namei.c,
 * which does the walk and the change under one hold of the tree lock.
 * A new directory's mode is mode & 01777 & ~umask, as Linux's.
 * Linux counterpart: fs/namei.c (do_mkdirat, do_rmdir, do_unlinkat,
 * do_symlinkat and their SYSCALL_DEFINEs).  Left out: link, rename,
 * mknod from user space.
 */
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/user_path.h"
#include "kernel/user/syscalls.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

#define S_IRWXUGO_SVTX 01777

long sys_mkdirat(int dfd, const char __user *pathname, umode_t mode)
{
	umode_t umask = (umode_t)READ_ONCE(task_fs(current)->umask);
	struct at_path ap;
	char *path;
	int ret;

	might_sleep();
	path = getname(pathname, &ret);
	if (!path)
		return ret;
	ret = at_path_get(dfd, path, &ap);
	if (!ret) {
		ret = do_mkdirat(ap.root, ap.start, path,
				 mode & S_IRWXUGO_SVTX & ~umask);
		at_path_put(&ap);
	}
	putname(path);
	return ret;
}

long sys_mkdir(const char __user *pathname, umode_t mode)
{
	return sys_mkdirat(AT_FDCWD, pathname, mode);
}

/* sys_unlinkat - AT_REMOVEDIR removes a directory (rmdir's answers),
 * else a non-directory; another flag bit is -EINVAL. */
long sys_unlinkat(int dfd, const char __user *pathname, int flag)
{
	struct at_path ap;
	char *path;
	int ret;

	might_sleep();
	if (flag & ~AT_REMOVEDIR)
		return -EINVAL;
	path = getname(pathname, &ret);
	if (!path)
		return ret;
	ret = at_path_get(dfd, path, &ap);
	if (!ret) {
		if (flag & AT_REMOVEDIR)
			ret = do_rmdir(ap.root, ap.start, path);
		else
			ret = do_unlinkat(ap.root, ap.start, path);
		at_path_put(&ap);
	}
	putname(path);
	return ret;
}

long sys_unlink(const char __user *pathname)
{
	return sys_unlinkat(AT_FDCWD, pathname, 0);
}

long sys_rmdir(const char __user *pathname)
{
	return sys_unlinkat(AT_FDCWD, pathname, AT_REMOVEDIR);
}

/* sys_symlinkat - a symlink newname -> oldname; oldname is stored as it
 * is (an empty one is -ENOENT, as Linux). */
long sys_symlinkat(const char __user *oldname, int newdfd,
		   const char __user *newname)
{
	struct at_path ap;
	char *target, *path;
	int ret;

	might_sleep();
	target = getname(oldname, &ret);
	if (!target)
		return ret;
	path = getname(newname, &ret);
	if (!path)
		goto out_target;
	ret = at_path_get(newdfd, path, &ap);
	if (!ret) {
		ret = do_symlinkat(target, ap.root, ap.start, path);
		at_path_put(&ap);
	}
	putname(path);
out_target:
	putname(target);
	return ret;
}

long sys_symlink(const char __user *oldname, const char __user *newname)
{
	return sys_symlinkat(oldname, AT_FDCWD, newname);
}
