/*
 * kernel/workloads/bench_lock.c - the locking and allocator figures of the
 * bench (kernel/workloads/bench.h).  Every sample is a TSC difference.
 *
 *	raw_spinlock, spinlock, rt_mutex, semaphore, rwlock-read/-write
 *		one uncontended lock + unlock pair per sample, the two clock
 *		reads included (tsc-read is their cost).  spinlock_t is the
 *		rt_mutex fast path under rt, the raw lock otherwise; the
 *		semaphore is a PI rt_mutex under rt, a counting one otherwise
 *	handoff-raw_spinlock, handoff-spinlock
 *		[1] the runner on CPU K holds L and lets B (FIFO 50, CPU W)
 *		    go; [2] it waits until B is really waiting (a second
 *		    ticket taken on the raw lock; B blocked on the rt_mutex
 *		    under rt); [3] it stamps t0 and unlocks; [4] B's first
 *		    act on getting L is t1: sample = t1 - t0 (under rt that
 *		    includes waking B on its idle CPU)
 *	pi-boost-D	T0 holds L0, Ti holds Li and waits for L(i-1), i < D;
 *		TD waits for L(D-1).  Per sample, one sched_setscheduler() on
 *		TD, alternating FIFO 50/51, which walks the whole chain
 *		(rt_mutex_adjust_pi) and re-prioritises every owner
 *	kmalloc-kfree-64	kmalloc(64, GFP_KERNEL) + kfree per sample
 * Linux counterpart: lock_torture, rt-tests' pi_stress; none in-tree.
 */
#include "kernel/workloads/bench_figure.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/locking/rwlock.h"
#include "kernel/locking/semaphore.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/wait.h"
#include "lib/vsnprintf.h"
#include "kernel/time/ktime.h"
#include "kernel/smp.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"


#define BENCH_PI_MAX_DEPTH 32
/* [2] bound on waiting for the contender, only against one that never
 * arrives: 100 ms was hit when the host itself stalled a vCPU that long
 * (matrix runs on a 2-CPU host with load 8-12 showed 126 ms maxima) */
#define BENCH_WAIT_NS (2 * NSEC_PER_SEC)

static DEFINE_RAW_SPINLOCK(bench_raw);
static DEFINE_SPINLOCK(bench_spin);
static DEFINE_RT_MUTEX(bench_rtm);
static DEFINE_RWLOCK(bench_rw);

/* The uncontended figures below share one shape on purpose: each spells
 * its lock calls out inside the timed region, where a shared helper
 * would add an indirect call to every sample. */
int bench_raw_spinlock(int n, struct bench_result *res)
{
	for (int i = 0; i < n; i++) {
		u64 t0 = arch_clock_cycles();

		raw_spin_lock(&bench_raw);
		raw_spin_unlock(&bench_raw);
		bench_samples[i] = arch_clock_cycles() - t0;
	}
	return n;
}

int bench_spinlock(int n, struct bench_result *res)
{
	for (int i = 0; i < n; i++) {
		u64 t0 = arch_clock_cycles();

		spin_lock(&bench_spin);
		spin_unlock(&bench_spin);
		bench_samples[i] = arch_clock_cycles() - t0;
	}
	res->note = SPINLOCK_SLEEPS ? "rt_mutex based" : "the raw lock";
	return n;
}

int bench_rt_mutex(int n, struct bench_result *res)
{
	for (int i = 0; i < n; i++) {
		u64 t0 = arch_clock_cycles();

		rt_mutex_lock(&bench_rtm);
		rt_mutex_unlock(&bench_rtm);
		bench_samples[i] = arch_clock_cycles() - t0;
	}
	return n;
}

int bench_semaphore(int n, struct bench_result *res)
{
	static struct semaphore sem;

	sema_init(&sem, 1);
	for (int i = 0; i < n; i++) {
		u64 t0 = arch_clock_cycles();

		down(&sem);
		up(&sem);
		bench_samples[i] = arch_clock_cycles() - t0;
	}
	res->note = SPINLOCK_SLEEPS ? "down/up: rt_mutex (PI)"
				    : "down/up: counting semaphore";
	return n;
}

int bench_rwlock_read(int n, struct bench_result *res)
{
	for (int i = 0; i < n; i++) {
		u64 t0 = arch_clock_cycles();

		read_lock(&bench_rw);
		read_unlock(&bench_rw);
		bench_samples[i] = arch_clock_cycles() - t0;
	}
	return n;
}

