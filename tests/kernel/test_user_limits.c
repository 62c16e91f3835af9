/*
 * tests/kernel/test_user_limits.c - what one process may take: threads
 * (RLIMIT_NPROC, the total USER_THREADS_MAX, the kernel's reserve of
 * stacks) and RT priority (RLIMIT_RTPRIO) -- issue 28 items 2 and 3.
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

/* t_rlimit: Linux's resource-limit calls; a thread bomb stops at
 * RLIMIT_NPROC with -EAGAIN and its charge comes back; RLIMIT_RTPRIO
 * holds (issue 28 items 2 and 3; scenario in user/tests/t_rlimit.c). */
static void test_user_rlimits_stop_a_thread_bomb_and_cap_rt_priority(struct ktest *t)
{
	int before = user_threads_charged();

	user_expect_exit_zero(t, "t_rlimit");
	KTEST_EXPECT_EQ(t, user_threads_charged(), before);
}

/*
 * Scenario (thread bombs, issue 28 item 3): two t_bomb processes each
 * make threads until refused, and keep them.  Expected: each is refused
 * with -EAGAIN (the first by RLIMIT_NPROC, the second by the total
 * USER_THREADS_MAX), the total stops at USER_THREADS_MAX, and the kernel
 * still creates a kthread meanwhile (KSTACK_KERNEL_RESERVE).  After the
 * kills, the charge and the kernel-stack count are back.  Before the
 * limits, one bomb took ~1000 stacks and kthread_create failed.
 * The test waits for each bomb's refusal (nr_refused), not for a time.
 */
static int nothing_fn(void *unused)
{
	return 0;
}

static void test_user_thread_bombs_leave_the_kernel_its_stacks(struct ktest *t)
{
	struct process *bomb[2] = { NULL, NULL };
	struct task_struct *k;
	unsigned int stacks;
	char line[16];
	int before, i;

	if (!user_have_program(t, "t_bomb"))
		return;
	user_exits_settled();	/* the earlier cases' stacks, freed first */
	free_dead_stacks();
	stacks = kstack_nr_in_use();
	before = user_threads_charged();
	for (i = 0; i < 2; i++) {
		u64 end = ktime_get_ns() + SAFETY_NS * 8;

		strscpy(line, "t_bomb", sizeof(line));
		bomb[i] = user_spawn(t, line);
		if (!bomb[i])
			goto out_kill;
		while (!READ_ONCE(bomb[i]->nr_refused) && ktime_get_ns() < end)
			msleep(1);
		KTEST_EXPECT(t, READ_ONCE(bomb[i]->nr_refused),
			     "bomb %d was never refused a thread", i);
	}
	KTEST_EXPECT(t, READ_ONCE(bomb[0]->nr_charged) == PROCESS_THREADS_MAX,
		     "bomb 0: expected RLIMIT_NPROC (%d) threads, saw %d",
		     PROCESS_THREADS_MAX, READ_ONCE(bomb[0]->nr_charged));
	KTEST_EXPECT(t, user_threads_charged() == USER_THREADS_MAX,
		     "expected the user-thread total at %d, saw %d",
		     USER_THREADS_MAX, user_threads_charged());
	k = kthread_create(nothing_fn, NULL, "bomb_survivor");
	KTEST_EXPECT(t, k, "kthread_create failed with %d user threads alive",
		     user_threads_charged());
	if (k) {
		get_task_struct(k);	/* kept past its exit */
		wake_up_process(k);
		kthread_stop(k);
		put_task_struct(k);
	}
out_kill:
	for (i = 0; i < 2; i++) {
		if (!bomb[i])
			continue;
		KTEST_EXPECT_EQ(t, process_kill(bomb[i]->tgid), 0);
		KTEST_EXPECT_EQ(t, process_wait(bomb[i]), W_EXITCODE(0, SIGKILL));
		process_put(bomb[i]);
	}
	user_exits_settled();
	free_dead_stacks();
	KTEST_EXPECT_EQ(t, user_threads_charged(), before);
	KTEST_EXPECT(t, kstack_nr_in_use() == stacks, "kernel stacks back to "
		     "%u, saw %u", stacks, kstack_nr_in_use());
}

KTEST_SUITE(user_limits,
	    KTEST_CASE(test_user_rlimits_stop_a_thread_bomb_and_cap_rt_priority),
	    KTEST_CASE(test_user_thread_bombs_leave_the_kernel_its_stacks));
