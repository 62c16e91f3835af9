/*
 * kernel/fs/read_write.c - read(2), write(2), pread64(2), lseek(2): an
 * fd's file, its access mode, the user buffer's range, then the file's
 * operation at its position.
 *
 * The position: a regular file's or a directory's is shared by every fd
 * on the file, so a read and a seek through two dups (or two threads)
 * do not interleave: f_pos_lock is held across the operation (Linux's
 * FMODE_ATOMIC_POS, fdget_pos).  A device's position means nothing, and
 * taking the lock there would make every thread's printf wait for the
 * others' console writes: devices get a copy of f_pos and no lock.
 * A file without llseek (the console) is a stream: lseek and pread64
 * are -ESPIPE, as after Linux's nonseekable_open.
 * Linux counterpart: fs/read_write.c (ksys_read, ksys_write, vfs_read,
 * vfs_write, ksys_pread64, ksys_lseek, rw_verify_area, MAX_RW_COUNT).
 * Left out: pwrite64, sendfile, splice (readv/writev: read_write_vec.c).
 */
#include "kernel/fs/fdtable.h"
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

/* Linux caps one read or write at INT_MAX rounded down to a page. */
#define MAX_RW_COUNT ((size_t)(0x7fffffff & PAGE_MASK))

static bool file_has_shared_pos(const struct file *file)
{
	umode_t mode = file->f_inode->i_mode;

	return S_ISREG(mode) || S_ISDIR(mode);
}

/*
 * rw_verify - what read and write check before the operation, in
 * Linux's order: -EBADF without the access mode (allowed), -EINVAL
 * without the operation (has_op), -EFAULT for a buffer outside user
 * space; *count is cut to MAX_RW_COUNT first.  Context: any.
 */
static long rw_verify(bool allowed, bool has_op, const void __user *buf,
		      size_t *count)
{
	if (!allowed)
		return -EBADF;
	if (!has_op)
		return -EINVAL;
	if (*count > MAX_RW_COUNT)
		*count = MAX_RW_COUNT;
	return access_ok(buf, *count) ? 0 : -EFAULT;
}

/*
 * vfs_read, vfs_write - count bytes between buf and the file at *pos:
 * rw_verify's errors, 0 for no bytes, else the operation's answer.
 * Context: task, may sleep.
 */
static long vfs_read(struct file *file, char __user *buf, size_t count,
		     loff_t *pos)
{
	long ret;

	might_sleep();
	ret = rw_verify(file_readable(file), file->f_op->read != NULL, buf,
			&count);
	if (ret || !count)
		return ret;
	return file->f_op->read(file, buf, count, pos);
}

static long vfs_write(struct file *file, const char __user *buf, size_t count,
		      loff_t *pos)
{
	long ret;

	might_sleep();
	ret = rw_verify(file_writable(file), file->f_op->write != NULL, buf,
			&count);
	if (ret || !count)
		return ret;
	return file->f_op->write(file, buf, count, pos);
}

/* file_pos_lock / file_pos_unlock - see the header: the shared position
 * is held for the call; a device's is copied. */
static loff_t file_pos_lock(struct file *file)
{
	if (file_has_shared_pos(file)) {
		rt_mutex_lock(&file->f_pos_lock);
		return file->f_pos;
	}
	return READ_ONCE(file->f_pos);
}

static void file_pos_unlock(struct file *file, loff_t pos)
{
	if (file_has_shared_pos(file)) {
		file->f_pos = pos;
		rt_mutex_unlock(&file->f_pos_lock);
	} else {
		WRITE_ONCE(file->f_pos, pos);
	}
}

long sys_read(unsigned int fd, char __user *buf, size_t count)
{
	struct file *file = fget(fd);
	loff_t pos;
	long ret;

	might_sleep();
	if (!file)
		return -EBADF;
	pos = file_pos_lock(file);
	ret = vfs_read(file, buf, count, &pos);
	file_pos_unlock(file, pos);
	fput(file);
	return ret;
}

long sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	struct file *file = fget(fd);
	loff_t pos;
	long ret;

	might_sleep();
	if (!file)
		return -EBADF;
	pos = file_pos_lock(file);
	ret = vfs_write(file, buf, count, &pos);
	file_pos_unlock(file, pos);
	fput(file);
	return ret;
}

/* sys_pread64 - read at pos, f_pos unchanged: -EINVAL for pos < 0,
 * -EBADF, -ESPIPE for a stream, then vfs_read's answers. */
long sys_pread64(unsigned int fd, char __user *buf, size_t count, loff_t pos)
{
	struct file *file;
	long ret;

	might_sleep();
	if (pos < 0)
		return -EINVAL;
	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = -ESPIPE;
	if (file->f_op->llseek)
		ret = vfs_read(file, buf, count, &pos);
	fput(file);
	return ret;
}

/* sys_lseek - the new position: -EBADF, -EINVAL for whence > SEEK_MAX
 * (before -ESPIPE, as Linux), -ESPIPE for a stream, then the file's
 * llseek (-EINVAL for a negative result). */
long sys_lseek(unsigned int fd, loff_t offset, unsigned int whence)
{
	struct file *file = fget(fd);
	long ret;

	might_sleep();
	if (!file)
		return -EBADF;
	ret = -EINVAL;
	if (whence > SEEK_MAX)
		goto out_put;
	ret = -ESPIPE;
	if (!file->f_op->llseek)
		goto out_put;
	rt_mutex_lock(&file->f_pos_lock);
	ret = file->f_op->llseek(file, offset, (int)whence);
	rt_mutex_unlock(&file->f_pos_lock);
out_put:
	fput(file);
	return ret;
}
