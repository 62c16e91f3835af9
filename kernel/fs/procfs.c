/*
 * kernel/fs/procfs.c - generated files (see procfs.h): registered at boot
 * as inodes that point at their proc_entry, opened as a snapshot.
 *
 * An open runs the entry's show() once, into a kmalloc'd buffer that the
 * struct file keeps (private_data) until its last fput: every read of
 * that file, and lseek, see the same bytes, as Linux's single_open does.
 * A write gives the entry its whole value at once (a value split over
 * two writes is two values, as Linux's proc_sysctl handlers see it).
 * Linux counterpart: fs/proc/generic.c, fs/seq_file.c (single_open,
 * seq_read, seq_lseek), fs/proc/proc_sysctl.c (proc_sys_write).
 */
#include "kernel/fs/procfs.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

/* the snapshot an open made (file->private_data) */
struct proc_snapshot {
	size_t len;
	char buf[PROC_BUF_SIZE];
};

static const struct proc_entry *file_entry(const struct file *file)
{
	return file->f_inode->i_proc;
}

/*
 * proc_open - run show() into a new snapshot.  A show that overflows
 * the buffer is a bug in rtk (the buffer is sized for 64 CPUs): the log
 * says so and the file reads what fitted.
 * Context: task, may sleep.
 */
static int proc_open(struct file *file)
{
	const struct proc_entry *e = file_entry(file);
	struct proc_snapshot *snap;
	struct seq_buf m;

	might_sleep();
	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	seq_buf_init(&m, snap->buf, sizeof(snap->buf));
	e->show(&m);
	if (seq_buf_has_overflowed(&m))
		pr_warn("procfs: %s is longer than %d bytes: cut\n", e->path,
			PROC_BUF_SIZE);
	snap->len = m.len;
	file->private_data = (long)snap;
	return 0;
}

static void proc_release(struct file *file)
{
	kfree((void *)file->private_data);
}

/* proc_read - the snapshot's bytes from *pos.  Context: task. */
static long proc_read(struct file *file, char __user *buf, size_t count,
		      loff_t *pos)
{
	const struct proc_snapshot *snap = (const void *)file->private_data;
	size_t n;

	might_sleep();
	if (*pos >= (loff_t)snap->len)
		return 0;
	n = snap->len - (size_t)*pos;
	if (n > count)
		n = count;
	if (copy_to_user(buf, snap->buf + *pos, n))
		return -EFAULT;
	*pos += (loff_t)n;
	return (long)n;
}

/*
 * proc_write - the whole value to the entry's write(): -EINVAL for a
 * read-only entry (Linux's -EIO for a file without .write is reached
 * only by root; -EINVAL is what proc_sysctl gives a bad value), longer
 * than PROC_WRITE_MAX bytes -EINVAL.  Returns count on success.
 * Context: task, may sleep.
 */
static long proc_write(struct file *file, const char __user *buf,
		       size_t count, loff_t *pos)
{
	const struct proc_entry *e = file_entry(file);
	char kbuf[PROC_WRITE_MAX + 1];
	int ret;

	might_sleep();
	if (!e->write || count > PROC_WRITE_MAX)
		return -EINVAL;
	if (copy_from_user(kbuf, buf, count))
		return -EFAULT;
	kbuf[count] = '\0';
	ret = e->write(kbuf, count);
	if (ret)
		return ret;
	*pos += (loff_t)count;
	return (long)count;
}

static loff_t proc_llseek(struct file *file, loff_t offset, int whence)
{
	const struct proc_snapshot *snap = (const void *)file->private_data;

	return generic_file_llseek_size(file, offset, whence,
					(loff_t)snap->len);
}

const struct file_operations proc_fops = {
	.open = proc_open,
	.release = proc_release,
	.read = proc_read,
	.write = proc_write,
	.llseek = proc_llseek,
};

/* mkdir_parents - every directory on path's way to its last component. */
static void __init mkdir_parents(struct inode *root, const char *path)
{
	char dir[128];

	for (const char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		size_t n = (size_t)(p - path);
		int ret;

		if (n >= sizeof(dir))
			break;
		memcpy(dir, path, n);
		dir[n] = '\0';
		ret = do_mkdirat(root, root, dir, 0555);
		if (ret && ret != -EEXIST)
			pr_warn("procfs: %s: %d\n", dir, ret);
	}
}

/*
 * procfs_register - steps for each entry:
 *   [1] the directories on its path (kept if the initramfs has them: the
 *       compare initramfs brings empty /proc and /sys);
 *   [2] a regular file, or a symlink with a placeholder target;
 *   [3] the inode points at the entry: from now on vfs_open and the
 *       path walk ask the entry, not the inode's bytes.
 * Context: boot, task, before user programs run (i_proc is set without
 * readers).  Locking: the tree lock per step.
 */
void __init procfs_register(struct inode *root, const struct proc_entry *entries,
			    unsigned int n)
{
	might_sleep();
	for (unsigned int i = 0; i < n; i++) {
		const struct proc_entry *e = &entries[i];
		struct inode *inode;
		int ret;

		mkdir_parents(root, e->path);				/* [1] */
		if (S_ISLNK(e->mode))					/* [2] */
			ret = do_symlinkat("?", root, root, e->path);
		else
			ret = do_mknodat(root, root, e->path, e->mode, 0);
		if (!ret)
			ret = filename_lookup(root, root, e->path, 0, &inode);
		if (ret) {
			pr_warn("procfs: %s: %d\n", e->path, ret);
			continue;
		}
		inode->i_proc = e;					/* [3] */
		iput(inode);
	}
}

void __init procfs_init(void)
{
	struct inode *root = get_fs_root(&init_fs);

	if (!root)
		return;
	procfs_register(root, proc_entries, proc_nr_entries);
	procfs_register(root, sys_entries, sys_nr_entries);
	iput(root);
}
