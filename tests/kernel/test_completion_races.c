/*
 * tests/kernel/test_completion_races.c - the completion_races suite:
 * completions and compat semaphores against the two races of issue 12,
 * bug 5, forced with race windows (kernel/debug/race_window.h); the
 * diagrams are at complete() in kernel/sched/completion.c and at
 * sem_release() in kernel/locking/semaphore.c.
 *
 * On-stack object (test_on_stack_{complete,complete_all,compat_up}).
 * Scenario (every model; needs 2 CPUs):
 *   W   the test task on CPU 0 calls stack_waiter(), whose frame holds a
 *       completion (or a compat_semaphore at 0) as Linux callers do:
 *       DECLARE_COMPLETION_ONSTACK, hand it over, wait, return.
 *   C   a kthread bound to CPU 1, SCHED_OTHER: complete() (complete_all(),
 *       compat_up()) on that object; parks in complete_wake_window
 *       (sem_release_window) after the change W can see.
 *   W sees the change, its wait returns at once, stack_waiter() returns;
 *   W calls stack_reuse(), whose frame covers the dead one, records the
 *   dead object's bytes with interrupts off (nothing of W writes there
 *   any more), lets C go and waits for C to finish.
 * Observable: the dead object's bytes are unchanged after C finished.
 * Before the fix C woke the queue after dropping its lock: it took and
 * released the dead object's wait-queue lock.
 *
 * Timed-out waiter (test_complete_timed_out_waiter_does_not_eat_wakeup).
 * Scenario (every model; needs 2 CPUs):
 *   A   a kthread bound to CPU 1, SCHED_OTHER:
 *       wait_for_completion_timeout(&x, 1 ms); its timeout expires and it
 *       parks in completion_timeout_window, still queued on x.
 *   B   a kthread bound to CPU 0, SCHED_OTHER: wait_for_completion(&x);
 *       the test waits until B sleeps.
 *   T   the test task on CPU 0: complete(&x) once, then releases A.
 * Observable: one complete() ends one wait: either A returns success
 * (it was given the completion) and B still sleeps with x.done 0, or A
 * returns 0 (timed out) and B was woken.  Before the fix the wake-up
 * went to A, A returned 0 anyway, and B slept with x.done == 1.
 */
#include "kernel/ktest.h"
#include "kernel/debug/race_window.h"
#include "kernel/locking/semaphore.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "arch/x86_64/arch.h"
#include "lib/string.h"

#define SAFETY_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */

enum stack_op { OP_COMPLETE, OP_COMPLETE_ALL, OP_COMPAT_UP };

/* The dead frame's object: the union first, so the padding above it
 * takes the saved registers of the next frame at the same depth. */
struct stack_object {
	union {
		struct completion done;
		struct compat_semaphore sem;
	};
	u8 pad[128];
};

/* Shared with C and between stack_waiter() and stack_reuse(); static so
 * that nothing but the object itself lives in the frames under test. */
static struct {
	enum stack_op op;
	void *obj;			/* the object in stack_waiter's frame */
	bool parked;			/* C parked in its window */
	int c_done;			/* C returned from its operation */
	struct race_window *window;
	u8 dead[sizeof(struct stack_object)];	/* bytes at the free */
	long changed;			/* first changed byte, -1: none */
	bool covered;			/* stack_reuse's frame covers obj */
	unsigned long flags;
} sr;

/* C: release the waiter, then say so. */
static int stack_completer_fn(void *data)
{
	(void)data;
	switch (sr.op) {
	case OP_COMPLETE:
		complete(sr.obj);
		break;
	case OP_COMPLETE_ALL:
		complete_all(sr.obj);
		break;
	case OP_COMPAT_UP:
		compat_up(sr.obj);
		break;
	}
	__atomic_store_n(&sr.c_done, 1, __ATOMIC_RELEASE);
	return 0;
}

/*
 * stack_waiter - W's function with the object on its stack: start C,
 * wait for it to park after its change, wait (returns at once), return:
 * the object's lifetime ends here.  false when C could not be created.
 */
static noinline bool stack_waiter(void)
{
	struct stack_object frame;
	struct task_struct *c;

	if (sr.op == OP_COMPAT_UP)
		compat_sema_init(&frame.sem, 0);
	else
		init_completion(&frame.done);
	sr.obj = &frame;
	c = kthread_create(stack_completer_fn, NULL, "stack-completer");
	if (!c)
		return false;
	kthread_bind(c, 1);
	sr.parked = race_window_run_until_parked(sr.window, c, SAFETY_NS);
	if (sr.op == OP_COMPAT_UP)
		compat_down(&frame.sem);
	else
		wait_for_completion(&frame.done);
	return true;
}

/*
 * stack_reuse - the next function at the same depth: its frame (the
 * array) lies over stack_waiter's dead one.  With interrupts off, record
 * the dead object, let C go, wait for C, compare.
 */
static noinline void stack_reuse(void)
{
	volatile u8 frame[1024];
	u64 end;

	raw_local_irq_save(sr.flags);
	frame[0] = 0;
	sr.covered = (uintptr_t)sr.obj >= (uintptr_t)frame &&
		     (uintptr_t)sr.obj + sizeof(struct stack_object) <=
			     (uintptr_t)frame + sizeof(frame);
	memcpy(sr.dead, sr.obj, sizeof(sr.dead));
	race_window_release(sr.window);
	end = ktime_get_ns() + SAFETY_NS;
	while (!__atomic_load_n(&sr.c_done, __ATOMIC_ACQUIRE) &&
	       ktime_get_ns() < end)
		arch_cpu_relax();
	sr.changed = -1;
	for (size_t i = 0; i < sizeof(sr.dead); i++) {
		if (((const u8 *)sr.obj)[i] != sr.dead[i]) {
			sr.changed = (long)i;
			break;
		}
	}
	raw_local_irq_restore(sr.flags);
}

