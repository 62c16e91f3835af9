/*
 * kernel/workloads/torture_internal.h - what the torture framework
 * (torture.c) offers the torture kinds (torture_lock.c, torture_rcu.c,
 * torture_sched.c, torture_timer.c): a per-thread PRNG, thread creation
 * that the framework stops at the end, random sleeps, error reports.
 *
 * A kind is a struct torture_ops.  One run holds up to
 * TORTURE_MAX_TESTS tests (one per lock type, rcu, sched, timer); the
 * framework calls every test's init, lets the threads run, stops them
 * all (newest first, so checkers go before the workers they look at),
 * then calls every test's cleanup, which makes the final checks and
 * frees.  cleanup is called even when init failed half way: it must
 * cope with what init left (priv may be NULL).
 * Linux counterpart: include/linux/torture.h (torture_random,
 * torture_create_kthread, torture_must_stop, torture_shuffle).
 */
#ifndef KERNEL_WORKLOADS_TORTURE_INTERNAL_H
#define KERNEL_WORKLOADS_TORTURE_INTERNAL_H

#include "kernel/workloads/torture.h"
#include "kernel/sched/sched.h"
#include "lib/compiler.h"

#define TORTURE_MAX_TESTS 16		/* 8 lock types, rcu, sched, timer */
#define TORTURE_MAX_THREADS 160		/* every test of "all" together */
#define TORTURE_MAX_REPORTS 8		/* error lines printed per test */

/* xorshift64*: small, fast, good enough to pick delays and CPUs; the
 * seed of each thread comes from the run's seed, printed at the start. */
struct torture_random {
	u64 state;
};

struct torture_test;

struct torture_ops {
	/* init - allocate tt->priv, create the threads.  0 or -errno.
	 * Context: task (torture_start's caller), sleeps. */
	int (*init)(struct torture_test *tt);
	/* cleanup - all threads are stopped: final checks, free priv. */
	void (*cleanup)(struct torture_test *tt);
	/* stats - one statistics line into buf; returns the ops so far.
	 * Context: the control thread, while threads run (racy reads). */
	unsigned long (*stats)(struct torture_test *tt, char *buf, size_t len);
};

struct torture_test {
	const char *name;		/* "lock:rwlock", "rcu" */
	const struct torture_ops *ops;
	int type;			/* the lock type for lock tests */
	void *priv;			/* the kind's state */
	unsigned long errors;		/* atomic: torture_error() */
	u64 seed;			/* this test's seed */
};

/* torture_random_init - seed r from the test's seed and a thread salt. */
void torture_random_init(struct torture_random *r,
			 const struct torture_test *tt, unsigned long salt);
/* torture_random - the next 32 random bits. */
u32 torture_random(struct torture_random *r);
/* torture_random_below - uniform-ish in 0..n-1 (n > 0). */
static inline u32 torture_random_below(struct torture_random *r, u32 n)
{
	return torture_random(r) % n;
}

/*
 * torture_kthread - create a thread of tt running fn(arg) at policy
 * (SCHED_OTHER or SCHED_FIFO with rt_prio), name "<fmt>"; shuffle: the
 * framework moves it between CPUs at random.  The framework stops it
 * (kthread_stop) at the end of the run.  *out (may be NULL) gets the
 * task.  0 or -ENOMEM/-EBUSY (too many threads).  Context: task, sleeps.
 */
int torture_kthread(struct torture_test *tt, int (*fn)(void *arg), void *arg,
		    int policy, int rt_prio, bool shuffle,
		    struct task_struct **out, const char *fmt, ...)
	__printf(8, 9);

/* torture_nr_tests - tests in the run being started (a kind scales its
 * thread count down when it shares the machine with others). */
int torture_nr_tests(void);

/* torture_must_stop - should a torture thread leave its loop now? */
bool torture_must_stop(void);

/* torture_sleep_us - sleep about us microseconds (0: just a scheduling
 * point).  Context: task, sleeps. */
void torture_sleep_us(unsigned int us);

/* torture_busy_ns - spin ns on the clock (a hold time that does not
 * sleep).  Context: any. */
void torture_busy_ns(u64 ns);

/*
 * torture_error - count an invariant violation of tt and print it (the
 * first TORTURE_MAX_REPORTS of each test, with the seed).  Returns true
 * when it was printed, so the caller may add backtraces.  Context: any
 * task or the checkers; never sleeps.
 */
bool torture_error(struct torture_test *tt, const char *fmt, ...)
	__printf(2, 3);

/* torture_show_task - print p's name, state, prio, CPU and backtrace
 * (p must be switched out; a running task prints only the line). */
void torture_show_task(const char *role, struct task_struct *p);

extern const struct torture_ops lock_torture_ops;
extern const struct torture_ops rcu_torture_ops;
extern const struct torture_ops sched_torture_ops;
extern const struct torture_ops timer_torture_ops;

/* The lock types of lock_torture_ops (tt->type). */
enum torture_lock_type {
	TORTURE_SPINLOCK,
	TORTURE_RAW_SPINLOCK,
	TORTURE_RWLOCK,
	TORTURE_RT_MUTEX,
	TORTURE_SEMAPHORE,
	TORTURE_RWSEM,
	TORTURE_SEQLOCK,
	TORTURE_PERCPU_LOCKED,
	NR_TORTURE_LOCK_TYPES,
};

#endif /* KERNEL_WORKLOADS_TORTURE_INTERNAL_H */