int bench_rwlock_write(int n, struct bench_result *res)
{
	for (int i = 0; i < n; i++) {
		u64 t0 = arch_clock_cycles();

		write_lock(&bench_rw);
		write_unlock(&bench_rw);
		bench_samples[i] = arch_clock_cycles() - t0;
	}
	return n;
}

/* ---- contended hand-off between two CPUs ---- */

struct handoff {
	bool raw;		/* bench_raw, else bench_spin */
	int n;
	volatile int go;	/* round B may contend in */
	volatile int trying;	/* round B is about to lock in */
	volatile int got;	/* round B got the lock in */
	volatile u64 t0;	/* [3] stamp before the unlock */
	struct task_struct *b;
	struct completion done;
};

static void handoff_lock(struct handoff *h)
{
	if (h->raw)
		raw_spin_lock(&bench_raw);
	else
		spin_lock(&bench_spin);
}

static void handoff_unlock(struct handoff *h)
{
	if (h->raw)
		raw_spin_unlock(&bench_raw);
	else
		spin_unlock(&bench_spin);
}

/* raw_waiter - a second ticket is out: someone spins behind the holder */
static bool raw_waiter(raw_spinlock_t *l)
{
	u16 next = __atomic_load_n(&l->next, __ATOMIC_ACQUIRE);
	u16 owner = __atomic_load_n(&l->owner, __ATOMIC_ACQUIRE);

	return (u16)(next - owner) >= 2;
}

/* handoff_has_waiter - [2] is B waiting for the lock the runner holds?
 * The one place that looks inside spinlock_t per model. */
static bool handoff_has_waiter(struct handoff *h)
{
	if (h->raw)
		return raw_waiter(&bench_raw);
#if SPINLOCK_SLEEPS
	return READ_ONCE(h->b->pi_blocked_on) != NULL &&
	       !__atomic_load_n(&h->b->on_cpu, __ATOMIC_ACQUIRE);
#else
	return raw_waiter(&bench_spin.rlock);
#endif
}

static int handoff_b_fn(void *arg)
{
	struct handoff *h = arg;

	for (int i = 1; i <= h->n; i++) {
		while (READ_ONCE(h->go) != i)
			arch_cpu_relax();
		WRITE_ONCE(h->trying, i);
		handoff_lock(h);
		bench_samples[i - 1] = arch_clock_cycles() - h->t0;	/* [4] */
		handoff_unlock(h);
		__atomic_store_n(&h->got, i, __ATOMIC_RELEASE);
	}
	complete(&h->done);
	return 0;
}

static int bench_handoff(bool raw, int n, struct bench_result *res)
{
	static struct handoff h;
	int w = bench_other_cpu(raw_smp_processor_id()), i, late = 0;

	memset(&h, 0, sizeof(h));
	h.raw = raw;
	h.n = n;
	init_completion(&h.done);
	h.b = kthread_create(handoff_b_fn, &h, "bench-handoff");
	if (!h.b)
		return -ENOMEM;
	kthread_bind(h.b, w);
	bench_set_fifo(h.b, 50);
	get_task_struct(h.b);
	wake_up_process(h.b);
	for (i = 1; i <= n; i++) {
		ktime_t end;

		handoff_lock(&h);				/* [1] */
		WRITE_ONCE(h.go, i);
		end = ktime_get() + BENCH_WAIT_NS;
		while ((READ_ONCE(h.trying) != i || !handoff_has_waiter(&h)) &&
		       ktime_get() < end)			/* [2] */
			arch_cpu_relax();
		if (ktime_get() >= end)
			late++;
		h.t0 = arch_clock_cycles();			/* [3] */
		handoff_unlock(&h);
		while (__atomic_load_n(&h.got, __ATOMIC_ACQUIRE) != i)
			arch_cpu_relax();
	}
	wait_for_completion(&h.done);
	kthread_stop(h.b);
	put_task_struct(h.b);
	res->bad = late;	/* rounds B was not seen waiting in */
	res->note = raw ? "raw_spinlock_t, CPU K -> CPU W"
			: "spinlock_t, CPU K -> CPU W";
	return n;
}

int bench_handoff_raw(int n, struct bench_result *res)
{
	return bench_handoff(true, n, res);
}

