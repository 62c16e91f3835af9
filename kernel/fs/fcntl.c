/*
 * kernel/fs/fcntl.c - dup(2), dup2(2), dup3(2), fcntl(2), ioctl(2): new
 * fds for an open file, an fd's close-on-exec bit, a file's status
 * flags, and the device commands.
 *
 * Linux's order of checks, which decides the errno when several apply:
 * dup3 refuses bad flags and oldfd == newfd (-EINVAL) and a newfd at or
 * past RLIMIT_NOFILE (-EBADF) before it looks at oldfd (-EBADF);
 * F_DUPFD refuses a start at or past the limit with -EINVAL, a full
 * table below it with -EMFILE.  F_SETFL changes O_APPEND and O_NONBLOCK
 * only (Linux's SETFL_MASK without O_DIRECT, O_NOATIME, FASYNC, which
 * rtk lacks); the access mode never changes.
 * ioctl goes to the file's own ioctl (the console's TCGETS and
 * TIOCGWINSZ); a file without one is -ENOTTY, as Linux.
 * Linux counterpart: fs/file.c (ksys_dup3, ksys_dup, do_dup2), fs/fcntl.c
 * (do_fcntl, f_dupfd, setfl), fs/ioctl.c.  Left out: locks (F_SETLK...),
 * F_SETOWN and signals, leases, notify, seals, FIOCLEX/FIONBIO.
 */
#include "kernel/fs/fdtable.h"
#include "kernel/user/syscalls.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

#define SETFL_MASK (O_APPEND | O_NONBLOCK)

long sys_dup(unsigned int fildes)
{
	struct file *file = fget(fildes);
	long ret;

	might_sleep();
	if (!file)
		return -EBADF;
	ret = alloc_fd(current->files, file, 0, rlimit_nofile(), false);
	if (ret < 0)
		fput(file);
	return ret;
}

long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags)
{
	struct file *file;
	long ret;

	might_sleep();
	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	if (newfd >= rlimit_nofile())
		return -EBADF;
	file = fget(oldfd);
	if (!file)
		return -EBADF;
	ret = replace_fd(current->files, newfd, file, flags & O_CLOEXEC);
	if (ret < 0)
		fput(file);
	return ret;
}

/* sys_dup2 - as dup3 with no flags, except that oldfd == newfd is newfd
 * when it is open (-EBADF otherwise). */
long sys_dup2(unsigned int oldfd, unsigned int newfd)
{
	struct file *file;

	if (oldfd != newfd)
		return sys_dup3(oldfd, newfd, 0);
	file = fget(oldfd);
	if (!file)
		return -EBADF;
	fput(file);
	return newfd;
}

/* setfl - F_SETFL: the changeable bits from arg.  Locking: f_pos_lock
 * serialises two F_SETFLs; readers use READ_ONCE. */
static long setfl(struct file *file, unsigned long arg)
{
	unsigned int flags;

	rt_mutex_lock(&file->f_pos_lock);
	flags = (file->f_flags & ~SETFL_MASK) | ((unsigned int)arg & SETFL_MASK);
	WRITE_ONCE(file->f_flags, flags);
	rt_mutex_unlock(&file->f_pos_lock);
	return 0;
}

long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct files_struct *files = current->files;
	struct file *file = fget(fd);
	long ret;

	might_sleep();
	if (!file)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		ret = -EINVAL;
		if (arg >= rlimit_nofile())
			break;
		ret = alloc_fd(files, get_file(file), (unsigned int)arg,
			       rlimit_nofile(), cmd == F_DUPFD_CLOEXEC);
		if (ret < 0)
			fput(file);
		break;
	case F_GETFD:
		ret = get_close_on_exec(files, fd);
		break;
	case F_SETFD:
		ret = set_close_on_exec(files, fd, arg & FD_CLOEXEC);
		break;
	case F_GETFL:
		ret = READ_ONCE(file->f_flags);
		break;
	case F_SETFL:
		ret = setfl(file, arg);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	fput(file);
	return ret;
}

long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct file *file = fget(fd);
	long ret;

	might_sleep();
	if (!file)
		return -EBADF;
	ret = file->f_op->ioctl ? file->f_op->ioctl(file, cmd, arg) : -ENOTTY;
	fput(file);
	return ret;
}
