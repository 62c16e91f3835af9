/*
 * tests/kernel/user_helpers.c - what the user-mode suites share: start
 * a program from the initramfs and wait for it, skip when it is absent,
 * and snapshot the kernel's memory so a case can check that a program's
 * exit gave back every page, slab object and mm_struct.
 * The suites: test_user.c (processes, faults, preemption points, leaks),
 * test_user_abi.c (the Linux calls), test_user_limits.c (thread bombs).
 */
#include "tests/kernel/user_helpers.h"
#include "kernel/ktest.h"
#include "kernel/user/process.h"
#include "kernel/user/initramfs.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/deferred.h"
#include "kernel/sched/sched.h"
#include "kernel/time/ktime.h"
#include "tests/kernel/sched_helpers.h"
#include "lib/string.h"

#define MAX_ARGS 8

/* have_program - skip the test when name is not in the initramfs. */
bool user_have_program(struct ktest *t, const char *name)
{
	const void *data;
	size_t size;

	if (initramfs_find(name, &data, &size)) {
		ktest_skip(t, "no initramfs or no user program (boot with -initrd)");
		return false;
	}
	return true;
}

/* spawn - start "name arg..." (a space-separated line, split in
 * place); NULL on error (a failed expectation). */
struct process *user_spawn(struct ktest *t, char *line)
{
	char *argv[MAX_ARGS];
	int argc = 0, err = 0;
	struct process *p;

	for (char *s = line; *s && argc < MAX_ARGS;) {
		argv[argc++] = s;
		while (*s && *s != ' ')
			s++;
		while (*s == ' ')
			*s++ = '\0';
	}
	p = process_spawn(argc, argv, &err);
	KTEST_EXPECT(t, p, "process_spawn(%s): %d", argv[0], err);
	return p;
}

/* run - spawn line, wait, return the wait status (-1: no process). */
int user_run(struct ktest *t, const char *cmd)
{
	char line[128];
	struct process *p;
	int status;

	strscpy(line, cmd, sizeof(line));
	p = user_spawn(t, line);
	if (!p)
		return -1;
	status = process_wait(p);
	process_put(p);
	return status;
}

void user_count_exiting(struct task_struct *p, void *arg)
{
	if (READ_ONCE(p->state) == TASK_DEAD || (READ_ONCE(p->flags) & PF_EXITING))
		(*(int *)arg)++;
}

/*
 * exits_settled - wait until no exited thread is still on its way out,
 * then flush the delayed releases.  process_wait() returns when the
 * last thread has completed `exited`, before its final switch: the
 * mm's last reference (mmdrop_delayed in finish_task_switch) and the
 * task itself go after that, on the thread's CPU:
 *
 *	CPU0 (test)			CPU1 (exiting thread)
 *	process_wait() returns		complete_all(&exited)
 *	deferred_flush(): nothing yet	... task_exit, final switch
 *	count mms: one too many		mmdrop_delayed(mm): queued now
 *
 * So it polls until no task is PF_EXITING (set at do_exit's [0], before
 * the wake-up: kernel/user/exit.c) or TASK_DEAD, and none is between
 * unlisting and freeing; the poll is bounded by a hang guard only.
 */
void user_exits_settled(void)
{
	u64 end = ktime_get_ns() + SAFETY_NS;

	for (;;) {
		int n = 0;

		sched_for_each_task(user_count_exiting, &n);
		if ((!n && !sched_nr_tasks_reaping()) || ktime_get_ns() > end)
			break;
		msleep(1);
	}
	deferred_flush();
}

/* snap - memory once every exited task and delayed release is gone. */
void user_snap(struct mem_snap *s)
{
	unsigned long slab_pages;

	user_exits_settled();
	free_dead_stacks();
	slab_drain_all();
	kmem_cache_totals(&s->objs, &slab_pages);
	s->pages = pmm_nr_free_pages() + slab_pages;
	s->mms = mm_count_live();
}

/* expect_pages_back - free+slab pages and slab objects as in a (b: the
 * snapshot taken now). */
void user_expect_pages_back(struct ktest *t, const struct mem_snap *a,
			      struct mem_snap *b)
{
	user_snap(b);
	KTEST_EXPECT(t, b->pages == a->pages, "free+slab pages back to %lu, saw %lu",
		     a->pages, b->pages);
	KTEST_EXPECT(t, b->objs == a->objs, "slab objects back to %lu, saw %lu",
		     a->objs, b->objs);
}

void user_expect_same(struct ktest *t, const struct mem_snap *a)
{
	struct mem_snap b;

	user_expect_pages_back(t, a, &b);
	KTEST_EXPECT(t, b.mms == a->mms, "mm_structs back to %d, saw %d",
		     a->mms, b.mms);
}

/* expect_exit_zero - run the test program name (no arguments), which
 * exits with its count of failed checks; the case skips when it is not
 * in the initramfs (have_program does not return then). */
void user_expect_exit_zero(struct ktest *t, const char *name)
{
	int status;

	if (!user_have_program(t, name))
		return;
	status = user_run(t, name);
	KTEST_EXPECT(t, status == 0, "%s: expected exit 0, got status %#x "
		     "(exit code = failed checks, listed above)", name, status);
}

