/*
 * kernel/fs/poll.c - poll(2) and ppoll(2): wait until one of several
 * files is ready, or a timeout passes.
 *
 * do_poll's algorithm (Linux's do_poll):
 *  [1] the first pass queues: each file's poll operation calls
 *      poll_wait() for its queues, and __pollwait puts an entry for the
 *      polling task on each, holding a reference to the file (a thread
 *      closing the fd meanwhile must not free the queue under the entry);
 *  [2] each pass asks every fd its readiness: a negative fd is skipped
 *      (revents 0), a closed one is POLLNVAL, else the file's mask
 *      filtered by events | POLLERR | POLLHUP;
 *  [3] once one fd is ready, or after the first pass, nothing more is
 *      queued: the entries already there cover every file;
 *  [4] something ready, a failure to queue (-ENOMEM), a kernel signal
 *      (-EINTR) or the timeout seen on the previous pass: stop;
 *  [5] else sleep until an entry's queue is woken (pollwake sets
 *      triggered) or the deadline, and pass again;
 *  [6] poll_freewait takes every entry off its queue and drops the files.
 *
 * The passes run in TASK_RUNNING (a poll operation may take sleeping
 * locks), so a wake-up that comes during a pass cannot be kept in the
 * task's state; pollwake records it in triggered instead, and [5] does
 * not sleep when it is set:
 *
 *	CPU0 (poll)				CPU1 (write on fd 5)
 *	pass: fd 5 queued, not ready
 *						bytes in; wake_up_all(rd_wait)
 *						  pollwake: triggered = 1,
 *						  wake_up_process(CPU0's task):
 *						  it is running, nothing to do
 *	pass over the other fds: not ready
 *	[5] set_current_state(INTERRUPTIBLE)
 *	    triggered?  yes: no sleep, pass again, fd 5 ready
 *
 * triggered is stored before the wake-up's look at the task's state and
 * read after the poller's set_current_state, both with full barriers:
 * either the poller sees it, or the waker sees the sleeping state and
 * wakes it.  user/tests/t_socket.c's poll_blocks_until_write and stress
 * run this (likely, not forced).
 * Linux counterpart: fs/select.c (poll_initwait, __pollwait, pollwake,
 * poll_freewait, do_pollfd, do_poll, do_sys_poll, sys_poll, sys_ppoll).
 * Left out: select/pselect, epoll, ppoll's signal mask (accepted, not
 * applied: signal delivery is issue 29 part 2), the restart block.
 */
#include "kernel/fs/poll.h"
#include "kernel/fs/fdtable.h"
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/slab.h"
#include "kernel/signal.h"
#include "lib/bug.h"
#include "lib/errno.h"

struct poll_wqueues;

/* One queue a polling task is on, for one file. */
struct poll_table_entry {
	struct file *filp;			/* a reference, dropped at [6] */
	wait_queue_head_t *wait_address;	/* the queue */
	struct wait_queue_entry wait;		/* on it, func = pollwake */
	struct poll_wqueues *pwq;		/* whose */
};

/* More entries than fit inline: pages of them, chained. */
struct poll_table_page {
	struct poll_table_page *next;
	unsigned int nr;			/* entries used */
	struct poll_table_entry entries[];
};
#define POLL_PAGE_ENTRIES                                                    \
	((PAGE_SIZE - sizeof(struct poll_table_page)) /                      \
	 sizeof(struct poll_table_entry))
/* hackbench's start barrier polls one fd; a socket queues two entries */
#define POLL_INLINE_ENTRIES 8

struct poll_wqueues {
	poll_table pt;
	struct task_struct *polling_task;
	int triggered;			/* atomic: set by pollwake, cleared
					 * by the poller at [5] */
	int error;			/* -ENOMEM: an entry was not had */
	unsigned int inline_index;	/* inline_entries used */
	struct poll_table_page *table;	/* the pages, newest first */
	struct poll_table_entry inline_entries[POLL_INLINE_ENTRIES];
};

static void poll_initwait(struct poll_wqueues *pwq)
{
	pwq->pt.queue = true;
	pwq->polling_task = current;
	pwq->triggered = 0;
	pwq->error = 0;
	pwq->inline_index = 0;
	pwq->table = NULL;
}

