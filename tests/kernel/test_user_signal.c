/*
 * tests/kernel/test_user_signal.c - signals with Linux's semantics
 * (kernel/user/signal_deliver.c, sys_signal.c, sys_sigwait.c,
 * arch/x86_64/signal_frame.c), driven from ring 3.
 *
 * 1. user/tests/t_signal.c (its header lists every check: the handler's
 *    entry registers and alignment, siginfo, masks, SA_NODEFER,
 *    SA_RESETHAND, SA_RESTART and -EINTR for sleeps woken by another
 *    thread's tgkill, rt_sigtimedwait, rt_sigsuspend, a caught SIGSEGV,
 *    the FPU across a handler, sigaltstack, bad input) must exit 0, and
 *    the kernel's memory must be back after it: [1] a warm-up run, [2]
 *    a snapshot, [3] the run, [4] the same snapshot.
 * 2. t_signal's one-shot modes end the process with Linux's wait status:
 *    a default-terminate signal, a core-dumping one (no core file: the
 *    plain signal status), the ignored ones (exit 0), the stop signals
 *    (exit 0: ignored, rtk having no job control), and SIGSEGV for a
 *    fault with SIGSEGV blocked, a fault in the SIGSEGV handler, a frame
 *    that cannot be written and a handler without SA_RESTORER.
 * 3. The sigreturn fuzzer, user/tests/t_sigfuzz.c: [1] one small warm-up
 *    run, [2] a snapshot, [3] FUZZ_PROCS processes with different seeds
 *    at once, FUZZ_ROUNDS random frames each, every one must exit 0 (the
 *    kernel is still up to see it), [4] the same snapshot.
 */
#include "tests/kernel/user_helpers.h"
#include "kernel/user/process.h"
#include "kernel/ktest.h"
#include "lib/vsnprintf.h"

#define FUZZ_PROCS	4	/* two per CPU of a 2-CPU run: they overlap */
#define FUZZ_ROUNDS	3000	/* frames per process: ~a second under TCG */

static void test_user_signal_handlers_restarts_and_faults_as_linux(
	struct ktest *t)
{
	struct mem_snap before;

	if (!user_have_program(t, "t_signal"))
		return;
	user_run(t, "t_signal");				/* [1] */
	user_snap(&before);					/* [2] */
	user_expect_exit_zero(t, "t_signal");			/* [3] */
	user_expect_same(t, &before);				/* [4] */
}

static void test_user_signal_default_actions_give_linux_wait_status(
	struct ktest *t)
{
	static const struct {
		const char *mode;
		int status;		/* W_EXITCODE(code, sig) */
	} cases[] = {
		{ "term", W_EXITCODE(0, SIGTERM) },
		{ "quit", W_EXITCODE(0, SIGQUIT) },
		{ "ignored", W_EXITCODE(0, 0) },
		{ "stop", W_EXITCODE(0, 0) },	/* rtk: no job control */
		{ "segv_blocked", W_EXITCODE(0, SIGSEGV) },
		{ "nested_segv", W_EXITCODE(0, SIGSEGV) },
		{ "badstack", W_EXITCODE(0, SIGSEGV) },
		{ "norestorer", W_EXITCODE(0, SIGSEGV) },
	};
	char line[48];
	int status;

	if (!user_have_program(t, "t_signal"))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(line, sizeof(line), "t_signal %s", cases[i].mode);
		status = user_run(t, line);
		KTEST_EXPECT(t, status == cases[i].status,
			     "%s: expected wait status %#x, got %#x", line,
			     cases[i].status, status);
	}
}

static void test_user_sigreturn_fuzzer_leaves_kernel_up_and_nothing_leaked(
	struct ktest *t)
{
	struct process *p[FUZZ_PROCS];
	struct mem_snap before;
	char line[48];
	int status;

	if (!user_have_program(t, "t_sigfuzz"))
		return;
	status = user_run(t, "t_sigfuzz 99 200");		/* [1] */
	KTEST_EXPECT(t, status == 0, "warm-up: expected exit 0, got %#x",
		     status);
	user_snap(&before);					/* [2] */
	for (int i = 0; i < FUZZ_PROCS; i++) {			/* [3] */
		snprintf(line, sizeof(line), "t_sigfuzz %d %d", i + 1,
			 FUZZ_ROUNDS);
		p[i] = user_spawn(t, line);
	}
	for (int i = 0; i < FUZZ_PROCS; i++) {
		if (!p[i])
			continue;
		status = process_wait(p[i]);
		process_put(p[i]);
		KTEST_EXPECT(t, status == 0, "t_sigfuzz seed %d: expected exit "
			     "0, got status %#x", i + 1, status);
	}
	user_expect_same(t, &before);				/* [4] */
}

KTEST_SUITE(user_signal,
	    KTEST_CASE(test_user_signal_handlers_restarts_and_faults_as_linux),
	    KTEST_CASE(test_user_signal_default_actions_give_linux_wait_status),
	    KTEST_CASE(test_user_sigreturn_fuzzer_leaves_kernel_up_and_nothing_leaked));
