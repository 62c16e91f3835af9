/*
 * kernel/workloads/pi_stress.h - rt-tests' pi_stress inside the kernel:
 * "inversion groups" of three SCHED_FIFO threads (low, medium, high)
 * bound to one CPU each, set up a priority inversion over and over and
 * count how it ends (issue 12, item 2).
 *
 * Per iteration of a group (the scenario is drawn in pi_stress.c):
 * low takes the group's lock, medium is ready to spin, high blocks on
 * the lock.  With priority inheritance (rt_mutex: also what spinlock_t
 * and struct semaphore are under rt) low is boosted above medium,
 * releases, and high has the lock before medium ran a single step:
 * an inversion resolved.  With a compat_semaphore (no PI) medium spins
 * its whole bound while high waits: an inversion left unresolved until
 * medium gave up.  Which of the two happened is read from the order of
 * two events (high got the lock / medium finished its bound), never
 * from a clock, so the outcome does not depend on the host's speed.
 * A watchdog counts a group that makes no progress for
 * PI_STRESS_WATCHDOG_NS with all three threads asleep as deadlocked
 * (rt-tests' watchdog thread; a group whose threads are runnable but
 * starved by higher-priority work is not).
 *
 * Used by the `pi_stress` shell command (kernel/shell/cmd_pi_stress.c),
 * the pi_stress suite (tests/kernel/test_pi_stress.c) and the soak
 * (kernel/workloads/soak.c).
 * Linux counterpart: rt-tests src/pi_tests/pi_stress.c (user space,
 * pthread PI mutexes and barriers); none in-tree.
 */
#ifndef KERNEL_WORKLOADS_PI_STRESS_H
#define KERNEL_WORKLOADS_PI_STRESS_H

#include "lib/types.h"
#include "kernel/time/ktime.h"

#define PI_STRESS_MAX_GROUPS 64
/* a group with no finished iteration for this long is deadlocked: a
 * hang net (one iteration takes micro- to milliseconds) */
#define PI_STRESS_WATCHDOG_NS (20LL * NSEC_PER_SEC)
/* the threads' SCHED_FIFO priorities (rt-tests: min+1, +2, +3) */
#define PI_STRESS_PRIO_LOW 20
#define PI_STRESS_PRIO_MED 21
#define PI_STRESS_PRIO_HIGH 22
/* the controller (the caller, raised for the run): above the groups, or
 * groups running back to back would starve it and the run never end */
#define PI_STRESS_PRIO_CONTROL 23

struct pi_stress_opts {
	int groups;			/* 0: one per online CPU */
	unsigned int seconds;		/* stop after this long (0: no limit) */
	unsigned long iterations;	/* per group (0: no limit) */
	bool compat;			/* compat_semaphore (no PI), else
					 * rt_mutex */
	/* high sleeps this long between iterations; 0: back to back, as
	 * rt-tests (then the groups' CPUs run nothing below FIFO 22) */
	unsigned int gap_us;
	/* polled about every 100 ms; true stops the run (ctrl-C); may be
	 * NULL */
	bool (*should_stop)(void);
	/* progress lines ("Current Inversions: N") about every second;
	 * may be NULL */
	void (*emit)(void *ctx, const char *line);
	void *ctx;
	int fail_create_at;		/* tests only: the n-th (1-based)
					 * kthread_create "fails"; 0: none */
};

struct pi_stress_result {
	int groups;
	unsigned long iterations;	/* finished, all groups */
	unsigned long inversions;	/* high found the lock held */
	unsigned long resolved;		/* ... and got it before medium had
					 * run its bound */
	unsigned long unresolved;	/* ... after medium had run its
					 * whole bound (no PI) */
	int deadlocks;			/* groups the watchdog found stuck */
	unsigned int seconds;		/* how long the run took, rounded */
};

/*
 * pi_stress_run - create o->groups groups (round-robin over the online
 * CPUs, each group's threads bound to its CPU), run them until o->seconds
 * passed, every group did o->iterations, or o->should_stop(); then stop
 * them and fill *res.  Returns 0, -EINVAL (bad options), -ENOMEM (a
 * group or thread could not be created: everything created so far is
 * stopped and freed first), or -EDEADLK when the watchdog found a group
 * stuck (its threads and memory are left as they are: they cannot be
 * stopped).  Context: task, sleeps; the caller runs at SCHED_FIFO
 * PI_STRESS_PRIO_CONTROL during the run (its policy is restored after).
 * Locking: none held; runs may overlap (each has its own groups).
 */
int pi_stress_run(const struct pi_stress_opts *o, struct pi_stress_result *res);

/* pi_stress_passed - no deadlock, no unresolved inversion, something
 * ran.  What --compat is expected to fail. */
bool pi_stress_passed(const struct pi_stress_result *res);

/* pi_stress_verdict - the one-line summary into buf:
 * "pi_stress-verdict: groups=<n> inversions=<n> unresolved=<n>
 * deadlocks=<n> result=PASS|FAIL".  Returns buf. */
char *pi_stress_verdict(char *buf, size_t size,
			const struct pi_stress_result *res);

#endif /* KERNEL_WORKLOADS_PI_STRESS_H */
