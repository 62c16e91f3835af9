/*
 * kernel/shell/cmd_lockbench.c - `lockbench`: the lock figures of the
 * bench suite (kernel/workloads/bench.h) in one go, for the locking notes:
 * uncontended lock/unlock of raw_spinlock_t, spinlock_t (under rt the
 * rt_mutex fast path), rt_mutex, semaphore and rwlock, the two-CPU
 * hand-offs, and the PI boost against chain length (sched_setscheduler
 * on the blocked end of a chain of 1..32 rt_mutexes, every owner
 * re-prioritised by rt_mutex_adjust_pi).
 *
 * The measurements are the bench suite's own (kernel/workloads/bench_lock.c):
 * this command used to carry a copy of the PI-chain code and now only
 * picks figures, so `lockbench` and `bench NAME` print the same "# bench:"
 * lines (median and max, ns and cycles) that tools/bench.py reads.
 * Figures only: nothing passes or fails on them.
 * Linux counterpart: none (lock_torture and rt-tests measure similar).
 */
#include "kernel/shell/shell.h"
#include "kernel/workloads/bench.h"
#include "kernel/printk.h"
#include "kernel/version.h"
#include "lib/compiler.h"
#include "lib/errno.h"

/* The lock rows of bench.c's table, in its order. */
static const char *const lock_figures[] = {
	"raw_spinlock", "spinlock", "rt_mutex", "semaphore", "rwlock-read",
	"rwlock-write", "handoff-raw_spinlock", "handoff-spinlock",
	"pi-boost-1", "pi-boost-2", "pi-boost-4", "pi-boost-8",
	"pi-boost-16", "pi-boost-32",
};

/* cmd_lockbench - Context: task (the shell), sleeps while each figure runs. */
static int cmd_lockbench(int argc, char **argv)
{
	struct bench_result res;
	unsigned int k;
	int i, rc;

	if (argc > 1) {
		console_printf("usage: lockbench (one figure: bench NAME)\n");
		return -EINVAL;
	}
	console_printf("lockbench: PREEMPT_%s, the lock figures of `bench`, "
		       "median and max per figure\n", RTK_PREEMPT_NAME);
	for (k = 0; k < ARRAY_SIZE(lock_figures); k++) {
		i = bench_find(lock_figures[k]);
		if (i < 0) {
			console_printf("lockbench: no figure '%s'\n",
				       lock_figures[k]);
			return i;
		}
		rc = bench_run(i, &res);
		bench_print("", lock_figures[k], rc, &res);
		if (rc == -EBUSY)
			return rc;
	}
	return 0;
}
SHELL_COMMAND(lockbench,
	      "the lock figures of `bench` (lock/unlock, hand-off, PI boost vs chain 1..32)",
	      cmd_lockbench);
