/*
 * kernel/workloads/torture.h - in-kernel torture runs (issue 12, item 1):
 * many threads hammer one subsystem with random timing, priorities and
 * CPU placement while checkers test its invariants continuously.
 *
 *	kind		what runs (all sub-tests of a kind run at once)
 *	lock:<type>	writers and readers of one lock type: spinlock
 *			raw_spinlock rwlock rt_mutex semaphore rwsem
 *			seqlock percpu_locked (torture_lock.c)
 *	lock		every lock type
 *	rcu		readers checking the objects they hold were not
 *			freed, writers replacing them (torture_rcu.c)
 *	sched		wake-ups racing migrations, RT placement checked
 *			(torture_sched.c)
 *	timer		self re-arming timers cancelled from other CPUs
 *			(torture_timer.c)
 *	all		every lock type, rcu, sched and timer together
 *
 * One run at a time:
 *	torture_start("lock", 60);	threads created, returns at once
 *	torture_wait(&sum);		blocks until the run ended
 * torture_stop() ends it early (the shell's ctrl-C).  The run prints
 * statistics every torture.stat_interval seconds and exactly one line
 *	torture-verdict: kind=K seconds=S ops=N errors=E result=PASS|FAIL
 * at the end (kernel/workloads/torture.c).
 * Linux counterpart: kernel/locking/locktorture.c, kernel/rcu/rcutorture.c
 * and kernel/torture.c (the shared framework).
 */
#ifndef KERNEL_WORKLOADS_TORTURE_H
#define KERNEL_WORKLOADS_TORTURE_H

#include "lib/types.h"

/* What a finished run did; kind points at a string that lives as long
 * as the kernel. */
struct torture_summary {
	const char *kind;		/* "lock:rt_mutex", "all" ... */
	unsigned int seconds;		/* how long it ran (rounded) */
	unsigned long ops;		/* lock acquisitions, reads, ... */
	unsigned long errors;		/* invariant violations seen */
};

/* Longest run the shell and the command line accept (a day). */
#define TORTURE_MAX_SECONDS 86400

/*
 * torture_start - start a run of kind for seconds (1..TORTURE_MAX_SECONDS)
 * and return at once.  -EINVAL: unknown kind or duration (the message
 * lists the kinds), -EBUSY: a run is active (started and not yet waited
 * for), -ENOMEM: a thread or an allocation failed; everything created so
 * far is stopped and freed before it returns.  Context: task, sleeps.
 */
int torture_start(const char *kind, unsigned int seconds);

/*
 * torture_wait - block until the active run ended, fill *sum (may be
 * NULL) and make room for the next run.  0 if the run saw no error,
 * -EIO if it did, -ENOENT if no run was started.  Context: task, sleeps.
 */
int torture_wait(struct torture_summary *sum);

/* torture_stop - end the active run now (it still reports and must be
 * waited for).  Context: any task; no-op without a run. */
void torture_stop(void);

/* torture_done - has the active run ended (torture_wait will not
 * block)?  True without a run.  For pollers such as the shell. */
bool torture_done(void);

/* torture_kinds_help - the accepted kinds, for usage messages. */
const char *torture_kinds_help(void);

#endif /* KERNEL_WORKLOADS_TORTURE_H */
