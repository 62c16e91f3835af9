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
#include "kernel/ktest.h"
#include "kernel/cmdline.h"
#include "kernel/user/initramfs.h"
#include "kernel/user/process.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/deferred.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/time/ktime.h"
#include "tests/kernel/sched_helpers.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

struct socket_mem {
	unsigned long pages;	/* free pages + pages the slab holds */
	unsigned long objs;	/* slab objects in use */
	int mms;		/* live mm_structs */
};

static void count_leaving(struct task_struct *p, void *arg)
{
	if (READ_ONCE(p->state) == TASK_DEAD ||
	    (READ_ONCE(p->flags) & PF_EXITING))
		(*(int *)arg)++;
}

/*
 * socket_mem_read - step [2]/[4]: wait (bounded by SAFETY_NS, a hang
 * guard) until no task is exiting or being reaped -- process_wait
 * returns before an exited thread's last switch drops its mm and
 * stack -- then flush what is freed late and read the counts.
 * Context: task, sleeps.
 */
static void socket_mem_read(struct socket_mem *m)
{
	ktime_t end = ktime_get() + SAFETY_NS;
	unsigned long slab_pages;
	int leaving;

	might_sleep();
	do {
		leaving = sched_nr_tasks_reaping();
		sched_for_each_task(count_leaving, &leaving);
		if (leaving)
			msleep(1);
	} while (leaving && ktime_get() < end);
	deferred_flush();
	free_dead_stacks();
	slab_drain_all();
	kmem_cache_totals(&m->objs, &slab_pages);
	m->pages = pmm_nr_free_pages() + slab_pages;
	m->mms = mm_count_live();
}

static long hackbench_groups;	/* user_socket.hackbench=; 0: skip */

static int __init parse_hackbench_groups(const char *val)
{
	return val ? kstrtol(val, 10, &hackbench_groups) : -EINVAL;
}
CMDLINE_PARAM("user_socket.hackbench", parse_hackbench_groups);

/* run_t_socket - t_socket's wait status with argv (NULL-terminated), -1
 * if it did not start. */
static int run_t_socket(struct ktest *t, char *const argv[])
{
	struct process *p;
	int argc = 0, err = 0, status;

	while (argv[argc])
		argc++;
	p = process_spawn(argc, argv, &err);
	KTEST_EXPECT(t, p, "process_spawn(t_socket): expected a process, "
		     "got error %d", err);
	if (!p)
		return -1;
	status = process_wait(p);
	process_put(p);
	return status;
}

static void test_user_socketpair_and_poll_answer_as_linux_and_leak_nothing(
	struct ktest *t)
{
	char name[] = "t_socket";
	char *argv[] = { name, NULL };
	struct socket_mem before, after;
	const void *data;
	size_t size;
	int status;

	if (initramfs_find("t_socket", &data, &size)) {
		ktest_skip(t, "no t_socket in the initramfs (boot with -initrd)");
		return;
	}
	run_t_socket(t, argv);					/* [1] */
	socket_mem_read(&before);				/* [2] */
	status = run_t_socket(t, argv);				/* [3] */
	KTEST_EXPECT(t, status == 0, "t_socket: expected exit 0, got status "
		     "%#x (exit code = failed checks, listed above)", status);
	socket_mem_read(&after);				/* [4] */
	KTEST_EXPECT(t, after.pages == before.pages,
		     "free+slab pages: expected %lu, saw %lu", before.pages,
		     after.pages);
	KTEST_EXPECT(t, after.objs == before.objs,
		     "slab objects: expected %lu, saw %lu", before.objs,
		     after.objs);
	KTEST_EXPECT(t, after.mms == before.mms,
		     "mm_structs: expected %d, saw %d", before.mms, after.mms);
}

/* test_user_socket_hackbench_size_run_counts_every_byte - t_socket
 * hackbench GROUPS 1000: 40 threads a group through 20 socketpairs, each
 * byte counted by its receiver; exit 0 and its time in the log. */
static void test_user_socket_hackbench_size_run_counts_every_byte(
	struct ktest *t)
{
	char name[] = "t_socket", mode[] = "hackbench", groups[24],
	     loops[] = "1000";
	char *argv[] = { name, mode, groups, loops, NULL };
	const void *data;
	size_t size;
	int status;

	if (!hackbench_groups) {
		ktest_skip(t, "runs only with user_socket.hackbench=GROUPS");
		return;
	}
	if (initramfs_find("t_socket", &data, &size)) {
		ktest_skip(t, "no t_socket in the initramfs (boot with -initrd)");
		return;
	}
	snprintf(groups, sizeof(groups), "%ld", hackbench_groups);
	status = run_t_socket(t, argv);
	KTEST_EXPECT(t, status == 0, "t_socket hackbench: expected exit 0, "
		     "got status %#x (failed checks listed above)", status);
}

KTEST_SUITE(user_socket,
	    KTEST_CASE(test_user_socketpair_and_poll_answer_as_linux_and_leak_nothing),
	    KTEST_CASE(test_user_socket_hackbench_size_run_counts_every_byte));
