/*
 * kernel/workloads/pidemo.c - the priority-inversion demo (pidemo.h).
 * The lock without PI is a compat_semaphore with count 1, used as a
 * binary lock (kernel/locking/semaphore.h: under every model a counting
 * semaphore on a wait queue; waiters sleep, the holder is never
 * boosted: the article's non-PI semaphore under rt).
 */
#include "kernel/workloads/pidemo.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/locking/semaphore.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/time/ktime.h"
#include "lib/errno.h"
#include "lib/bug.h"

/* A gap longer than this between two clock reads means A was preempted:
 * one loop pass is well under a microsecond, a tick interrupt a few. */
#define PIDEMO_GAP_NS 20000

struct pidemo {
	bool pi;
	struct rt_mutex pi_lock;
	struct compat_semaphore nopi;	/* count 1: a binary lock */
	s64 section_ns, b_ns;
	struct task_struct *a, *b, *c;
	ktime_t c_asked, c_got;		/* C's lock request and grant */
	struct completion c_done, b_done, a_done;
};

/* pidemo_lock / pidemo_unlock - the demo's lock, with or without PI.
 * Context: task, may sleep (pidemo-A and pidemo-C).  Locking: takes /
 * drops d->pi_lock or d->nopi. */
static void pidemo_lock(struct pidemo *d)
{
	might_sleep();
	if (d->pi)
		rt_mutex_lock(&d->pi_lock);
	else
		down(&d->nopi);
}

static void pidemo_unlock(struct pidemo *d)
{
	if (d->pi)
		rt_mutex_unlock(&d->pi_lock);
	else
		up(&d->nopi);
}

/* Spin for ns of our own CPU time: stretches spent preempted do not
 * count, so A's section is work, not wall-clock time. */
static void pidemo_work(s64 ns)
{
	ktime_t prev = ktime_get(), now;
	s64 done = 0;

	while (done < ns) {
		now = ktime_get();
		if (now - prev < PIDEMO_GAP_NS)
			done += now - prev;
		prev = now;
		cpu_relax();
	}
}

static int pidemo_c(void *data)
{
	struct pidemo *d = data;

	d->c_asked = ktime_get();
	pidemo_lock(d);
	d->c_got = ktime_get();
	pidemo_unlock(d);
	complete(&d->c_done);
	return 0;
}

static int pidemo_b(void *data)
{
	struct pidemo *d = data;
	ktime_t end = ktime_get() + d->b_ns;

	while (ktime_get() < end)	/* CPU-bound, no lock */
		cpu_relax();
	complete(&d->b_done);
	return 0;
}

/* [1] take the lock [2] wake C: it preempts us and blocks on the lock
 * [3] wake B: it preempts us unless C's boost holds it off [4] work,
 * release. */
static int pidemo_a(void *data)
{
	struct pidemo *d = data;

	pidemo_lock(d);					/* [1] */
	wake_up_process(d->c);				/* [2] */
	wake_up_process(d->b);				/* [3] */
	pidemo_work(d->section_ns);			/* [4] */
	pidemo_unlock(d);
	complete(&d->a_done);
	return 0;
}

/* pidemo_thread - a created, not started thread with a reference of
 * ours (dropped by pidemo_reap), or NULL. */
static struct task_struct *pidemo_thread(int (*fn)(void *), struct pidemo *d,
					 const char *name, int fifo, int cpu)
{
	struct sched_param sp = { .sched_priority = fifo };
	struct task_struct *p = kthread_create(fn, d, "%s", name);

	if (!p)
		return NULL;
	get_task_struct(p);
	kthread_bind(p, cpu);
	sched_setscheduler(p, SCHED_FIFO, &sp);
	return p;
}

/*
 * pidemo_reap - wait until each thread has exited and drop our
 * reference; a thread never woken is stopped unstarted.  Needed before
 * the next run re-initialises the static struct pidemo: the thread that
 * completed last may still be inside complete() on its own CPU when our
 * wait returns, and init_completion() under it would corrupt the
 * completion's lock.
 * Context: task, sleeps.
 */
static void pidemo_reap(struct pidemo *d)
{
	struct task_struct *t[3] = { d->a, d->b, d->c };

	for (int i = 0; i < 3; i++) {
		if (!t[i])
			continue;
		kthread_stop(t[i]);
		put_task_struct(t[i]);
	}
}

s64 pidemo_run(bool pi, int cpu, s64 section_ns, s64 b_ns)
{
	static struct pidemo d;		/* one demo at a time (the shell) */

	might_sleep();
	d.pi = pi;
	rt_mutex_init(&d.pi_lock);
	sema_init(&d.nopi, 1);
	d.section_ns = section_ns;
	d.b_ns = b_ns;
	init_completion(&d.a_done);
	init_completion(&d.b_done);
	init_completion(&d.c_done);
	d.a = pidemo_thread(pidemo_a, &d, "pidemo-A", 10, cpu);
	d.b = pidemo_thread(pidemo_b, &d, "pidemo-B", 20, cpu);
	d.c = pidemo_thread(pidemo_c, &d, "pidemo-C", 30, cpu);
	if (!d.a || !d.b || !d.c) {
		pidemo_reap(&d);	/* never woken: stopped unstarted */
		return -ENOMEM;
	}
	wake_up_process(d.a);
	wait_for_completion(&d.a_done);
	wait_for_completion(&d.b_done);
	wait_for_completion(&d.c_done);
	pidemo_reap(&d);
	rt_mutex_destroy(&d.pi_lock);
	return d.c_got - d.c_asked;
}