static void run_on_stack_case(struct ktest *t, enum stack_op op,
			      struct race_window *window)
{
	static const char *const names[] = {
		[OP_COMPLETE] = "complete", [OP_COMPLETE_ALL] = "complete_all",
		[OP_COMPAT_UP] = "compat_up",
	};
	bool created;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the completer spins in its window "
			      "while the waiter returns");
	memset(&sr, 0, sizeof(sr));
	sr.op = op;
	sr.window = window;
	set_cpus_allowed(current, (cpumask_t){ .bits = 1ULL << 0 });
	created = stack_waiter();
	if (created)
		stack_reuse();
	else
		race_window_disarm(window);
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });

	KTEST_ASSERT(t, created, "kthread_create failed");
	KTEST_EXPECT(t, sr.parked, "%s parks in %s within %lld s", names[op],
		     window->name, SAFETY_NS / NSEC_PER_SEC);
	KTEST_EXPECT(t, sr.c_done, "%s returned", names[op]);
	KTEST_EXPECT(t, sr.covered, "the reusing frame covers the dead object "
		     "(object %p, stack layout changed?)", sr.obj);
	KTEST_EXPECT(t, sr.changed < 0,
		     "%s does not touch the object after its waiter returned; "
		     "byte %ld of the dead frame's %s changed (its wait-queue "
		     "lock is at %zu): the wake-up came after the unlock",
		     names[op], sr.changed,
		     op == OP_COMPAT_UP ? "compat_semaphore" : "completion",
		     op == OP_COMPAT_UP ?
			     offsetof(struct compat_semaphore, wait.lock) :
			     offsetof(struct completion, wait.lock));
}

static void test_on_stack_complete(struct ktest *t)
{
	run_on_stack_case(t, OP_COMPLETE, &complete_wake_window);
}

static void test_on_stack_complete_all(struct ktest *t)
{
	run_on_stack_case(t, OP_COMPLETE_ALL, &complete_wake_window);
}

static void test_on_stack_compat_up(struct ktest *t)
{
	run_on_stack_case(t, OP_COMPAT_UP, &sem_release_window);
}

/* ---- the timed-out waiter */
static struct completion tw_x, tw_a_done, tw_b_done;
static s64 tw_a_ret;

static int tw_a_fn(void *unused)
{
	(void)unused;
	tw_a_ret = wait_for_completion_timeout(&tw_x, NSEC_PER_MSEC);
	complete(&tw_a_done);
	return 0;
}

static int tw_b_fn(void *unused)
{
	(void)unused;
	wait_for_completion(&tw_x);
	complete(&tw_b_done);
	return 0;
}

static bool sleeping(struct task_struct *p)
{
	return READ_ONCE(p->state) == TASK_UNINTERRUPTIBLE &&
	       !READ_ONCE(p->on_rq);
}

static void test_complete_timed_out_waiter_does_not_eat_wakeup(struct ktest *t)
{
	struct task_struct *a, *b;
	bool parked, b_slept, b_woken;
	unsigned int done_after;
	ktime_t end;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the timed-out waiter spins in its "
			      "window while the other side runs");
	init_completion(&tw_x);
	init_completion(&tw_a_done);
	init_completion(&tw_b_done);
	set_cpus_allowed(current, (cpumask_t){ .bits = 1ULL << 0 });
	a = kthread_create(tw_a_fn, NULL, "tw-a");
	b = kthread_create(tw_b_fn, NULL, "tw-b");
	KTEST_ASSERT(t, a && b, "kthread_create failed");
	get_task_struct(b);
	kthread_bind(a, 1);
	kthread_bind(b, 0);
	parked = race_window_run_until_parked(&completion_timeout_window, a,
					      SAFETY_NS);
	wake_up_process(b);
	end = ktime_get() + SAFETY_NS;
	while (!sleeping(b) && ktime_get() < end)
		schedule();
	b_slept = sleeping(b);

	complete(&tw_x);
	race_window_release(&completion_timeout_window);
	wait_for_completion(&tw_a_done);
	b_woken = !sleeping(b);
	done_after = READ_ONCE(tw_x.done);
	if (!b_woken)
		complete(&tw_x);	/* let B go either way */
	wait_for_completion(&tw_b_done);
	put_task_struct(b);
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });

	KTEST_EXPECT(t, parked, "A parks in completion_timeout_window");
	KTEST_EXPECT(t, b_slept, "B sleeps on x before complete()");
	if (tw_a_ret > 0)
		KTEST_EXPECT(t, !b_woken && done_after == 0,
			     "A was given the completion: B still sleeps and "
			     "x.done is 0; saw B %s, x.done %u",
			     b_woken ? "woken" : "asleep", done_after);
	else
		KTEST_EXPECT(t, b_woken,
			     "A timed out without the completion, so B is "
			     "woken; saw B asleep with x.done %u: A's expired "
			     "wait consumed complete()'s only wake-up",
			     done_after);
}

KTEST_SUITE(completion_races,
	    KTEST_CASE(test_on_stack_complete),
	    KTEST_CASE(test_on_stack_complete_all),
	    KTEST_CASE(test_on_stack_compat_up),
	    KTEST_CASE(test_complete_timed_out_waiter_does_not_eat_wakeup));