static void free_poll_entry(struct poll_table_entry *entry)
{
	remove_wait_queue(entry->wait_address, &entry->wait);
	fput(entry->filp);
}

/*
 * poll_freewait - step [6]: every entry off its queue, every file put
 * (maybe the last reference: a thread closed the fd during the poll).
 * Context: task, may sleep.
 */
static void poll_freewait(struct poll_wqueues *pwq)
{
	struct poll_table_page *page = pwq->table;

	might_sleep();
	for (unsigned int i = 0; i < pwq->inline_index; i++)
		free_poll_entry(&pwq->inline_entries[i]);
	while (page) {
		struct poll_table_page *next = page->next;

		for (unsigned int i = 0; i < page->nr; i++)
			free_poll_entry(&page->entries[i]);
		kfree(page);
		page = next;
	}
	pwq->inline_index = 0;
	pwq->table = NULL;
}

static struct poll_table_entry *poll_get_entry(struct poll_wqueues *pwq)
{
	struct poll_table_page *page = pwq->table;

	if (pwq->inline_index < POLL_INLINE_ENTRIES)
		return &pwq->inline_entries[pwq->inline_index++];
	if (!page || page->nr == POLL_PAGE_ENTRIES) {
		page = kmalloc(PAGE_SIZE, GFP_KERNEL);
		if (!page) {
			pwq->error = -ENOMEM;
			return NULL;
		}
		page->next = pwq->table;
		page->nr = 0;
		pwq->table = page;
	}
	return &page->entries[page->nr++];
}

/*
 * pollwake - an entry's queue was woken: record it (see the diagram at
 * the top), then wake the poller.  Pairs with [5] in do_poll.
 * Context: any.  Locking: the queue's lock held, irqs off.
 */
