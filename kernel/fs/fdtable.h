/*
 * kernel/fs/fdtable.h - a process's file descriptors: the table from fd
 * numbers to struct file, with each fd's close-on-exec bit.
 *
 * One files_struct per process, shared by its threads (clone with
 * CLONE_FILES takes a reference; without it the table is copied), freed
 * when its last task exits (exit_files in do_exit), which closes every
 * fd still open: nothing outlives the process.
 * The lowest free fd is handed out, as POSIX wants.  An fd at or above
 * the process's RLIMIT_NOFILE soft limit is refused: -EMFILE for a new
 * one (open, dup, F_DUPFD when none is free below it), -EBADF for dup2's
 * target, -EINVAL for F_DUPFD's start, Linux's answers.  The table grows
 * by doubling up to FD_TABLE_MAX (Linux's sysctl_nr_open is 1M; rtk's
 * RLIMIT_NOFILE hard limit is 4096, INR_OPEN_MAX).
 * Linux counterpart: include/linux/fdtable.h, fs/file.c (alloc_fd,
 * fd_install, close_fd, replace_fd, dup_fd, expand_files, fget,
 * put_files_struct, exit_files).  Left out: RCU lookup (fget takes the
 * table's lock), the open_fds bitmap (an fd is free when its slot is
 * NULL: rtk allocates and installs under one lock hold).
 */
#ifndef KERNEL_FS_FDTABLE_H
#define KERNEL_FS_FDTABLE_H

#include "kernel/fs/file.h"
#include "kernel/locking/spinlock.h"

#define NR_OPEN_DEFAULT 64		/* slots a new table starts with */
#define FD_TABLE_MAX 4096		/* slots at most: INR_OPEN_MAX */

struct files_struct {
	int count;			/* atomic: tasks sharing the table */

	spinlock_t file_lock;		/* protects everything below */
	unsigned int max_fds;		/* slots in fd[], a power of two */
	struct file **fd;		/* a reference per installed file */
	unsigned long *close_on_exec;	/* max_fds bits: FD_CLOEXEC */
	unsigned int next_fd;		/* no free fd below this one */
};

struct files_struct *files_alloc(void);
struct files_struct *get_files_struct(struct files_struct *files);
struct files_struct *dup_fd(struct files_struct *old);
void put_files_struct(struct files_struct *files);
void exit_files(struct task_struct *p);
void do_close_on_exec(struct files_struct *files);

int alloc_fd(struct files_struct *files, struct file *file,
	     unsigned int start, unsigned int limit, bool cloexec);
int replace_fd(struct files_struct *files, unsigned int fd, struct file *file,
	       bool cloexec);
int close_fd(struct files_struct *files, unsigned int fd);
struct file *fget_files(struct files_struct *files, unsigned int fd);
int get_close_on_exec(struct files_struct *files, unsigned int fd);
int set_close_on_exec(struct files_struct *files, unsigned int fd, bool on);
bool files_has_free_fd(struct files_struct *files, unsigned int limit);
unsigned int files_count_open(struct files_struct *files);

/* for the system calls: current's table and limit */
struct file *fget(unsigned int fd);
unsigned int rlimit_nofile(void);

#endif /* KERNEL_FS_FDTABLE_H */
