/*
 * tests/kernel/rtmutex_actor.c - the actors of the rtmutex suite (API and
 * why: rtmutex_actor.h).
 */
#include "tests/kernel/rtmutex_actor.h"
#include "kernel/sched/kthread.h"

static int actor_fn(void *data)
{
	struct actor *a = data;

	for (;;) {
		wait_for_completion(&a->go);
		switch (a->op) {
		case OP_LOCK:
			rt_mutex_lock(a->lock);
			a->result = 0;
			break;
		case OP_LOCK_INTR:
			a->result = rt_mutex_lock_interruptible(a->lock);
			break;
		case OP_TIMED:
			a->result = rt_mutex_timed_lock(a->lock, a->arg);
			break;
		case OP_TRYLOCK:
			a->result = rt_mutex_trylock(a->lock);
			break;
		case OP_UNLOCK:
			rt_mutex_unlock(a->lock);
			a->result = 0;
			break;
		case OP_EXIT:
			complete(&a->done);
			return 0;
		}
		complete(&a->done);
	}
}

/* actor_start - fifo 0: SCHED_OTHER; cpu < 0: not pinned. */
void actor_start(struct ktest *t, struct actor *a, const char *name,
			int fifo, int cpu)
{
	struct sched_param sp = { .sched_priority = fifo };

	init_completion(&a->go);
	init_completion(&a->done);
	a->task = kthread_create(actor_fn, a, "%s", name);
	KTEST_ASSERT(t, a->task != NULL, "kthread_create(%s) failed", name);
	get_task_struct(a->task);
	if (cpu >= 0)
		kthread_bind(a->task, cpu);
	if (fifo)
		sched_setscheduler(a->task, SCHED_FIFO, &sp);
	wake_up_process(a->task);
}

void actor_post(struct actor *a, enum actor_op op,
		       struct rt_mutex *lock, s64 arg)
{
	a->op = op;
	a->lock = lock;
	a->arg = arg;
	complete(&a->go);
}

/* actor_result - wait for the posted command to finish; -ESRCH-like
 * sentinel 1000 when it did not within WAIT_NS. */
int actor_result(struct actor *a)
{
	if (wait_for_completion_timeout(&a->done, WAIT_NS) <= 0)
		return 1000;
	return a->result;
}

int actor_do(struct actor *a, enum actor_op op, struct rt_mutex *lock)
{
	actor_post(a, op, lock, -1);
	return actor_result(a);
}

void actor_stop(struct actor *a)
{
	actor_post(a, OP_EXIT, NULL, 0);
	actor_result(a);
	kthread_stop(a->task);
	put_task_struct(a->task);
}

/* Wait until p sleeps blocked on lock (its chain walk is over then: the
 * walk runs before schedule()). */
bool wait_blocked_on(struct task_struct *p, struct rt_mutex *lock)
{
	ktime_t end = ktime_get() + WAIT_NS;

	while (ktime_get() < end) {
		struct rt_mutex_waiter *w = READ_ONCE(p->pi_blocked_on);

		/* off the run queue too: a waiter preempted inside its chain
		 * walk (state already set, not on a CPU) has not finished
		 * blocking -- its boost or deadlock report may still come */
		if (w && w->lock == lock && READ_ONCE(p->state) != TASK_RUNNING &&
		    !READ_ONCE(p->on_cpu) && !READ_ONCE(p->on_rq))
			return true;
		schedule();
	}
	return false;
}