static int pollwake(struct wait_queue_entry *wait)
{
	struct poll_table_entry *entry =
		container_of(wait, struct poll_table_entry, wait);

	__atomic_store_n(&entry->pwq->triggered, 1, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return wake_up_process(entry->pwq->polling_task);
}

/*
 * __pollwait - step [1] for one queue: an entry for the polling task on
 * wq, holding a reference to file until poll_freewait.  Without memory
 * the entry is skipped and do_poll ends with -ENOMEM.
 * Context: task, may sleep (the entry's page).  Locking: takes wq->lock.
 */
void __pollwait(struct file *file, wait_queue_head_t *wq, poll_table *pt)
{
	struct poll_wqueues *pwq = container_of(pt, struct poll_wqueues, pt);
	struct poll_table_entry *entry;

	might_sleep();
	BUG_ON(pwq->polling_task != current);
	entry = poll_get_entry(pwq);
	if (!entry)
		return;
	entry->filp = get_file(file);
	entry->wait_address = wq;
	entry->pwq = pwq;
	entry->wait.task = current;
	entry->wait.func = pollwake;
	add_wait_queue(wq, &entry->wait);
}

/*
 * do_pollfd - step [2] for one pollfd: its revents.
 * Context: task, may sleep.  Locking: takes the fd table's lock (fget).
 */
static unsigned int do_pollfd(struct pollfd *pfd, poll_table *pt)
{
	unsigned int filter = (unsigned short)pfd->events | POLLERR | POLLHUP;
	struct file *file;
	unsigned int mask;

	if (pfd->fd < 0)
		return 0;
	file = fget((unsigned int)pfd->fd);
	if (!file)
		return POLLNVAL;
	mask = vfs_poll(file, pt) & filter;
	fput(file);
	return mask;
}

/*
 * do_poll - the algorithm at the top: the number of fds with revents,
 * -ENOMEM or -EINTR.  end is the deadline, KTIME_MAX for none; a
 * deadline already past polls once without queueing.
 * Context: task, sleeps.  Locking: none held.
 */
static int do_poll(struct pollfd *fds, unsigned int nfds,
		   struct poll_wqueues *pwq, ktime_t end)
{
	bool timed_out = end != KTIME_MAX && ktime_get() >= end;
	poll_table *pt = &pwq->pt;
	s64 left;
	int count;

	might_sleep();
	if (timed_out)
		pt->queue = false;
	for (;;) {
		count = 0;
		for (unsigned int i = 0; i < nfds; i++) {	/* [1], [2] */
			unsigned int mask = do_pollfd(&fds[i], pt);

			fds[i].revents = (short)mask;
			if (mask) {
				count++;
				pt->queue = false;		/* [3] */
			}
		}
		pt->queue = false;				/* [3] */
		if (!count) {					/* [4] */
			count = pwq->error;
			if (signal_pending(current))
				count = -EINTR;
		}
		if (count || timed_out)
			break;
		/* left < 0: no deadline; 0: it passed since the test above,
		 * so pass once more without sleeping */
		left = -1;
		if (end != KTIME_MAX) {
			left = end - ktime_get();
			if (left < 0)
				left = 0;
		}
		set_current_state(TASK_INTERRUPTIBLE);		/* [5] */
		if (left && !__atomic_load_n(&pwq->triggered, __ATOMIC_SEQ_CST))
			schedule_timeout(left);
		__set_current_state(TASK_RUNNING);
		__atomic_store_n(&pwq->triggered, 0, __ATOMIC_SEQ_CST);
		timed_out = end != KTIME_MAX && ktime_get() >= end;
	}
	return count;
}

/* pollfds on the stack up to this many (hackbench polls one) */
#define POLL_STACK_FDS 16

/*
 * do_sys_poll - copy the pollfds in, do_poll, copy every revents back:
 * do_poll's answer, -EINVAL for nfds above RLIMIT_NOFILE, -EFAULT,
 * -ENOMEM.  Context: task, sleeps.  Locking: none held.
 */
static long do_sys_poll(struct pollfd __user *ufds, unsigned int nfds,
			ktime_t end)
{
	struct pollfd stack_fds[POLL_STACK_FDS], *fds = stack_fds;
	struct poll_wqueues table;
	size_t len = (size_t)nfds * sizeof(struct pollfd);
	long ret;

	might_sleep();
	if (nfds > rlimit_nofile())
		return -EINVAL;
	if (nfds > POLL_STACK_FDS) {
		fds = kmalloc(len, GFP_KERNEL);
		if (!fds)
			return -ENOMEM;
	}
	ret = -EFAULT;
	if (copy_from_user(fds, ufds, len))
		goto out_free;
	poll_initwait(&table);
	ret = do_poll(fds, nfds, &table, end);
	poll_freewait(&table);					/* [6] */
	for (unsigned int i = 0; i < nfds; i++) {
		if (copy_to_user(&ufds[i].revents, &fds[i].revents,
				 sizeof(fds[i].revents))) {
			ret = -EFAULT;
			break;
		}
	}
out_free:
	if (fds != stack_fds)
		kfree(fds);
	return ret;
}

/* sys_poll - timeout_msecs < 0: no timeout; 0: do not wait. */
long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_msecs)
{
	ktime_t end = KTIME_MAX;

	might_sleep();
	if (timeout_msecs >= 0)
		end = ktime_get() + (ktime_t)timeout_msecs * NSEC_PER_MSEC;
	return do_sys_poll(ufds, nfds, end);
}

/* sys_ppoll - tsp NULL: no timeout; a bad timespec -EINVAL or -EFAULT;
 * a signal mask must be sigsetsize 8 (-EINVAL), and is not applied (see
 * the header). */
long sys_ppoll(struct pollfd __user *ufds, unsigned int nfds,
	       const struct __kernel_timespec __user *tsp,
	       const void __user *sigmask, size_t sigsetsize)
{
	ktime_t end = KTIME_MAX, rel;
	long ret;

	might_sleep();
	if (tsp) {
		ret = get_timespec64_ktime(&rel, tsp);
		if (ret)
			return ret;
		end = ktime_add_safe(ktime_get(), rel);
	}
	if (sigmask && sigsetsize != sizeof(u64))
		return -EINVAL;
	return do_sys_poll(ufds, nfds, end);
}
