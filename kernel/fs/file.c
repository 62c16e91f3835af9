/*
 * kernel/fs/file.c - struct file: made at open, shared by the fds that
 * name it, freed at the last fput; and the operations of regular files
 * and directories (kernel/fs/file.h).
 *
 * A regular file's bytes are the inode's (kernel/fs/inode.c: still in
 * the boot module until the first write).  read and write go through a
 * page-sized kernel buffer: inode_read/inode_write take the tree lock,
 * and no user copy happens under it (a user copy may fault, and the
 * fault path must not wait for a lock a writer of the tree holds).
 * Linux counterpart: fs/file_table.c (alloc_file, fput, __fput),
 * fs/open.c (do_dentry_open), fs/read_write.c (generic_file_llseek_size,
 * vfs_setpos), mm/filemap.c and fs/libfs.c (ramfs's read/write,
 * dcache_dir_lseek).  Left out: the page cache, O_DIRECT, mmap (item 4).
 */
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/procfs.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"

bool file_readable(const struct file *file)
{
	return (file->f_flags & O_ACCMODE) != O_WRONLY;
}

bool file_writable(const struct file *file)
{
	unsigned int acc = file->f_flags & O_ACCMODE;

	return acc == O_WRONLY || acc == O_RDWR;
}

/*
 * generic_file_llseek_size - lseek(2)'s arithmetic: SEEK_SET, SEEK_CUR,
 * SEEK_END (from eof), SEEK_DATA and SEEK_HOLE (-ENXIO past eof, as
 * Linux's generic_file_llseek); another whence, a negative result or an overflow
 * is -EINVAL, as Linux's vfs_setpos.  Sets and returns f_pos.
 * Locking: file->f_pos_lock held.
 */
loff_t generic_file_llseek_size(struct file *file, loff_t offset, int whence,
				loff_t eof)
{
	loff_t base, pos;

	BUG_ON(!rt_mutex_is_locked(&file->f_pos_lock));
	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = file->f_pos;
		break;
	case SEEK_END:
		base = eof;
		break;
	case SEEK_DATA:		/* no holes: data from offset to eof */
		if (offset < 0 || offset >= eof)
			return -ENXIO;
		return file->f_pos = offset;
	case SEEK_HOLE:		/* the one hole: at eof */
		if (offset < 0 || offset >= eof)
			return -ENXIO;
		return file->f_pos = eof;
	default:
		return -EINVAL;
	}
	if (__builtin_add_overflow(base, offset, &pos) || pos < 0)
		return -EINVAL;
	file->f_pos = pos;
	return pos;
}

/* Bytes one read or write moves per tree-lock hold. */
#define FILE_CHUNK PAGE_SIZE

/*
 * regular_read - copy the file's bytes at *pos to buf, a chunk at a time.
 * Context: task, may sleep.  Locking: none held; the tree lock per chunk.
 */
