/*
 * kernel/fs/file.h - an open file: struct file (what an fd names) and
 * the operations of each kind of inode behind it.
 *
 * A struct file is made by open (vfs_open) and shared by every fd that
 * dup, dup2, fcntl(F_DUPFD) or a CLONE_FILES thread gives it: they share
 * its position and its status flags, as in Linux.  It holds a reference
 * to its inode, so an unlinked file stays readable until the last close.
 * The fd table is kernel/fs/fdtable.h; the calls are read_write.c,
 * sys_open.c, stat.c, readdir.c, fcntl.c, sys_namei.c.
 *
 * The kinds and their operations: regular files and directories
 * (file.c), character devices /dev/console, /dev/null and
 * /dev/cpu_dma_latency (devices.c), AF_UNIX stream sockets (af_unix.c).  A NULL operation gives Linux's
 * answer for it: read/write -EINVAL, llseek -ESPIPE, ioctl -ENOTTY.
 * Linux counterpart: include/linux/fs.h (struct file, struct
 * file_operations), fs/file_table.c (alloc_file, fput), fs/open.c
 * (do_dentry_open).  Left out: f_mode (the access mode is read from
 * f_flags), credentials, the page cache, fasync.
 */
#ifndef KERNEL_FS_FILE_H
#define KERNEL_FS_FILE_H

#include "kernel/fs/inode.h"
#include "kernel/locking/rtmutex.h"
#include "arch/x86_64/arch.h"

typedef s64 loff_t;

struct file;
struct poll_table_struct;

struct file_operations {
	/* read/write count bytes at *pos from/to user memory and advance
	 * *pos: the bytes moved (short at EOF), 0 at EOF, -errno (-EFAULT
	 * when nothing could be copied).  Context: task, may sleep. */
	long (*read)(struct file *file, char __user *buf, size_t count,
		     loff_t *pos);
	long (*write)(struct file *file, const char __user *buf, size_t count,
		      loff_t *pos);
	/* llseek - the new position, or -EINVAL; f_pos_lock held */
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);
	long (*ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
	/* open - set up private state (vfs_open); 0 or -errno */
	int (*open)(struct file *file);
	/* release - the last fput; may free private state */
	void (*release)(struct file *file);
	/* poll - poll_wait() on each queue that announces a change, then
	 * the readiness now (POLL*); NULL: always ready (kernel/fs/poll.h).
	 * Context: task, may sleep. */
	unsigned int (*poll)(struct file *file, struct poll_table_struct *pt);
};

struct file {
	/* fixed at open */
	struct inode *f_inode;		/* a reference, dropped at the last fput */
	const struct file_operations *f_op;

	int f_count;			/* atomic: fds and callers holding it */
	unsigned int f_flags;		/* O_*: the access mode and O_LARGEFILE
					 * fixed; O_APPEND and O_NONBLOCK
					 * changed by F_SETFL (READ_ONCE) */

	struct rt_mutex f_pos_lock;	/* protects f_pos: a shared file's
					 * reads and seeks do not interleave
					 * (Linux's f_pos_lock, a mutex) */
	loff_t f_pos;			/* the position read/write/lseek use */

	long private_data;		/* the device's (cpu_dma_latency: the
					 * requested latency in us) */
};

/* file.c */
struct file *alloc_file(struct inode *inode, unsigned int flags,
			const struct file_operations *fop, int *err);
struct file *vfs_open(struct inode *inode, unsigned int flags, int *err);
struct file *get_file(struct file *file);
void fput(struct file *file);
bool file_readable(const struct file *file);
bool file_writable(const struct file *file);
loff_t generic_file_llseek_size(struct file *file, loff_t offset, int whence,
				loff_t eof);

/* devices.c: the character devices and /dev */
struct files_struct;
const struct file_operations *chrdev_fops(dev_t rdev);
int console_open_stdio(struct files_struct *files);
int stdio_open_path(struct files_struct *files, const char *path, int flags,
		    umode_t mode, unsigned int from, unsigned int to);
void dev_init(void);
#define CONSOLE_MAJOR 5
#define CONSOLE_MINOR 1
#define MEM_MAJOR 1
#define NULL_MINOR 3
#define MISC_MAJOR 10
/* Linux gives cpu_dma_latency a dynamic misc minor; 62 is the first
 * one misc_register hands out on a typical boot. */
#define CPU_DMA_LATENCY_MINOR 62

#endif /* KERNEL_FS_FILE_H */
