/*
 * kernel/workloads/rttester.h - the scriptable PI tester: eight tester
 * threads and eight rt_mutexes driven by scripts in the format of
 * Linux's old rt-mutex tester (kernel/rtmutex-tester.c plus
 * scripts/rt-tester/rt-tester.py, removed in Linux 4.2).
 *
 * A script line is `C: opcode: thread: arg` (issue a command),
 * `T: opcode: thread: arg` (test once) or `W: opcode: thread: arg` (wait
 * until true, fail after RTTEST_WAIT_NS); `#` starts a comment.  The
 * opcodes and the state values are the original's, see rttester_internal.h.
 * rtk runs the script inside the kernel (the `pitest` shell command and
 * the `pi` self-test suite) instead of through sysfs files.
 * Linux counterpart: kernel/locking/rtmutex-tester.c (v4.1).
 */
#ifndef KERNEL_WORKLOADS_RTTESTER_H
#define KERNEL_WORKLOADS_RTTESTER_H

#include "lib/types.h"
#include "kernel/debug/hooks.h"	/* rttester_active, __rttester_* */

struct rt_mutex;

#define RTTEST_THREADS	8
#define RTTEST_LOCKS	8
#define RTTEST_LINE_MAX	128

/* A built-in script: tests/pi/NAME.tst, compiled into $(BUILD)/pi_scripts.c
 * by the Makefile. */
struct pi_script {
	const char *name;
	const char *text;
};
extern const struct pi_script pi_scripts[];
extern const int nr_pi_scripts;

/* pi_script_find - the built-in script called name, or NULL. */
const struct pi_script *pi_script_find(const char *name);

/* The outcome of a script: failed_line 0 means PASS. */
struct rttest_result {
	int failed_line;			/* 1-based, 0: passed */
	char line[RTTEST_LINE_MAX];		/* the failing line, trimmed */
	char seen[RTTEST_LINE_MAX];		/* what the tester saw */
};

/*
 * rttest_run_script - create the tester threads if needed, bring every
 * thread to idle (no lock held or waited for, SCHED_OTHER nice 0, prio
 * not boosted), run text line by line, then bring them back to idle
 * again, breaking a deadlock cycle the script left (rttester_script.c).
 * Returns 0 on PASS, -EINVAL on a syntax error (a thread or lock number
 * out of range included), -ETIMEDOUT when a W: timed out, -EIO when a T:
 * was false, -EBUSY when a command found its thread busy or when the
 * threads could not be brought back to idle before or after the script
 * ("tester threads stuck ...": every later script fails the same way);
 * res says where and what.  A C: command's own result (-EDEADLK for a
 * lock the thread already holds, -EINTR) is not a failure: the script
 * reads it with opcodeeq, as in Linux's tester.
 * Context: task, may sleep.  Locking: none held; one script at a time
 * (serialised by an internal mutex).
 */
int rttest_run_script(const char *text, struct rttest_result *res);
/* rttest_set_wait_seconds - the bound of each W: line (default 5 s; 0
 * restores it); a soak raises it.  Context: task, between scripts. */
void rttest_set_wait_seconds(unsigned int seconds);

/* rttest_print_result - "pitest: PASS" or "pitest: FAIL line N: <line>
 * (<seen>)" on the console. */
void rttest_print_result(const struct rttest_result *res);

/*
 * The hooks in rt_mutex_slowlock (kernel/debug/hooks.h): once the tester
 * threads exist (rttester_active), __rttester_block marks a tester
 * thread's lock "blocked" when it is about to sleep, and
 * __rttester_wakeup stops a thread running `lock`/`lockint` after each
 * wake-up, before the lock is retried, until the script sends
 * `lockcont` (rttester.c).  Any other task returns at once.
 */

/* rttest_lock - tester lock i (L0..L7), or NULL before the first script
 * (the `locks` command lists them even when uncontended). */
struct rt_mutex *rttest_lock(int i);

#endif /* KERNEL_WORKLOADS_RTTESTER_H */
