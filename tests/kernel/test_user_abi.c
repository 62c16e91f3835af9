/*
 * tests/kernel/test_user_abi.c - the Linux system-call ABI as programs
 * see it: futex timeouts, PI futex owners, files and fd tables, the
 * small calls glibc makes at start-up.  Each case runs a program of
 * user/tests/ that checks Linux's answers and exits with the number of
 * checks that failed (listed on the console above the KTAP line); the
 * program's scenario comment says what it asserts.  Programs in the
 * suite run on a Linux host too, where they pass.
 */
#include "tests/kernel/user_helpers.h"
#include "kernel/ktest.h"
#include "kernel/user/process.h"
#include "kernel/user/rlimit.h"
#include "kernel/user/uapi.h"
#include "kernel/mm/kstack.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/time/ktime.h"
#include "tests/kernel/sched_helpers.h"
#include "lib/vsnprintf.h"
#include "lib/string.h"
#include "lib/errno.h"

/*
 * t_pi_owner [PID]: a PI futex word naming a kernel thread is -EPERM,
 * one naming another process's thread -ESRCH, and an owner that exits
 * holding the futex hands it to its waiter (issue 28 item 1; scenario
 * in user/tests/t_pi_owner.c).  PID is a thread of a t_loop started
 * here: a live task of another process.
 */
static void test_user_pi_futex_owner_is_a_thread_of_the_process(struct ktest *t)
{
	struct process *loop;
	char line[32] = "t_loop";
	int status;

	if (!user_have_program(t, "t_pi_owner") || !user_have_program(t, "t_loop"))
		return;
	loop = user_spawn(t, line);
	if (!loop)
		return;
	snprintf(line, sizeof(line), "t_pi_owner %d", loop->tgid);
	status = user_run(t, line);
	KTEST_EXPECT(t, status == 0, "t_pi_owner: expected exit 0, got status "
		     "%#x (exit code = failed checks, listed above)", status);
	KTEST_EXPECT_EQ(t, process_kill(loop->tgid), 0);
	KTEST_EXPECT_EQ(t, process_wait(loop), W_EXITCODE(0, SIGKILL));
	process_put(loop);
}

/* t_files: every file and fd call and its errors, against Linux's
 * answers (issue 29 item 2; scenario in user/tests/t_files.c); after it
 * exits, its exit has closed every fd and freed every inode it made:
 * the kernel's memory is back (a warm-up run first, for the caches). */
static void test_user_files_and_fd_tables_answer_as_linux_and_leak_nothing(struct ktest *t)
{
	struct mem_snap s0;
	int status;

	if (!user_have_program(t, "t_files"))
		return;
	user_run(t, "t_files");
	user_snap(&s0);
	status = user_run(t, "t_files");
	KTEST_EXPECT(t, status == 0, "t_files: expected exit 0, got status "
		     "%#x (exit code = failed checks, listed above)", status);
	user_expect_same(t, &s0);
}

/*
 * Scenario: t_timeout (one process, two threads) sleeps in FUTEX_WAIT
 * with tv_sec = LONG_MAX and then KTIME_SEC_MAX while its second thread
 * wakes it (handshake: a flag, then FUTEX_WAKE until one is woken); the
 * wait must return 0, not -ETIMEDOUT (the s64 overflow put the deadline
 * 1 s in the past).  Bad timespecs are -EINVAL for futex, nanosleep and
 * clock_nanosleep.  Exit code = failed checks.
 */
static void test_user_huge_futex_timeout_saturates(struct ktest *t)
{
	user_expect_exit_zero(t, "t_timeout");
}

/* t_libc_calls: the small calls glibc makes at start-up and for its
 * threads, futex bitsets with CLOCK_REALTIME deadlines, and signals as
 * part 1 records them (issue 29 item 6; scenario in
 * user/tests/t_libc_calls.c). */
static void test_user_glibc_startup_calls_answer_as_linux(struct ktest *t)
{
	user_expect_exit_zero(t, "t_libc_calls");
}

/* t_proc: /proc and /sys in Linux's formats, snapshots per open, the
 * RT-throttling sysctls written and read back (issue 29 item 7;
 * scenario in user/tests/t_proc.c). */
static void test_user_proc_and_sys_files_read_as_linux(struct ktest *t)
{
	user_expect_exit_zero(t, "t_proc");
}

KTEST_SUITE(user_abi,
	    KTEST_CASE(test_user_pi_futex_owner_is_a_thread_of_the_process),
	    KTEST_CASE(test_user_files_and_fd_tables_answer_as_linux_and_leak_nothing),
	    KTEST_CASE(test_user_huge_futex_timeout_saturates),
	    KTEST_CASE(test_user_glibc_startup_calls_answer_as_linux),
	    KTEST_CASE(test_user_proc_and_sys_files_read_as_linux));
