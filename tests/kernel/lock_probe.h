/*
 * tests/kernel/lock_probe.h - a one-shot helper thread for the lock
 * suites (rwlock, semaphore, percpu_locked): run fn(arg) in a new
 * kthread, optionally pinned and SCHED_FIFO, and wait for its result,
 * or poll until it is seen blocked.
 *
 * The waiting side may hold a spinning lock (preemption off): then it
 * polls with cpu_relax() and the probe must run on another CPU; a
 * preemptible waiter polls with schedule().
 */
#ifndef TESTS_KERNEL_LOCK_PROBE_H
#define TESTS_KERNEL_LOCK_PROBE_H

#include "kernel/ktest.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/time/ktime.h"
#include "tests/kernel/sched_helpers.h"

#define PROBE_WAIT_NS (3 * NSEC_PER_SEC)
#define PROBE_FIFO(p) (MAX_RT_PRIO - 1 - (p))
#define PROBE_TIMEOUT 1000	/* result when the probe did not finish */

struct probe {
	int (*fn)(void *arg);
	void *arg;
	struct task_struct *task;
	int result;
	bool done;
};

static inline int probe_thread(void *data)
{
	struct probe *p = data;

	p->result = p->fn(p->arg);
	__atomic_store_n(&p->done, true, __ATOMIC_RELEASE);
	return 0;
}

/* probe_start - cpu < 0: not pinned; fifo 0: SCHED_OTHER.
 * Context: task, may sleep (not with a spinning lock held). */
static inline void probe_start(struct ktest *t, struct probe *p,
			       int (*fn)(void *), void *arg, int cpu, int fifo)
{
	struct sched_param sp = { .sched_priority = fifo };

	p->fn = fn;
	p->arg = arg;
	p->done = false;
	p->result = PROBE_TIMEOUT;
	p->task = kthread_create(probe_thread, p, "probe");
	KTEST_ASSERT(t, p->task != NULL, "kthread_create failed");
	get_task_struct(p->task);
	if (cpu >= 0)
		kthread_bind(p->task, cpu);
	if (fifo)
		sched_setscheduler(p->task, SCHED_FIFO, &sp);
}

static inline void probe_poll_pause(void)
{
	if (preemptible())
		schedule();
	else
		cpu_relax();
}

/* probe_wait - its result, or PROBE_TIMEOUT. */
static inline int probe_wait(struct probe *p)
{
	ktime_t end = ktime_get() + PROBE_WAIT_NS;

	while (!__atomic_load_n(&p->done, __ATOMIC_ACQUIRE)) {
		if (ktime_get() > end)
			return PROBE_TIMEOUT;
		probe_poll_pause();
	}
	return p->result;
}

/* probe_blocked - poll until the probe sleeps (not runnable, off CPU). */
static inline bool probe_blocked(struct probe *p)
{
	ktime_t end = ktime_get() + PROBE_WAIT_NS;

	while (ktime_get() < end) {
		if (READ_ONCE(p->task->state) != TASK_RUNNING &&
		    !READ_ONCE(p->task->on_cpu))
			return true;
		probe_poll_pause();
	}
	return false;
}

/* probe_end - wait for it to finish and drop it. */
static inline int probe_end(struct probe *p)
{
	int r = probe_wait(p);

	kthread_stop(p->task);
	put_task_struct(p->task);
	return r;
}

/* probe_run - start, wake, and wait for the result. */
static inline int probe_run(struct ktest *t, struct probe *p,
			    int (*fn)(void *), void *arg, int cpu)
{
	probe_start(t, p, fn, arg, cpu, 0);
	wake_up_process(p->task);
	return probe_end(p);
}

/* probe_other_cpu - a CPU other than this one, or -1 on one CPU.  Pins
 * the caller here (pin_here), so that "other" stays true until the case
 * ends (the ktest runner unpins). */
static inline int probe_other_cpu(void)
{
	return num_online_cpus() > 1 ? (pin_here() + 1) % num_online_cpus()
				     : -1;
}

#endif /* TESTS_KERNEL_LOCK_PROBE_H */
