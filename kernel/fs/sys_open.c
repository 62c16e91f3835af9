/*
 * kernel/fs/sys_open.c - open(2), openat(2), close(2), ftruncate(2),
 * access(2), faccessat(2): the calls that make or end an fd, or ask
 * about a path without one.
 *
 * do_sys_openat:
 *   [1] copy the path in (getname: -EFAULT, -ENAMETOOLONG, -ENOENT);
 *   [2] a free fd below RLIMIT_NOFILE must exist (-EMFILE), before
 *       anything is created;
 *   [3] the root and start directory from dfd (-EBADF, -ENOTDIR);
 *   [4] path_openat: lookup, O_CREAT (mode & 07777 & ~umask), O_EXCL,
 *       O_TRUNC, O_NOFOLLOW, O_DIRECTORY (kernel/fs/open.c);
 *   [5] a struct file on the inode (vfs_open: -ENXIO for a device
 *       without a driver);
 *   [6] installed at the lowest free fd, FD_CLOEXEC from O_CLOEXEC.
 * Permissions: every rtk program is root, so access(2) checks existence
 * and, for X_OK, that some execute bit is set (a directory always
 * passes), which is what root gets from Linux.
 * Linux counterpart: fs/open.c (do_sys_openat2, build_open_flags,
 * close_fd, do_sys_ftruncate, do_faccessat).  Left out: openat2, O_PATH,
 * O_TMPFILE, creat.
 */
#include "kernel/fs/fdtable.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/user_path.h"
#include "kernel/user/syscalls.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"

#define S_IALLUGO 07777
#define S_IXUGO 00111

static umode_t current_umask(void)
{
	return (umode_t)READ_ONCE(task_fs(current)->umask);
}

long do_sys_openat(int dfd, const char __user *filename, int flags,
		   umode_t mode)
{
	struct files_struct *files = current->files;
	struct inode *inode;
	struct at_path ap;
	struct file *file;
	char *path;
	int ret;

	might_sleep();
	BUG_ON(!files);
	path = getname(filename, &ret);					/* [1] */
	if (!path)
		return ret;
	ret = -EMFILE;							/* [2] */
	if (!files_has_free_fd(files, rlimit_nofile()))
		goto out_putname;
	ret = at_path_get(dfd, path, &ap);				/* [3] */
	if (ret)
		goto out_putname;
	ret = path_openat(ap.root, ap.start, path, flags,		/* [4] */
			  mode & S_IALLUGO & ~current_umask(), &inode);
	at_path_put(&ap);
	if (ret)
		goto out_putname;
	file = vfs_open(inode, (unsigned int)flags, &ret);		/* [5] */
	if (!file) {
		iput(inode);
		goto out_putname;
	}
	ret = alloc_fd(files, file, 0, rlimit_nofile(),			/* [6] */
		       flags & O_CLOEXEC);
	if (ret < 0)
		fput(file);
out_putname:
	putname(path);
	return ret;
}

long sys_open(const char __user *filename, int flags, umode_t mode)
{
	return do_sys_openat(AT_FDCWD, filename, flags, mode);
}

long sys_openat(int dfd, const char __user *filename, int flags, umode_t mode)
{
	return do_sys_openat(dfd, filename, flags, mode);
}

long sys_close(unsigned int fd)
{
	return close_fd(current->files, fd);
}

/* sys_ftruncate - -EINVAL for length < 0, -EBADF, -EINVAL unless a
 * regular file open for writing, -EFBIG past FS_MAX_FILE_SIZE. */
long sys_ftruncate(unsigned int fd, loff_t length)
{
	struct file *file;
	long ret;

	might_sleep();
	if (length < 0)
		return -EINVAL;
	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = -EINVAL;
	if (S_ISREG(file->f_inode->i_mode) && file_writable(file))
		ret = inode_truncate(file->f_inode, (size_t)length);
	fput(file);
	return ret;
}

/* sys_faccessat - 0 if path exists (symlinks followed) and, for X_OK,
 * is executable by root; -EINVAL for mode bits beyond R|W|X, -EACCES,
 * the walk's errors. */
long sys_faccessat(int dfd, const char __user *filename, int mode)
{
	struct inode *inode;
	long ret;

	might_sleep();
	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	ret = user_path_at(dfd, filename, LOOKUP_FOLLOW, false, &inode);
	if (ret)
		return ret;
	if ((mode & X_OK) && !S_ISDIR(inode->i_mode) &&
	    !(inode->i_mode & S_IXUGO))
		ret = -EACCES;
	iput(inode);
	return ret;
}

long sys_access(const char __user *filename, int mode)
{
	return sys_faccessat(AT_FDCWD, filename, mode);
}
