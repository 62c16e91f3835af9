/*
 * kernel/fs/devices.c - the character devices rtk has drivers for, found
 * by the inode's major:minor as Linux's chrdev_open does, and /dev with
 * their nodes made at boot when the initramfs lacks them:
 *
 *   /dev/console          5:1   kernel/fs/tty_console.c: write to the
 *                               kernel console, read through a line
 *                               discipline, the termios ioctls;
 *                               lseek -ESPIPE
 *   /dev/null             1:3   read: 0; write: swallows; lseek: 0
 *   /dev/cpu_dma_latency 10:62  Linux's PM QoS CPU latency request: a
 *                               4-byte s32 write (or a hex string) sets
 *                               the request, held while the file is open;
 *                               read gives it back.  rtk's idle loop has
 *                               no C-states to limit: it is recorded only
 *
 * Any other major:minor has no driver (vfs_open: -ENXIO).
 * Linux counterpart: fs/char_dev.c (chrdev_open), drivers/tty/tty_io.c
 * (tty_std_termios, TCGETS, TIOCGWINSZ), drivers/char/mem.c (null),
 * kernel/power/qos.c (cpu_latency_qos_fops), init/noinitramfs.c and
 * devtmpfs (the nodes).
 */
#include "kernel/fs/fdtable.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/tty_console.h"
#include "kernel/user/uaccess.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

static long null_read(struct file *file, char __user *buf, size_t count,
		      loff_t *pos)
{
	return 0;
}

static long null_write(struct file *file, const char __user *buf,
		       size_t count, loff_t *pos)
{
	return (long)count;
}

static loff_t null_llseek(struct file *file, loff_t offset, int whence)
{
	return file->f_pos = 0;		/* Linux's null_lseek */
}

static const struct file_operations null_fops = {
	.read = null_read,
	.write = null_write,
	.llseek = null_llseek,
};

/* PM_QOS_DEFAULT_VALUE: no constraint (Linux's, in us) */
#define PM_QOS_DEFAULT_VALUE 2000000000L

/*
 * cpu_latency_qos_write - Linux's: exactly 4 bytes are a binary s32,
 * anything else a hex string; the count, -EFAULT or -EINVAL.
 * Context: task, may sleep.
 */
static long cpu_latency_qos_write(struct file *file, const char __user *buf,
				  size_t count, loff_t *pos)
{
	char kbuf[16];
	s32 value;
	long v;

	might_sleep();
	if (count == sizeof(s32)) {
		if (copy_from_user(&value, buf, sizeof(value)))
			return -EFAULT;
	} else {
		if (count >= sizeof(kbuf))
			return -EINVAL;
		if (copy_from_user(kbuf, buf, count))
			return -EFAULT;
		kbuf[count] = '\0';
		if (count && kbuf[count - 1] == '\n')
			kbuf[count - 1] = '\0';
		if (kstrtol(kbuf, 16, &v) || v < 0 || v > 0x7fffffffL)
			return -EINVAL;
		value = (s32)v;
	}
	WRITE_ONCE(file->private_data, value);
	return (long)count;
}

static long cpu_latency_qos_read(struct file *file, char __user *buf,
				 size_t count, loff_t *pos)
{
	s32 value = (s32)READ_ONCE(file->private_data);

	if (count < sizeof(value))
		return -EINVAL;
	return copy_to_user(buf, &value, sizeof(value)) ? -EFAULT
						       : (long)sizeof(value);
}

static loff_t noop_llseek(struct file *file, loff_t offset, int whence)
{
	return file->f_pos;
}

static int cpu_latency_qos_open(struct file *file)
{
	file->private_data = PM_QOS_DEFAULT_VALUE;
	return 0;
}

static const struct file_operations cpu_latency_qos_fops = {
	.open = cpu_latency_qos_open,
	.read = cpu_latency_qos_read,
	.write = cpu_latency_qos_write,
	.llseek = noop_llseek,
};

/* chrdev_fops - the operations for a character inode's rdev, NULL when
 * rtk has no driver.  Context: any. */
const struct file_operations *chrdev_fops(dev_t rdev)
{
	if (rdev == MKDEV(CONSOLE_MAJOR, CONSOLE_MINOR))
		return &console_fops;
	if (rdev == MKDEV(MEM_MAJOR, NULL_MINOR))
		return &null_fops;
	if (rdev == MKDEV(MISC_MAJOR, CPU_DMA_LATENCY_MINOR))
		return &cpu_latency_qos_fops;
	return NULL;
}

/*
 * stdio_open_path - fds from..to-1 of a new process's table, one file on
 * path opened with flags (and mode, for O_CREAT) shared by them, as
 * Linux's init opens the console once and dups it: 0, or the open's
 * error (-ENOENT when the node is missing, -EISDIR ...), -ENOMEM.
 * An fd already open is replaced.
 * Context: task, may sleep.  Locking: none held.
 */
int stdio_open_path(struct files_struct *files, const char *path, int flags,
		    umode_t mode, unsigned int from, unsigned int to)
{
	struct inode *root = get_fs_root(&init_fs), *inode;
	struct file *file;
	int ret = -ENOENT;

	might_sleep();
	if (!root)
		return ret;
	ret = path_openat(root, root, path, flags, mode, &inode);
	iput(root);
	if (ret)
		return ret;
	file = vfs_open(inode, (unsigned int)flags, &ret);
	if (!file) {
		iput(inode);
		return ret;
	}
	for (unsigned int fd = from; fd < to && !ret; fd++) {
		ret = replace_fd(files, fd, get_file(file), false);
		if (ret < 0)
			fput(file);
		else
			ret = 0;
	}
	fput(file);
	return ret;
}

/* console_open_stdio - fds 0, 1 and 2 on one O_RDWR /dev/console. */
int console_open_stdio(struct files_struct *files)
{
	return stdio_open_path(files, "/dev/console", O_RDWR, 0, 0, 3);
}

static void __init dev_node(struct inode *root, const char *path,
			    umode_t mode, dev_t rdev)
{
	int ret = do_mknodat(root, root, path, S_IFCHR | mode, rdev);

	if (ret && ret != -EEXIST)
		pr_warn("dev: %s: %d\n", path, ret);
}

/*
 * dev_init - /dev and the three nodes, unless the initramfs brought them
 * (an existing name is kept as it is, as devtmpfs would not be mounted
 * over it here).
 * Context: boot, task, after fs_init.  Locking: the tree lock per node.
 */
void __init dev_init(void)
{
	struct inode *root = get_fs_root(&init_fs);
	int ret;

	might_sleep();
	tty_console_init();
	if (!root)
		return;
	ret = do_mkdirat(root, root, "/dev", 0755);
	if (ret && ret != -EEXIST)
		pr_warn("dev: /dev: %d\n", ret);
	dev_node(root, "/dev/console", 0600, MKDEV(CONSOLE_MAJOR, CONSOLE_MINOR));
	dev_node(root, "/dev/null", 0666, MKDEV(MEM_MAJOR, NULL_MINOR));
	dev_node(root, "/dev/cpu_dma_latency", 0600,
		 MKDEV(MISC_MAJOR, CPU_DMA_LATENCY_MINOR));
	iput(root);
}
