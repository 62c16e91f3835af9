/*
 * kernel/fs/poll.h - readiness of a file, and waiting for it on several
 * files at once (poll(2)).
 *
 * A file's poll operation does two things: it names the wait queues a
 * change of its readiness is announced on, by calling poll_wait() for
 * each, and it returns its readiness now, a mask of POLL* bits.  With a
 * poll table that queues (do_sys_poll's first pass), poll_wait puts an
 * entry for the polling task on the queue; without (later passes, or a
 * NULL table), it does nothing.  The order, queue first and test after,
 * is what makes a change between the two wake the poller (poll.c).
 * A file without a poll operation is always ready (DEFAULT_POLLMASK):
 * regular files, directories, /dev/console, /dev/null, as Linux's.
 * Linux counterpart: include/linux/poll.h (poll_table, poll_wait,
 * vfs_poll, DEFAULT_POLLMASK).  Left out: the qproc function pointer (one
 * implementation: __pollwait), epoll's key filtering.
 */
#ifndef KERNEL_FS_POLL_H
#define KERNEL_FS_POLL_H

#include "kernel/fs/file.h"
#include "kernel/sched/wait.h"

#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

typedef struct poll_table_struct {
	bool queue;			/* poll_wait queues an entry */
} poll_table;

void __pollwait(struct file *file, wait_queue_head_t *wq, poll_table *pt);

/* poll_wait - announce that wq tells of changes of file's readiness.
 * Context: task (a file's poll operation). */
static inline void poll_wait(struct file *file, wait_queue_head_t *wq,
			     poll_table *pt)
{
	if (pt && pt->queue)
		__pollwait(file, wq, pt);
}

/* vfs_poll - file's readiness now, POLL* bits; queues on pt's behalf.
 * Context: task, may sleep. */
static inline unsigned int vfs_poll(struct file *file, poll_table *pt)
{
	if (!file->f_op->poll)
		return DEFAULT_POLLMASK;
	return file->f_op->poll(file, pt);
}

#endif /* KERNEL_FS_POLL_H */