static long regular_read(struct file *file, char __user *buf, size_t count,
			 loff_t *pos)
{
	size_t done = 0;
	char *kbuf;
	long ret = 0;

	might_sleep();
	kbuf = kmalloc(FILE_CHUNK, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	while (done < count) {
		size_t chunk = count - done < FILE_CHUNK ? count - done : FILE_CHUNK;
		long n = inode_read(file->f_inode, kbuf, chunk, (size_t)*pos);
		size_t left;

		if (n <= 0) {
			ret = n;
			break;
		}
		left = copy_to_user(buf + done, kbuf, (size_t)n);
		done += (size_t)n - left;
		*pos += (loff_t)((size_t)n - left);
		if (left) {
			ret = -EFAULT;
			break;
		}
		if ((size_t)n < chunk)
			break;		/* end of file */
	}
	kfree(kbuf);
	return done ? (long)done : ret;
}

/*
 * regular_write - copy buf into the file at *pos (at its end with
 * O_APPEND), growing it: the bytes written, or -EFAULT, -EFBIG, -ENOMEM
 * when none were.  Two O_APPEND writers through different files may
 * interleave their "where is the end" and their write (no i_rwsem).
 * Context: task, may sleep.  Locking: as regular_read.
 */
static long regular_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *pos)
{
	size_t done = 0;
	char *kbuf;
	long ret = 0;

	might_sleep();
	kbuf = kmalloc(FILE_CHUNK, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	if (READ_ONCE(file->f_flags) & O_APPEND)
		*pos = (loff_t)READ_ONCE(file->f_inode->i_size);
	while (done < count) {
		size_t chunk = count - done < FILE_CHUNK ? count - done : FILE_CHUNK;
		size_t left = copy_from_user(kbuf, buf + done, chunk);
		long n;

		if (left == chunk) {
			ret = -EFAULT;
			break;
		}
		n = inode_write(file->f_inode, kbuf, chunk - left, (size_t)*pos);
		if (n <= 0) {
			ret = n;
			break;
		}
		done += (size_t)n;
		*pos += n;
		if (left) {
			ret = -EFAULT;
			break;
		}
	}
	kfree(kbuf);
	return done ? (long)done : ret;
}

static loff_t regular_llseek(struct file *file, loff_t offset, int whence)
{
	return generic_file_llseek_size(file, offset, whence,
					(loff_t)READ_ONCE(file->f_inode->i_size));
}

static const struct file_operations regular_fops = {
	.read = regular_read,
	.write = regular_write,
	.llseek = regular_llseek,
};

/* A directory is read with getdents64 (readdir.c); read(2) is -EISDIR.
 * Its position counts entries ("." and ".." first); SEEK_END is -EINVAL
 * (Linux's dcache_dir_lseek). */
static long dir_read(struct file *file, char __user *buf, size_t count,
		     loff_t *pos)
{
	return -EISDIR;
}

static loff_t dir_llseek(struct file *file, loff_t offset, int whence)
{
	if (whence != SEEK_SET && whence != SEEK_CUR)
		return -EINVAL;
	return generic_file_llseek_size(file, offset, whence, 0);
}

static const struct file_operations dir_fops = {
	.read = dir_read,
	.llseek = dir_llseek,
};

/*
 * alloc_file - a new struct file with operations fop on inode (the
 * caller's reference passes to it) and open flags `flags` (O_CLOEXEC and
 * the creation flags are not kept: they belong to the fd or were used by
 * path_openat), after fop->open: NULL with *err -ENOMEM or open's error,
 * the reference then still the caller's.  vfs_open picks fop by the
 * inode's kind; socketpair (af_unix.c) passes its own.
 * Context: task, may sleep.
 */
struct file *alloc_file(struct inode *inode, unsigned int flags,
			const struct file_operations *fop, int *err)
{
	struct file *file;

	might_sleep();
	*err = -ENOMEM;
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file)
		return NULL;
	file->f_inode = inode;
	file->f_op = fop;
	file->f_count = 1;
	file->f_flags = (flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC |
				   O_CLOEXEC)) | O_LARGEFILE;
	rt_mutex_init(&file->f_pos_lock);
	*err = fop->open ? fop->open(file) : 0;
	if (*err) {
		rt_mutex_destroy(&file->f_pos_lock);
		kfree(file);
		return NULL;
	}
	return file;
}

/*
 * vfs_open - alloc_file with the operations of inode's kind: NULL with
 * *err -ENXIO for a device rtk has no driver for (Linux's answer for a
 * node without one), or alloc_file's errors.
 * Context: task, may sleep.
 */
struct file *vfs_open(struct inode *inode, unsigned int flags, int *err)
{
	const struct file_operations *fop;

	might_sleep();
	if (inode->i_proc)
		fop = &proc_fops;	/* /proc, /sys: generated at open */
	else if (S_ISREG(inode->i_mode))
		fop = &regular_fops;
	else if (S_ISDIR(inode->i_mode))
		fop = &dir_fops;
	else if (S_ISCHR(inode->i_mode))
		fop = chrdev_fops(inode->i_rdev);
	else
		fop = NULL;		/* fifos (part 2); sockets: no name */
	*err = -ENXIO;
	if (!fop)
		return NULL;
	return alloc_file(inode, flags, fop, err);
}

/* get_file - one more holder.  Context: any. */
struct file *get_file(struct file *file)
{
	BUG_ON(__atomic_fetch_add(&file->f_count, 1, __ATOMIC_RELAXED) <= 0);
	return file;
}

/*
 * fput - drop a holder; the last one releases the device state, drops
 * the inode (an unlinked file's bytes go now) and frees the file.
 * Context: task, may sleep.  Locking: no fd table lock held (pairs with
 * the table's rule: files are put after its lock is dropped).
 */
void fput(struct file *file)
{
	int left = __atomic_sub_fetch(&file->f_count, 1, __ATOMIC_ACQ_REL);

	BUG_ON(left < 0);
	if (left)
		return;
	might_sleep();
	if (file->f_op->release)
		file->f_op->release(file);
	iput(file->f_inode);
	rt_mutex_destroy(&file->f_pos_lock);
	kfree(file);
}
