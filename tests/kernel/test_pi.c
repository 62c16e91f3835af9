/*
 * tests/kernel/test_pi.c - the pi suite: every built-in PI tester script
 * (tests/pi/NAME.tst, kernel/workloads/rttester.c) passes, and the tester
 * itself fails where it should: a false T:, an unknown opcode, a
 * command to a thread or a lock out of range, with the failing line and
 * what was seen; and it recovers from a deadlock a script leaves (the
 * next script passes).  A deadlocking script is also reported by the
 * lock validator, as an expected report (each script starts with fresh
 * classes for L0..L7).  Scenarios are in the scripts' own header comments; the threads
 * are not pinned, so on -smp 4 the scripts also run across CPUs.
 */
#include "kernel/ktest.h"
#include "kernel/workloads/rttester.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/locking/lockdep.h"
#include "lib/string.h"
#include "lib/errno.h"

/*
 * Run a script that deadlocks on purpose: the validator must report it
 * (kind) as an expected report, before the deadlock.
 */
static int run_deadlock_script(struct ktest *t, const char *what,
			       const char *text, struct rttest_result *res,
			       enum lockdep_report_kind kind)
{
	struct lockdep_stats before, after;
	int ret;

	lockdep_get_stats(&before);
	lockdep_expect_begin();
	ret = rttest_run_script(text, res);
	lockdep_expect_end();
	lockdep_get_stats(&after);
	if (LOCKDEP_ENABLED && after.enabled)
		KTEST_EXPECT(t, after.expected > before.expected &&
				     after.last_kind == kind,
			     "%s: expected a %s lockdep report, seen %lu "
			     "new, last %s", what, lockdep_kind_name(kind),
			     after.expected - before.expected,
			     lockdep_kind_name(after.last_kind));
	return ret;
}

static void test_pi_builtin_scripts_all_pass(struct ktest *t)
{
	struct rttest_result res;
	int i, ret;

	KTEST_ASSERT(t, nr_pi_scripts >= 8,
		     "expected the 8 story scripts built in, seen %d",
		     nr_pi_scripts);
	for (i = 0; i < nr_pi_scripts; i++) {
		if (strstr(pi_scripts[i].name, "deadlock"))
			ret = run_deadlock_script(t, pi_scripts[i].name,
						  pi_scripts[i].text, &res,
						  LOCKDEP_CIRCULAR);
		else
			ret = rttest_run_script(pi_scripts[i].text, &res);
		KTEST_EXPECT(t, ret == 0 && res.failed_line == 0,
			     "%s: expected PASS, seen FAIL line %d: %s (%s), "
			     "ret %d", pi_scripts[i].name, res.failed_line,
			     res.line, res.seen, ret);
	}
}

/* T0 (SCHED_OTHER) holds L0, T1 (FIFO 80) waits: T0 reads 80, and a
 * claim that it reads 70 must fail on that line. */
static const char wrong_prio_script[] =
	"# wrong expectation\n"
	"C: schedother: 0: 0\n"
	"C: schedfifo: 1: 80\n"
	"C: locknowait: 0: 0\n"
	"W: locked: 0: 0\n"
	"C: locknowait: 1: 0\n"
	"W: blocked: 1: 0\n"
	"T: prioeq: 0: 70\n"
	"C: unlock: 0: 0\n";

static void test_pi_tester_fails_a_false_test_line(struct ktest *t)
{
	struct rttest_result res;
	int ret = rttest_run_script(wrong_prio_script, &res);

	KTEST_EXPECT_EQ(t, ret, -EIO);
	KTEST_EXPECT_EQ(t, res.failed_line, 8);
	KTEST_EXPECT(t, !strcmp(res.line, "T: prioeq: 0: 70"),
		     "expected the failing line, seen '%s'", res.line);
	KTEST_EXPECT(t, strstr(res.seen, "prio 80") != NULL,
		     "expected 'prio 80' in what was seen, seen '%s'",
		     res.seen);
	/* the cleanup released L0 and let T1 go: a fresh script can take it */
	ret = rttest_run_script("C: locknowait: 2: 0\nW: locked: 2: 0\n"
				"C: unlock: 2: 0\nW: unlocked: 2: 0\n", &res);
	KTEST_EXPECT(t, ret == 0, "expected L0 free after cleanup, seen FAIL "
		     "line %d (%s)", res.failed_line, res.seen);
}

static void test_pi_tester_rejects_bad_syntax(struct ktest *t)
{
	struct rttest_result res;
	int ret;

	ret = rttest_run_script("\n# c\nC: frobnicate: 0: 0\n", &res);
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
	KTEST_EXPECT_EQ(t, res.failed_line, 3);
	KTEST_EXPECT(t, strstr(res.seen, "frobnicate") != NULL,
		     "expected the unknown opcode named, seen '%s'", res.seen);

	ret = rttest_run_script("T: locked: 8: 0\n", &res);
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
	KTEST_EXPECT(t, strstr(res.seen, "thread") != NULL,
		     "expected a bad-thread diagnostic, seen '%s'", res.seen);

	ret = rttest_run_script("W: locked 0 0\n", &res);
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
}

/* The opcode test takes a command name, as rt-tester.py does, and the
 * interruptible lock of a free lock returns 0. */
