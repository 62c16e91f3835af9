/*
 * tests/kernel/test_pi.c - the pi suite: every built-in PI tester script
 * (tests/pi/NAME.tst, kernel/locking/rttester.c) passes, and the tester
 * itself fails where it should: a false T:, an unknown opcode, a
 * command to a thread out of range, with the failing line and what was
 * seen.  Scenarios are in the scripts' own header comments; the threads
 * are not pinned, so on -smp 4 the scripts also run across CPUs.
 */
#include "kernel/ktest.h"
#include "kernel/locking/rttester.h"
#include "lib/string.h"
#include "lib/errno.h"

static void test_pi_builtin_scripts_all_pass(struct ktest *t)
{
	struct rttest_result res;
	int i, ret;

	KTEST_ASSERT(t, nr_pi_scripts >= 8,
		     "expected the 8 story scripts built in, seen %d",
		     nr_pi_scripts);
	for (i = 0; i < nr_pi_scripts; i++) {
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

KTEST_SUITE(pi, KTEST_CASE(test_pi_builtin_scripts_all_pass),
	    KTEST_CASE(test_pi_tester_fails_a_false_test_line),
	    KTEST_CASE(test_pi_tester_rejects_bad_syntax),
	    KTEST_CASE(test_pi_tester_opcode_names_and_results));
