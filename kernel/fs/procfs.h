/*
 * kernel/fs/procfs.h - generated files: /proc and /sys as Linux programs
 * read them, made at boot as inodes of the one tree (procfs_init) whose
 * bytes a function writes at each open (Linux's seq_file model: a
 * reader gets one consistent snapshot per open, and a file shows size
 * 0 in stat).  A generated symlink (/proc/self/exe) has its target
 * written at each lookup.  A writable one (/proc/sys/kernel/
 * sched_rt_runtime_us) takes the whole value in one write.
 *
 * The entries: proc_files.c (/proc), sys_files.c (/sys).
 * Linux counterpart: fs/proc/generic.c (proc_create_single, proc_symlink),
 * fs/seq_file.c (single_open, seq_read), fs/proc/proc_sysctl.c; rtk
 * mounts nothing (both trees are fixed places in the root, made at boot).
 */
#ifndef KERNEL_FS_PROCFS_H
#define KERNEL_FS_PROCFS_H

#include "lib/seq_buf.h"
#include "lib/errno.h"
#include "kernel/fs/inode.h"

/* Bytes a generated file may hold: /proc/interrupts for 64 CPUs fits. */
#define PROC_BUF_SIZE 8192

struct proc_entry {
	const char *path;		/* absolute: "/proc/self/status" */
	umode_t mode;			/* S_IFREG | 0444, S_IFLNK | 0777 ... */
	/* show - the file's bytes (a symlink's target), for current.
	 * Context: task, may sleep.  No lock held. */
	void (*show)(struct seq_buf *m);
	/* write - the whole of a write (NUL-terminated, at most
	 * PROC_WRITE_MAX bytes): 0 or -errno.  NULL: read-only. */
	int (*write)(const char *buf, size_t len);
};

#define PROC_WRITE_MAX 64
/* Bytes of a generated link's target, with its NUL. */
#define PROC_LINK_MAX 128

/* procfs_register - make the inodes for entries[0..n) (and the
 * directories on their paths) under root.  Context: boot, task. */
void procfs_register(struct inode *root, const struct proc_entry *entries,
		     unsigned int n);

/* proc_link_target - a generated symlink's target into buf (len bytes,
 * NUL-terminated); its length, or -ENAMETOOLONG.  Inline: the path walk
 * (namei.c, host-tested) calls it.  Context: task. */
static inline long proc_link_target(const struct inode *inode, char *buf,
				    size_t len)
{
	struct seq_buf m;

	seq_buf_init(&m, buf, len);
	inode->i_proc->show(&m);
	return seq_buf_has_overflowed(&m) ? -ENAMETOOLONG : (long)m.len;
}

/* proc_fops - the file operations of a generated file (vfs_open). */
extern const struct file_operations proc_fops;

/* The tables, and the boot step that registers them (after fs_init). */
extern const struct proc_entry proc_entries[];
extern const unsigned int proc_nr_entries;
extern const struct proc_entry sys_entries[];
extern const unsigned int sys_nr_entries;
void procfs_init(void);

#endif /* KERNEL_FS_PROCFS_H */
