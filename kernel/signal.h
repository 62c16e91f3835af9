/*
 * kernel/signal.h - the one kernel "signal" rtk has: a per-task pending
 * flag that ends an interruptible sleep (rt_mutex_lock_interruptible,
 * down_interruptible) with -EINTR.  The PI tester's `signal` opcode and
 * tests use it to make a waiter leave a lock early.
 * Linux counterpart: signal_pending(), send_sig() and flush_signals() in
 * kernel/signal.c, without signal numbers, handlers or user delivery.
 */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include "lib/compiler.h"
#include "kernel/sched/task.h"

/* signal_pending - has p been signalled since its last flush_signals()? */
static inline bool signal_pending(const struct task_struct *p)
{
	return READ_ONCE(p->sigpending);
}

/* kernel_signal - mark p signalled and wake it if it sleeps in
 * TASK_INTERRUPTIBLE.  Context: any. */
void kernel_signal(struct task_struct *p);

/* flush_signals - forget p's pending signal.  Context: any. */
void flush_signals(struct task_struct *p);

#endif /* KERNEL_SIGNAL_H */
