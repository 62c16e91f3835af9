/*
 * tests/kernel/test_user_socket.c - AF_UNIX stream socketpairs, the byte
 * ring under them and poll (kernel/fs/af_unix.c, pipe_ring.c, poll.c),
 * driven from ring 3 by user/tests/t_socket.c (its header lists every
 * check: partial reads, a writer blocked on a full ring woken by its
 * reader, EOF, EPIPE, EAGAIN, poll's timeouts and a poll woken by
 * another thread's write, POLLHUP, POLLNVAL, bad input, a small
 * hackbench), and the kernel's memory afterwards.
 *
 * Scenario: [1] a warm-up run of t_socket fills the slab caches and the
 * per-CPU magazines; [2] a snapshot of free + slab pages, slab objects
 * and live mm_structs once every exited task is gone; [3] t_socket again
 * must exit 0 (its exit code is its failed checks, each printed with
 * what it expected and saw); [4] the same snapshot must be back: every
 * pair's rings, inodes and files, every poll table page, every thread
 * freed, including the sockets hackbench-style programs leave for
 * exit to close.
 *
 * The second case runs t_socket's hackbench mode at `hackbench -T`'s size
 * (20 senders and 20 receivers a group) only when asked for on the
 * command line, user_socket.hackbench=GROUPS (1000 loops; minutes under
 * TCG): make kernel-test SELFTEST=user_socket
 * APPEND=user_socket.hackbench=2.
 */
#include "tests/kernel/user_helpers.h"
#include "kernel/ktest.h"
#include "kernel/cmdline.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

static long hackbench_groups;	/* user_socket.hackbench=; 0: skip */

static int __init parse_hackbench_groups(const char *val)
{
	return val ? kstrtol(val, 10, &hackbench_groups) : -EINVAL;
}
CMDLINE_PARAM("user_socket.hackbench", parse_hackbench_groups);

static void test_user_socketpair_and_poll_answer_as_linux_and_leak_nothing(
	struct ktest *t)
{
	struct mem_snap before;

	if (!user_have_program(t, "t_socket"))
		return;
	user_run(t, "t_socket");				/* [1] */
	user_snap(&before);					/* [2] */
	user_expect_exit_zero(t, "t_socket");			/* [3] */
	user_expect_same(t, &before);				/* [4] */
}

/* test_user_socket_hackbench_size_run_counts_every_byte - t_socket
 * hackbench GROUPS 1000: 40 threads a group through 20 socketpairs, each
 * byte counted by its receiver; exit 0 and its time in the log. */
static void test_user_socket_hackbench_size_run_counts_every_byte(
	struct ktest *t)
{
	char line[48];
	int status;

	if (!hackbench_groups) {
		ktest_skip(t, "runs only with user_socket.hackbench=GROUPS");
		return;
	}
	if (!user_have_program(t, "t_socket"))
		return;
	snprintf(line, sizeof(line), "t_socket hackbench %ld 1000",
		 hackbench_groups);
	status = user_run(t, line);
	KTEST_EXPECT(t, status == 0, "t_socket hackbench: expected exit 0, "
		     "got status %#x (failed checks listed above)", status);
}

KTEST_SUITE(user_socket,
	    KTEST_CASE(test_user_socketpair_and_poll_answer_as_linux_and_leak_nothing),
	    KTEST_CASE(test_user_socket_hackbench_size_run_counts_every_byte));