int bench_handoff_spinlock(int n, struct bench_result *res)
{
	return bench_handoff(false, n, res);
}

/* ---- PI boost against chain length ---- */

struct pi_chain {
	int depth;
	struct rt_mutex locks[BENCH_PI_MAX_DEPTH];
	struct task_struct *tasks[BENCH_PI_MAX_DEPTH + 1];
	struct completion held;		/* task i holds lock i */
	struct completion release;	/* T0 may let go */
	struct completion done;		/* one per task at the end */
};

static struct pi_chain pi_chain;	/* one bench at a time (bench.c) */
/* one name, hence one lock-validator class, per chain level: task i
 * holds level i and takes level i - 1, an order that only looks like
 * recursion if all levels were one class (kernel/locking/lockdep.h) */
static char pi_chain_names[BENCH_PI_MAX_DEPTH][24];

static int pi_chain_fn(void *data)
{
	struct pi_chain *c = &pi_chain;
	int i = (int)(long)data;

	if (i < c->depth)
		rt_mutex_lock(&c->locks[i]);
	complete(&c->held);
	if (i == 0) {
		wait_for_completion(&c->release);
	} else {
		rt_mutex_lock(&c->locks[i - 1]);
		rt_mutex_unlock(&c->locks[i - 1]);
	}
	if (i < c->depth)
		rt_mutex_unlock(&c->locks[i]);
	complete(&c->done);
	return 0;
}

int bench_pi_chain(int depth, int n, struct bench_result *res)
{
	struct pi_chain *c = &pi_chain;
	struct sched_param sp;
	struct task_struct *top;
	int i, made = 0, rc = n;

	if (depth < 1 || depth > BENCH_PI_MAX_DEPTH)
		return -EINVAL;
	c->depth = depth;
	init_completion(&c->held);
	init_completion(&c->release);
	init_completion(&c->done);
	for (i = 0; i < depth; i++) {
		snprintf(pi_chain_names[i], sizeof(pi_chain_names[i]),
			 "pi_chain.locks[%d]", i);
		__rt_mutex_init(&c->locks[i], pi_chain_names[i], __FILE__,
				__LINE__);
	}
	for (i = 0; i <= depth; i++) {
		ktime_t end = ktime_get() + BENCH_WAIT_NS;

		c->tasks[i] = kthread_create(pi_chain_fn, (void *)(long)i,
					     "pibench/%d", i);
		if (!c->tasks[i]) {
			rc = -ENOMEM;
			goto out_release;
		}
		get_task_struct(c->tasks[i]);
		made++;
		wake_up_process(c->tasks[i]);
		wait_for_completion(&c->held);
		/* bounded: until it is really blocked on lock i - 1 */
		while (i > 0 && !READ_ONCE(c->tasks[i]->pi_blocked_on) &&
		       ktime_get() < end)
			msleep(1);
		if (i > 0 && !READ_ONCE(c->tasks[i]->pi_blocked_on))
			res->bad++;
	}
	top = c->tasks[depth];
	for (i = 0; i < n; i++) {
		u64 t0;

		sp.sched_priority = 50 + (i & 1);
		t0 = arch_clock_cycles();
		sched_setscheduler(top, SCHED_FIFO, &sp);
		bench_samples[i] = arch_clock_cycles() - t0;
	}
	/* the last call set FIFO 50 + ((n - 1) & 1): T0 must carry it */
	if (READ_ONCE(c->tasks[0]->prio) != MAX_RT_PRIO - 1 - (50 + ((n - 1) & 1)))
		res->bad++;
	sp.sched_priority = 0;
	sched_setscheduler(top, SCHED_OTHER, &sp);
	res->note = "sched_setscheduler on the chain's blocked end";
out_release:
	complete(&c->release);
	for (i = 0; i < made; i++)
		wait_for_completion(&c->done);
	for (i = 0; i < made; i++)
		put_task_struct(c->tasks[i]);
	return rc;
}

/* ---- kmalloc ---- */

int bench_kmalloc(int n, struct bench_result *res)
{
	for (int i = 0; i < n; i++) {
		u64 t0 = arch_clock_cycles();
		void *p = kmalloc(64, GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		kfree(p);
		bench_samples[i] = arch_clock_cycles() - t0;
	}
	return n;
}
