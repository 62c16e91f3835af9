/*
 * kernel/sched/completion.h - completions: "wait until this happened".
 *
 * done counts complete() calls not yet consumed by a waiter;
 * complete_all() makes it infinite.  Waiters sleep TASK_UNINTERRUPTIBLE
 * on the embedded wait queue.
 * Linux counterpart: include/linux/completion.h, kernel/sched/completion.c
 * (rtk uses a raw lock, as RT mainline does with swait).
 */
#ifndef KERNEL_SCHED_COMPLETION_H
#define KERNEL_SCHED_COMPLETION_H

#include "kernel/sched/wait.h"

struct completion {
	unsigned int done;		/* under wait.lock */
	wait_queue_head_t wait;
};

#define COMPLETION_DONE_ALL (~0U)

#define COMPLETION_INITIALIZER(work)                                         \
	{ 0, __WAIT_QUEUE_HEAD_INITIALIZER((work).wait) }
#define DECLARE_COMPLETION(work) struct completion work = COMPLETION_INITIALIZER(work)

void init_completion(struct completion *x);
static inline void reinit_completion(struct completion *x)
{
	x->done = 0;
}

/* complete / complete_all - wake one waiter / every waiter now and later.
 * Context: any, including hard irq. */
void complete(struct completion *x);
void complete_all(struct completion *x);

/* wait_for_completion - sleep until complete().  Context: task, sleeps. */
void wait_for_completion(struct completion *x);
/* wait_for_completion_timeout - at most timeout_ns; returns the time
 * left (>= 1) on completion, 0 on timeout. */
s64 wait_for_completion_timeout(struct completion *x, s64 timeout_ns);
/* try_wait_for_completion - consume a completion without sleeping. */
bool try_wait_for_completion(struct completion *x);
bool completion_done(struct completion *x);

/* Test-only race windows (kernel/debug/race_window.h), forced by
 * tests/kernel/test_completion_races.c:
 * complete_wake_window - complete()/complete_all() after their last
 * touch of the completion (its waiter may have returned and its frame
 * be gone by then);
 * completion_timeout_window - a waiter whose timeout has expired, before
 * it looks at the completion for the last time. */
struct race_window;
extern struct race_window complete_wake_window;
extern struct race_window completion_timeout_window;

#endif /* KERNEL_SCHED_COMPLETION_H */
