/*
 * kernel/fs/read_write_vec.c - readv(2) and writev(2): a vector of user
 * buffers (struct iovec) read into or written from in order, as one
 * read or write per buffer through sys_read / sys_write.
 *
 * The answer is Linux's: the bytes moved over all buffers, stopping at
 * the first short transfer (end of file, a full pipe); an error only if
 * nothing moved.  -EINVAL for a count outside 0..UIO_MAXIOV or a total
 * length over MAX_RW_COUNT, -EFAULT for an unreadable vector.  glibc
 * writes its error messages (and ld.so its diagnostics) with writev.
 * Named difference: Linux makes the whole vector one operation on the
 * file (one f_pos_lock hold, one console write); here two threads'
 * writev to the console may interleave between buffers.
 * Linux counterpart: fs/read_write.c (do_readv, do_writev,
 * import_iovec).
 */
#include "kernel/fs/fdtable.h"
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

#define UIO_MAXIOV 1024
#define MAX_RW_COUNT ((size_t)(0x7fffffff & PAGE_MASK))
#define IOV_CHUNK 16	/* iovecs copied in per step, on the stack */

/*
 * do_rw_vec - the steps for readv (write false) and writev:
 *   [1] check the count; read the vector IOV_CHUNK entries at a time
 *       (no allocation), checking the running total;
 *   [2] each buffer in turn through sys_read / sys_write;
 *   [3] stop at an error (returned only if nothing moved yet) or a
 *       short transfer.
 * Context: task, may sleep.  Locking: none held.
 */
static long do_rw_vec(unsigned long fd, const struct iovec __user *vec,
		      unsigned long vlen, bool write)
{
	struct iovec iov[IOV_CHUNK];
	struct file *file = fget((unsigned int)fd);
	size_t total = 0;
	long done = 0;

	might_sleep();
	if (!file)		/* even for an empty vector, as Linux */
		return -EBADF;
	fput(file);
	if (vlen > UIO_MAXIOV)						/* [1] */
		return -EINVAL;
	for (unsigned long i = 0; i < vlen; i += IOV_CHUNK) {
		unsigned long n = vlen - i < IOV_CHUNK ? vlen - i : IOV_CHUNK;

		if (copy_from_user(iov, vec + i, n * sizeof(iov[0])))
			return done ? done : -EFAULT;
		for (unsigned long j = 0; j < n; j++) {
			long ret;

			if ((long)iov[j].iov_len < 0 ||
			    iov[j].iov_len > MAX_RW_COUNT - total)
				return done ? done : -EINVAL;
			total += iov[j].iov_len;
			if (!iov[j].iov_len)
				continue;
			ret = write ? sys_write(fd, iov[j].iov_base,	/* [2] */
						iov[j].iov_len) :
				      sys_read(fd, iov[j].iov_base,
					       iov[j].iov_len);
			if (ret < 0)					/* [3] */
				return done ? done : ret;
			done += ret;
			if ((size_t)ret < iov[j].iov_len)
				return done;
		}
	}
	return done;
}

long sys_readv(unsigned long fd, const struct iovec __user *vec,
	       unsigned long vlen)
{
	return do_rw_vec(fd, vec, vlen, false);
}

long sys_writev(unsigned long fd, const struct iovec __user *vec,
		unsigned long vlen)
{
	return do_rw_vec(fd, vec, vlen, true);
}
