/*
 * kernel/workloads/torture_lock.h - the state lock torture's threads
 * (torture_lock.c) share with its checker (torture_lock_check.c).
 *
 * Written by the threads, read racily by the checker and the statistics:
 * every field the checker samples is written with WRITE_ONCE, and a
 * finding counts only when it persists across samples (see the checker).
 */
#ifndef KERNEL_WORKLOADS_TORTURE_LOCK_H
#define KERNEL_WORKLOADS_TORTURE_LOCK_H

#include "kernel/workloads/torture_internal.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rwlock.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/locking/semaphore.h"
#include "kernel/locking/seqlock.h"
#include "kernel/time/ktime.h"

#define LT_WRITERS 4		/* two FIFO, two OTHER */
#define LT_READERS 2		/* rwlock, rwsem, seqlock */

struct lock_torture;
struct pcpu_pair;
struct lt_thread;

/* What one lock protects (percpu_locked: one per CPU). */
struct lt_slot {
	int writers, readers;		/* atomic holder counts */
	int releasing;			/* atomic: counted out, not yet
					 * through the unlock call */
	struct lt_thread *owner;	/* exclusive holder, or NULL */
	struct lt_thread *last_owner;	/* who released it last */
	unsigned long hold_seq;		/* acquisitions by exclusive holders */
};

enum lt_fail { LT_BUSY, LT_TIMEDOUT, LT_INTERRUPTED, NR_LT_FAILS };

struct lt_thread {
	struct lock_torture *lt;
	struct task_struct *task;
	bool writer;
	int policy, rt_prio;
	struct torture_random rnd;
	/* written by the thread */
	int slot_idx;			/* slot of the current attempt */
	struct lt_slot *wait_slot;	/* set while inside a lock call */
	ktime_t wait_start;		/* when that call began */
	unsigned long wait_seq;		/* lock calls so far */
	bool interruptible;		/* in an attempt a signal may end */
	bool irqsave;			/* took the lock with _irqsave */
	unsigned long flags;		/* its saved flags */
	struct pcpu_pair *pcpu;		/* percpu_locked: the copy held */
	unsigned long acquires;
	unsigned long failed[NR_LT_FAILS];
	u64 max_hold_ns;
	/* the checker's own bookkeeping (one checker per test) */
	unsigned long pi_wait_seq, pi_hold_seq;	/* episode of the strikes */
	int pi_strikes;			/* consecutive PI violations seen */
	unsigned long free_wait_seq, free_hold_seq;
	ktime_t free_since;		/* lock seen free since (0: not) */
	bool reported;			/* this wait was reported already */
};

struct lock_torture {
	struct torture_test *tt;
	int type;			/* enum torture_lock_type */
	bool pi;			/* waiters boost the owner */
	bool single_reader;		/* readers are exclusive (rt) */
	bool sleeping_holders;		/* holders may sleep */
	/* the locks (one used per test) */
	spinlock_t spin;
	raw_spinlock_t raw;
	rwlock_t rw;
	struct rt_mutex rtm;
	struct semaphore sem;
	struct rw_semaphore rwsem;
	seqlock_t seq;
	unsigned long seq_data[2];	/* equal outside a seqlock write */
	struct lt_slot slots[NR_CPUS];
	int max_readers;		/* statistics (racy max) */
	/* the checker's */
	struct task_struct *checker;
	unsigned long pi_violations, lost_wakeups, signals;
	int nthreads;
	struct lt_thread th[];
};

/* lock_torture_start_checker - create lt's checker thread (it samples
 * lt->th[0..nthreads)).  Context: task, sleeps. */
int lock_torture_start_checker(struct lock_torture *lt);

#endif /* KERNEL_WORKLOADS_TORTURE_LOCK_H */