static void test_pi_tester_opcode_names_and_results(struct ktest *t)
{
	struct rttest_result res;
	int ret = rttest_run_script("C: lockintnowait: 3: 5\n"
				    "W: locked: 3: 5\n"
				    "T: opcodeeq: 3: 0\n"
				    "T: opcodelt: 3: unlock\n"
				    "C: unlock: 3: 5\n"
				    "W: unlocked: 3: 5\n"
				    "C: unlock: 3: 5\n"
				    "W: opcodeeq: 3: -22\n", &res);

	KTEST_EXPECT(t, ret == 0, "expected PASS, seen FAIL line %d: %s (%s)",
		     res.failed_line, res.line, res.seen);
}

/* Run script text, expect PASS; what says which script. */
static void expect_pass(struct ktest *t, const char *what, const char *text)
{
	struct rttest_result res;
	int ret = rttest_run_script(text, &res);

	KTEST_EXPECT(t, ret == 0 && res.failed_line == 0,
		     "%s: expected PASS, seen FAIL line %d: %s (%s), ret %d",
		     what, res.failed_line, res.line, res.seen, ret);
}

/* As expect_pass, for a script the validator must report as kind. */
static void expect_pass_reported(struct ktest *t, const char *what,
				 const char *text,
				 enum lockdep_report_kind kind)
{
	struct rttest_result res;
	int ret = run_deadlock_script(t, what, text, &res, kind);

	KTEST_EXPECT(t, ret == 0 && res.failed_line == 0,
		     "%s: expected PASS, seen FAIL line %d: %s (%s), ret %d",
		     what, res.failed_line, res.line, res.seen, ret);
}

/* No tester lock held after a cleanup (the `locks` view of it). */
static void expect_locks_free(struct ktest *t, const char *after)
{
	int i;

	for (i = 0; i < RTTEST_LOCKS; i++)
		KTEST_EXPECT(t, !rt_mutex_is_locked(rttest_lock(i)),
			     "after %s: expected L%d free, seen it held", after,
			     i);
}

/* T0 takes L0 and then L0 again: a plain lock cannot fail and would wait
 * for itself for ever, so the tester refuses it with -EDEADLK (-35) as
 * the command's result and T0 keeps L0; lockint gets the same from
 * rt_mutex_lock_interruptible's own check. */
static const char self_deadlock_script[] =
	"C: locknowait: 0: 0\n"
	"W: locked: 0: 0\n"
	"C: lock: 0: 0\n"
	"W: opcodeeq: 0: -35\n"
	"T: locked: 0: 0\n"
	"C: lockintnowait: 0: 0\n"
	"W: opcodeeq: 0: -35\n"
	"T: locked: 0: 0\n";

/*
 * A script that ends in a deadlock passes (its W: lines came true, as
 * rt-tester.py would judge it), and the cleanup breaks the cycle: the
 * locks are free and t2-l1-pi, which reads T0's prio, passes right after
 * (before the fix T0 stayed boosted to 80 in the cycle and it failed).
 */
static void test_pi_tester_recovers_from_a_deadlock(struct ktest *t)
{
	const struct pi_script *abba = pi_script_find("t2-l2-deadlock");
	const struct pi_script *pi = pi_script_find("t2-l1-pi");

	KTEST_ASSERT(t, abba && pi, "expected t2-l2-deadlock and t2-l1-pi "
		     "built in, seen %p %p", abba, pi);
	expect_pass_reported(t, "t2-l2-deadlock", abba->text,
			     LOCKDEP_CIRCULAR);
	expect_locks_free(t, "t2-l2-deadlock");
	expect_pass(t, "t2-l1-pi after the ABBA deadlock", pi->text);
	expect_pass_reported(t, "self-deadlock", self_deadlock_script,
			     LOCKDEP_RECURSIVE);
	expect_locks_free(t, "the self-deadlock");
	expect_pass(t, "t2-l1-pi after the self-deadlock", pi->text);
}

/* A lock number outside 0-7 on a C: or T: line is a syntax error naming
 * the line and the range; nothing is posted to the thread. */
static void test_pi_tester_rejects_a_lock_out_of_range(struct ktest *t)
{
	static const char *const bad[] = {
		"C: locknowait: 0: 99\n", "C: unlock: 0: -1\n",
		"C: lockcont: 0: 8\n", "T: locked: 0: 8\n",
	};
	struct rttest_result res;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = rttest_run_script(bad[i], &res);
		KTEST_EXPECT(t, ret == -EINVAL && res.failed_line == 1,
			     "'%s': expected -EINVAL at line 1, seen %d at %d",
			     bad[i], ret, res.failed_line);
		KTEST_EXPECT(t, strstr(res.seen, "out of range") &&
			     strstr(res.seen, "0-7"),
			     "'%s': expected 'out of range (locks are 0-7)', "
			     "seen '%s'", bad[i], res.seen);
	}
	ret = rttest_run_script("C: locknowait: 0: 99\n", &res);
	KTEST_EXPECT(t, !strcmp(res.line, "C: locknowait: 0: 99") &&
		     strstr(res.seen, "99"),
		     "expected the line and the number named, seen '%s' (%s)",
		     res.line, res.seen);
	/* the last lock is in range */
	expect_pass(t, "lock 7", "C: locknowait: 0: 7\nW: locked: 0: 7\n"
		    "C: unlock: 0: 7\nW: unlocked: 0: 7\n");
}

KTEST_SUITE(pi, KTEST_CASE(test_pi_builtin_scripts_all_pass),
	    KTEST_CASE(test_pi_tester_fails_a_false_test_line),
	    KTEST_CASE(test_pi_tester_rejects_bad_syntax),
	    KTEST_CASE(test_pi_tester_opcode_names_and_results),
	    KTEST_CASE(test_pi_tester_recovers_from_a_deadlock),
	    KTEST_CASE(test_pi_tester_rejects_a_lock_out_of_range));
