/*
 * kernel/workloads/soak.h - the soak (issue 12, item 6): everything that
 * stresses rtk at once, for a given time, with one verdict at the end.
 *
 * For S seconds, together: background loads (kernel/workloads/load.h:
 * hackbench, a spinlock_t hog, a periodic threaded interrupt), the
 * torture kinds ("all", kernel/workloads/torture.h), pi_stress with one
 * group per CPU (kernel/workloads/pi_stress.h), cyclictest with one
 * SCHED_FIFO 99 thread per CPU (kernel/workloads/cyclictest.h) and, in the
 * caller's thread, the PI tester's built-in scripts in a loop
 * (kernel/workloads/rttester.h).  Then one line:
 *
 *	soak-verdict: model=<m> cpus=<n> seconds=<s> torture_errors=<n>
 *	pitest_failed=<n> pi_stress_unresolved=<n> pi_stress_deadlocks=<n>
 *	cyclictest_max_us=<n> warnings=<n> oops=0 result=PASS|FAIL
 *
 * PASS: every part ran, no torture error, every pitest script passed,
 * pi_stress resolved every inversion, no WARN or might_sleep warning.
 * cyclictest's maximum is a figure (it depends on the host), never a
 * bound.  oops is 0 whenever the line is printed at all: an oops stops
 * rtk (kernel/panic.c); tools/soak.py counts them from the log.
 *
 * Started by the `soak SECONDS` shell command and by the soak suite
 * with the boot parameter soak.duration=S (`make soak`, tools/soak.py);
 * without that parameter the suite skips, so `make test` does not soak.
 * Linux counterpart: none in-tree; the usual practice of running
 * rcutorture/locktorture (tools/testing/selftests/rcutorture), rt-tests
 * and stress loads together for hours.
 */
#ifndef KERNEL_WORKLOADS_SOAK_H
#define KERNEL_WORKLOADS_SOAK_H

#include "lib/types.h"
#include "kernel/workloads/pi_stress.h"

#define SOAK_MAX_SECONDS (24 * 3600)

struct soak_result {
	unsigned int seconds;		/* asked for */
	int cpus;
	int loads;			/* loads started */
	int torture_rc;			/* torture_start/_wait's result */
	unsigned long torture_ops, torture_errors;
	unsigned long pitest_runs, pitest_failed;
	int pi_stress_rc;
	struct pi_stress_result pi;
	int cyclictest_rc;
	long cyclictest_max_us;		/* -1: no figure came */
	unsigned long warnings;		/* WARN + might_sleep during the soak */
};

/* soak_duration - the soak.duration= boot parameter (seconds; 0: the
 * soak suite skips). */
extern unsigned int soak_duration;

/*
 * soak_run - run the soak for seconds (1..SOAK_MAX_SECONDS) and fill
 * *res; the parts' own verdict lines are printed as they end.  Returns
 * 0 when it ran to the end (pass or fail: see soak_passed), -EINVAL,
 * -EBUSY (a soak is running), or -ENOMEM (a part could not start:
 * what did start is stopped first).  Context: task, sleeps; the caller
 * is SCHED_OTHER.  Locking: none held; one soak at a time.
 */
int soak_run(unsigned int seconds, struct soak_result *res);

/* soak_passed - the verdict's PASS rule (above). */
bool soak_passed(const struct soak_result *res);

/* soak_verdict - the soak-verdict line into buf; returns buf. */
char *soak_verdict(char *buf, size_t size, const struct soak_result *res);

#endif /* KERNEL_WORKLOADS_SOAK_H */
