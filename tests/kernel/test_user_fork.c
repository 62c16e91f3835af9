/*
 * tests/kernel/test_user_fork.c - fork, the process tree, wait4 and
 * pipes (kernel/user/fork.c, process_tree.c, wait.c, kernel/mm/
 * dup_mmap.c, kernel/fs/pipe.c), driven from ring 3 by
 * user/tests/t_fork.c and t_pipe.c (their headers list every check),
 * and the kernel's memory, tasks and kernel stacks afterwards.
 *
 * Scenario of the first two cases: [1] a warm-up run fills the slab
 * caches; [2] a snapshot of free + slab pages, slab objects and live
 * mm_structs once every exited task is gone, and of the kernel stacks
 * and user-thread charge; [3] the program again must exit 0 (its exit
 * code is its failed checks, each printed with what it expected and
 * saw); [4] the same figures must be back: every child's copied
 * address space, fd table, fs_struct, process and task, every zombie
 * reaped, the orphaned grandchild freed by nobody's wait4, every pipe.
 *
 * The fork bomb case: `t_fork bomb` forks children that block on a
 * pipe until a fork is refused; the test waits for the refusal (the
 * bomb's nr_refused, not a time), checks the kernel still makes a
 * kthread (KSTACK_KERNEL_RESERVE), then kills one child, which lets the
 * bomb close the pipe and reap them all; everything must come back.
 */
#include "tests/kernel/user_helpers.h"
#include "tests/kernel/sched_helpers.h"
#include "kernel/ktest.h"
#include "kernel/user/process.h"
#include "kernel/user/process_tree.h"
#include "kernel/user/rlimit.h"
#include "kernel/mm/kstack.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/time/ktime.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

struct fork_snap {
	struct mem_snap mem;
	unsigned int stacks;
	int charged, live;
};

static void fork_snap(struct fork_snap *s)
{
	user_snap(&s->mem);
	free_dead_stacks();
	s->stacks = kstack_nr_in_use();
	s->charged = user_threads_charged();
	s->live = process_count_live();
}

static void fork_expect_same(struct ktest *t, const struct fork_snap *a)
{
	struct fork_snap b;

	user_expect_same(t, &a->mem);
	fork_snap(&b);
	KTEST_EXPECT(t, b.stacks == a->stacks, "kernel stacks: expected %u, "
		     "saw %u", a->stacks, b.stacks);
	KTEST_EXPECT(t, b.charged == a->charged, "user threads charged: "
		     "expected %d, saw %d", a->charged, b.charged);
	KTEST_EXPECT(t, b.live == a->live, "live processes: expected %d, "
		     "saw %d", a->live, b.live);
}

static void run_leak_checked(struct ktest *t, const char *name)
{
	struct fork_snap before;

	if (!user_have_program(t, name))
		return;
	user_run(t, name);					/* [1] */
	fork_snap(&before);					/* [2] */
	user_expect_exit_zero(t, name);				/* [3] */
	fork_expect_same(t, &before);				/* [4] */
}

static void test_user_fork_wait4_and_the_tree_answer_as_linux_and_leak_nothing(
	struct ktest *t)
{
	run_leak_checked(t, "t_fork");
}

static void test_user_pipes_answer_as_linux_and_leak_nothing(struct ktest *t)
{
	run_leak_checked(t, "t_pipe");
}

static int nothing_fn(void *unused)
{
	return 0;
}

/* first_child_of - a live child of parent, with a reference, or NULL. */
static struct process *first_child_of(struct process *parent)
{
	struct process *c, *found = NULL;

	spin_lock(&process_tree_lock);
	list_for_each_entry(c, &parent->children, sibling)
		if (!c->zombie) {
			found = c;
			__atomic_fetch_add(&c->refcount, 1, __ATOMIC_RELAXED);
			break;
		}
	spin_unlock(&process_tree_lock);
	return found;
}

/* run_bomb - one `t_fork bomb` run with the checks of the header. */
static void run_bomb(struct ktest *t, const char *cmd)
{
	struct process *bomb, *victim;
	struct task_struct *k;
	char line[32];
	u64 end;
	int status;

	strscpy(line, cmd, sizeof(line));
	bomb = user_spawn(t, line);
	if (!bomb)
		return;
	end = ktime_get_ns() + SAFETY_NS * 12;
	while (!READ_ONCE(bomb->nr_refused) && ktime_get_ns() < end &&
	       READ_ONCE(bomb->nr_threads))
		msleep(1);
	KTEST_EXPECT(t, READ_ONCE(bomb->nr_refused), "the bomb was never "
		     "refused a fork (%d user threads)", user_threads_charged());
	pr_info("# fork bomb: refused at %d user threads (tree %d)\n",
		user_threads_charged(), READ_ONCE(bomb->tree_charged));
	KTEST_EXPECT(t, READ_ONCE(bomb->tree_charged) == PROCESS_THREADS_MAX ||
		     user_threads_charged() == USER_THREADS_MAX,
		     "refused below both limits: tree %d, total %d",
		     READ_ONCE(bomb->tree_charged), user_threads_charged());
	k = kthread_create(nothing_fn, NULL, "fork_bomb_survivor");
	KTEST_EXPECT(t, k, "kthread_create failed with %d user threads",
		     user_threads_charged());
	if (k) {
		get_task_struct(k);
		wake_up_process(k);
		kthread_stop(k);
		put_task_struct(k);
	}
	victim = first_child_of(bomb);
	KTEST_EXPECT(t, victim, "the bomb has no live child");
	if (victim) {
		KTEST_EXPECT_EQ(t, process_kill(victim->tgid), 0);
		process_put(victim);
	} else {
		process_kill(bomb->tgid);
	}
	status = process_wait(bomb);
	KTEST_EXPECT(t, status == 0, "t_fork bomb: expected exit 0, got "
		     "status %#x", status);
	process_put(bomb);
}

/* The first run is the warm-up ([1] above: slab caches grown to 512
 * processes' worth); the second must give everything back. */
static void test_user_fork_bomb_is_refused_and_leaves_the_kernel_usable(
	struct ktest *t)
{
	struct fork_snap before;

	if (!user_have_program(t, "t_fork"))
		return;
	run_bomb(t, "t_fork bomb unlimited");
	fork_snap(&before);
	run_bomb(t, "t_fork bomb");
	run_bomb(t, "t_fork bomb unlimited");
	fork_expect_same(t, &before);
}

KTEST_SUITE(user_fork,
	    KTEST_CASE(test_user_fork_wait4_and_the_tree_answer_as_linux_and_leak_nothing),
	    KTEST_CASE(test_user_pipes_answer_as_linux_and_leak_nothing),
	    KTEST_CASE(test_user_fork_bomb_is_refused_and_leaves_the_kernel_usable));
