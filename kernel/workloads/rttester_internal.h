/*
 * kernel/workloads/rttester_internal.h - what the PI tester's two halves
 * share: the opcodes, the lock-state digits and the tester thread's
 * mailbox.  rttester.c runs the threads (and the wake-up stop);
 * rttester_script.c parses and runs the scripts that drive them.
 * Linux counterpart: the enums and struct test_thread_data at the top of
 * kernel/locking/rtmutex-tester.c (v4.1).
 *
 * Per thread and lock the tester keeps the original's state digit:
 *
 *	0 unlocked	the thread neither holds nor wants the lock
 *	1 blocking	lock command issued, not yet asleep (or after
 *			lockcont, retrying)
 *	2 blocked	asleep in the slow path, the PI chain walk done
 *	3 blockedwake	woken, stopped in the wake-up path before taking
 *			the lock (lock/lockint only), until lockcont
 *	4 locked	held
 */
#ifndef KERNEL_WORKLOADS_RTTESTER_INTERNAL_H
#define KERNEL_WORKLOADS_RTTESTER_INTERNAL_H

#include "kernel/workloads/rttester.h"

struct task_struct;

enum rttest_opcode {
	RTTEST_NOP = 0,
	RTTEST_SCHEDOT = 1,		/* data = nice */
	RTTEST_SCHEDRT = 2,		/* data = SCHED_FIFO priority */
	RTTEST_LOCK = 3,		/* stop in the wake-up path */
	RTTEST_LOCKNOWAIT = 4,
	RTTEST_LOCKINT = 5,		/* interruptible, stop in wake-up */
	RTTEST_LOCKINTNOWAIT = 6,
	RTTEST_LOCKCONT = 7,		/* leave the wake-up stop */
	RTTEST_UNLOCK = 8,
	RTTEST_SIGNAL = 11,		/* interrupt the thread's wait */
	RTTEST_RESETEVENT = 98,
	RTTEST_RESET = 99,		/* release every lock held */
};

enum { ST_UNLOCKED, ST_BLOCKING, ST_BLOCKED, ST_BLOCKEDWAKE, ST_LOCKED };

struct rttest_thread {
	struct task_struct *task;
	/* written by the script task (a posted command > 0) and by the
	 * thread (its result <= 0); the thread runs only positive ones */
	int opcode;
	int opdata;
	/* set by the cleanup, cleared by the thread: release every lock
	 * it owns at its next wake-up, even inside a lock call */
	bool unwind;
	/* written by the thread only */
	int mutexes[RTTEST_LOCKS];	/* ST_* per lock */
	int event;			/* counter after its last change */
};

/* The tester threads, written as struct rttest_thread says. */
extern struct rttest_thread rttest_threads[RTTEST_THREADS];

/* rttest_init_once - create the threads and locks on the first script.
 * Context: task; the script lock held (rttester_script.c). */
int rttest_init_once(void);
/* rttest_reset_lock_classes - forget the validator's orders among the
 * tester locks (kernel/locking/lockdep.h).  Context: as above, no tester
 * lock held. */
void rttest_reset_lock_classes(void);

/* rttest_owns_locks - does p own any tester lock?  A racy read, for the
 * cleanup's decisions.  Context: any. */
bool rttest_owns_locks(const struct task_struct *p);

/* rttest_locks_idle - no tester lock is owned or has a waiter (racy read;
 * the cleanup's final check once every thread is idle).  Context: any. */
bool rttest_locks_idle(void);

#endif /* KERNEL_WORKLOADS_RTTESTER_INTERNAL_H */
