/*
 * kernel/sched/wait.h - wait queues, wait_event(), and timed sleeps.
 *
 *	wait_event(wq, cond);			sleep until cond (re-checked
 *						after every wakeup)
 *	left = wait_event_timeout(wq, cond, ns); 0: timed out, cond false
 *	wake_up(&wq); wake_up_all(&wq);
 *	schedule_timeout(ns); msleep(ms);
 *
 * The queue lock is raw (taken with irqs off) so hard-irq code can wake:
 * the wake-up side of an rt_mutex, an hrtimer, an interrupt.  Timeouts
 * are in nanoseconds on hrtimers (kernel/time/hrtimer.h); Linux counts
 * jiffies, rtk has no jiffies in this interface.
 * Linux counterpart: include/linux/wait.h, kernel/sched/wait.c,
 * kernel/time/timer.c schedule_timeout, kernel/time/hrtimer.c
 * schedule_hrtimeout.
 */
#ifndef KERNEL_SCHED_WAIT_H
#define KERNEL_SCHED_WAIT_H

#include "lib/list.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/time/ktime.h"

typedef struct wait_queue_head {
	raw_spinlock_t lock;
	struct list_head head;		/* struct wait_queue_entry, FIFO */
} wait_queue_head_t;

struct wait_queue_entry {
	struct task_struct *task;
	bool exclusive;			/* wake_up wakes one exclusive */
	/* func - what a wake-up does; NULL: wake_up_process(task).  Returns
	 * whether a task was woken (counts against nr).  Called under
	 * wq->lock with irqs off (poll's pollwake, kernel/fs/poll.c). */
	int (*func)(struct wait_queue_entry *e);
	struct list_head entry;		/* under wq->lock */
};

#define __WAIT_QUEUE_HEAD_INITIALIZER(name)                                  \
	{ __RAW_SPIN_LOCK_UNLOCKED(name.lock), LIST_HEAD_INIT(name.head) }
#define DECLARE_WAIT_QUEUE_HEAD(name)                                        \
	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

void init_waitqueue_head(wait_queue_head_t *wq);

/* prepare_to_wait - queue entry (once) and set current's state.
 * finish_wait - back to TASK_RUNNING, dequeue.  Context: task. */
void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *e,
		     long state);
void prepare_to_wait_exclusive(wait_queue_head_t *wq,
			       struct wait_queue_entry *e, long state);
void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *e);

/* add_wait_queue - queue e (non-exclusive), current's state untouched:
 * for a waiter on several queues at once (poll), which sets its state
 * itself.  remove_wait_queue - dequeue e.  Context: task. */
void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *e);
void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *e);

/* __wake_up - wake every non-exclusive waiter and up to nr exclusive
 * ones (0: all).  Context: any. */
void __wake_up(wait_queue_head_t *wq, int nr);
/* __wake_up_locked - the same with wq->lock held by the caller, which
 * changed the condition under it.  Context: any, irqs off. */
void __wake_up_locked(wait_queue_head_t *wq, int nr);
#define wake_up(wq) __wake_up(wq, 1)
#define wake_up_all(wq) __wake_up(wq, 0)

/* schedule_timeout - sleep (in the state the caller set) for at most ns;
 * returns the time left, 0 when it ran out.  A negative or KTIME_MAX-ish
 * timeout sleeps without a timer.  Context: task, sleeps. */
s64 schedule_timeout(s64 ns);
s64 schedule_timeout_uninterruptible(s64 ns);
/* msleep - sleep at least ms milliseconds. */
void msleep(unsigned int ms);

#define wait_event(wq, cond)                                                 \
	do {                                                                 \
		struct wait_queue_entry __we = { .task = NULL };     \
		might_sleep();                                               \
		for (;;) {                                                   \
			prepare_to_wait(&(wq), &__we, TASK_UNINTERRUPTIBLE); \
			if (cond)                                            \
				break;                                       \
			schedule();                                          \
		}                                                            \
		finish_wait(&(wq), &__we);                                   \
	} while (0)

/* wait_event_timeout - returns 0 if cond stayed false for timeout ns,
 * else the time left (at least 1). */
#define wait_event_timeout(wq, cond, timeout_ns)                             \
	({                                                                   \
		struct wait_queue_entry __we = { .task = NULL };     \
		s64 __left = (timeout_ns);                                   \
		might_sleep();                                               \
		for (;;) {                                                   \
			prepare_to_wait(&(wq), &__we, TASK_UNINTERRUPTIBLE); \
			if (cond) {                                          \
				if (__left <= 0)                             \
					__left = 1;                          \
				break;                                       \
			}                                                    \
			if (__left <= 0) {                                   \
				__left = 0;                                  \
				break;                                       \
			}                                                    \
			__left = schedule_timeout(__left);                   \
			if (!__left && (cond))                               \
				__left = 1;                                  \
		}                                                            \
		finish_wait(&(wq), &__we);                                   \
		__left;                                                      \
	})

#endif /* KERNEL_SCHED_WAIT_H */
