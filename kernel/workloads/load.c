/*
 * kernel/workloads/load.c - the background loads (see load.h).
 *
 * A load is a set of kthreads sharing one struct load: the hogs share
 * one lock (so under none/voluntary/desktop the waiter spins with
 * preemption off on its CPU too, and under rt it sleeps on the rt_mutex
 * behind spinlock_t), hackbench threads share per-receiver channels, the
 * irq load has an hrtimer firing in hard-irq context that wakes its
 * SCHED_FIFO handler thread (a self-contained "threaded interrupt": the
 * LAPIC timer vector is the device, the thread is its handler).
 *
 * The table of loads is touched by the shell only (one caller, no lock);
 * the threads write their own counters, the listing reads them racily.
 * Linux counterpart: none (rt-tests' hackbench, stress-style loads).
 */
#include "kernel/workloads/load.h"
#include "kernel/workloads/load_chan.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/lock_break.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/wait.h"
#include "kernel/time/hrtimer.h"
#include "kernel/mm/slab.h"
#include "kernel/irqflags.h"
#include "kernel/irq/irq_model.h"	/* IRQ_THREAD_PRIO: as an irq thread */
#include "kernel/smp.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"
#include "lib/bug.h"

#define IRQ_WORK_US 10		/* the handler thread's work per interrupt */
#define CPU_CHUNK_US 1000	/* `load cpu`: busy time between points */
#define CPU_CALIBRATE_STEP 10000 /* turns between clock reads, counting */

static const char *const kind_names[NR_LOAD_KINDS] = {
	[LOAD_LOCKHOG] = "lockhog",	[LOAD_LOCKBREAK] = "lockbreak",
	[LOAD_RAWHOG] = "rawhog",
	[LOAD_IRQOFF] = "irqoff",	[LOAD_HACKBENCH] = "hackbench",
	[LOAD_IRQ] = "irq",		[LOAD_CPU] = "cpu",
};

struct load;

struct load_thread {
	struct load *load;
	struct task_struct *task;
	int idx;
	unsigned long events;		/* written by the thread only */
};

struct load {
	int id;
	enum load_kind kind;
	int n, us, nthreads;
	spinlock_t lock;		/* lockhog, lockbreak */
	raw_spinlock_t raw_lock;	/* rawhog */
	struct load_chan *chans;	/* hackbench: one per receiver */
	struct hrtimer timer;		/* irq */
	s64 period_ns;
	unsigned long fired;		/* irq: timer interrupts (hard irq) */
	ktime_t fired_at;		/* irq: last interrupt's time */
	s64 max_irq_to_thread_ns;	/* irq: written by the thread */
	bool stopping;
	struct load_thread th[];
};

static struct load *loads[LOAD_MAX];
static int next_id = 1;
static int next_cpu;			/* round-robin placement */

int load_kind_parse(const char *name)
{
	int k;

	for (k = 0; k < NR_LOAD_KINDS; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return -EINVAL;
}

const char *load_kind_name(enum load_kind kind)
{
	return kind < NR_LOAD_KINDS ? kind_names[kind] : "?";
}

/* busy_ns - burn ns of CPU on ktime (virtual time under -icount). */
static void busy_ns(s64 ns)
{
	ktime_t end = ktime_get() + ns;

	while (ktime_get() < end)
		arch_cpu_relax();
}

/*
 * lockbreak_section - lockhog's section as l->us steps of 1 µs under
 * l->lock, with a preemption point after each (article, "Priority
 * inheritance": the holder drops the lock when another task needs it).
 * The loop's only state is its step count, which needs no re-validation
 * after cond_resched_lock() dropped the lock.  A dropped lock does not
 * restart the section: the thread still does us µs of locked work.
 * Context: kthread, SCHED_OTHER, preemptible.  Locking: takes l->lock.
 */
static void lockbreak_section(struct load *l)
{
	might_sleep();
	spin_lock(&l->lock);
	for (int i = 0; i < l->us; i++) {
		busy_ns(NSEC_PER_USEC);
		cond_resched_lock(&l->lock);
	}
	spin_unlock(&l->lock);
}

/*
 * hog_fn - lockhog/lockbreak/rawhog/irqoff: [1] enter the section, [2] us µs of
 * busy work, [3] leave it, [4] a scheduling point (the only one under
 * none: the shell and the measuring threads get the CPU here).
 * Context: kthread, SCHED_OTHER.
 */
static int hog_fn(void *arg)
{
	struct load_thread *t = arg;
	struct load *l = t->load;
	s64 ns = (s64)l->us * NSEC_PER_USEC;
	unsigned long flags;

	while (!kthread_should_stop()) {
		switch (l->kind) {
		case LOAD_LOCKHOG:
			spin_lock(&l->lock);			/* [1] */
			busy_ns(ns);				/* [2] */
			spin_unlock(&l->lock);			/* [3] */
			break;
		case LOAD_LOCKBREAK:
			lockbreak_section(l);
			break;
		case LOAD_RAWHOG:
			raw_spin_lock(&l->raw_lock);
			busy_ns(ns);
			raw_spin_unlock(&l->raw_lock);
			break;
		default:
			local_irq_save(flags);
			busy_ns(ns);
			local_irq_restore(flags);
			break;
		}
		t->events++;
		_cond_resched();				/* [4] */
	}
	return 0;
}

/* spin_iters - n turns of an empty loop (the barrier keeps the compiler
 * from removing it): plain instructions, no clock read, no PAUSE. */
static void spin_iters(unsigned long n)
{
	while (n--)
		barrier();
}

/*
 * cpu_chunk_iters - how many spin_iters() turns take CPU_CHUNK_US on
 * this CPU now, counted once by reading the clock every
 * CPU_CALIBRATE_STEP turns for one chunk.  Context: kthread.
 */
static unsigned long cpu_chunk_iters(void)
{
	ktime_t end = ktime_get() + (s64)CPU_CHUNK_US * NSEC_PER_USEC;
	unsigned long iters = 0;

	do {
		spin_iters(CPU_CALIBRATE_STEP);
		iters += CPU_CALIBRATE_STEP;
	} while (ktime_get() < end);
	return iters;
}

/*
 * cpu_fn - `load cpu`: a plain busy loop, as a CPU hog (a shell's
 * `while :; do :; done`) is: chunks of about CPU_CHUNK_US of empty
 * turns, counted once at the start, with a scheduling point between
 * (the only one under none/voluntary).  No clock read and no PAUSE in
 * the loop: under QEMU TCG both RDTSC and PAUSE leave the translated
 * code and take the emulator's global lock (issue 14 counted about
 * 334,000 futex calls a second from the vCPU threads with them, 6,900
 * with Linux's shell spinner), so a loop doing them on every turn loads
 * the emulator and the other vCPU, not only its CPU, and is not the
 * CPU-bound load the name promises.  The other side of it: under
 * -icount, where QEMU runs the vCPUs round-robin on one thread, this
 * loop keeps that thread until its vCPU next leaves the translated code
 * (its own tick), so another vCPU's timer interrupt can wait up to a
 * tick: an emulator effect a Linux shell spinner has too
 * (docs/latency.md, "Honest measurement").
 * Context: kthread, SCHED_OTHER.
 */
static int cpu_fn(void *arg)
{
	struct load_thread *t = arg;
	unsigned long chunk = cpu_chunk_iters();

	while (!kthread_should_stop()) {
		spin_iters(chunk);
		t->events++;
		_cond_resched();
	}
	return 0;
}

/*
 * hackbench_fn - thread 2*G*g + i (i < G) is sender i of group g, thread
 * 2*G*g + G + i its receiver i; each sender sends one message to every
 * receiver of its group per round, as hackbench's senders write to every
 * receiver's pipe.  A full mailbox blocks the sender, an empty one the
 * receiver (kernel/workloads/load_chan.h).
 * Context: kthread, SCHED_OTHER; sleeps on the mailboxes.
 * Locking: none here; each mailbox's lock is load_chan's.
 */
static int hackbench_fn(void *arg)
{
	struct load_thread *t = arg;
	struct load *l = t->load;
	int group = t->idx / (2 * HACKBENCH_GROUP);
	int i = t->idx % (2 * HACKBENCH_GROUP);
	struct load_chan *mine = &l->chans[group * HACKBENCH_GROUP];
	u8 msg[LOAD_CHAN_MSG_BYTES];
	unsigned long cost = 0;	/* spin_iters() turns per message */
	int r;

	might_sleep();
	memset(msg, t->idx, sizeof(msg));
	if (l->us)
		cost = cpu_chunk_iters() / CPU_CHUNK_US * l->us;
	while (!kthread_should_stop()) {
		if (i >= HACKBENCH_GROUP) {		/* receiver */
			if (load_chan_recv(&mine[i - HACKBENCH_GROUP], msg))
				t->events++;
			_cond_resched();
			continue;
		}
		for (r = 0; r < HACKBENCH_GROUP; r++) {	/* sender */
			if (!load_chan_send(&mine[r], msg))
				break;			/* stopping */
			t->events++;
			/* `hackbench N US`: a message's own cost, like the
			 * two system calls and copies of a pipe; plain turns,
			 * no clock read or PAUSE (cpu_fn says why) */
			spin_iters(cost);
		}
		_cond_resched();
	}
	return 0;
}

/* load_irq_fn - the interrupt: Context: hard irq (the hrtimer). */
static enum hrtimer_restart load_irq_fn(struct hrtimer *timer)
{
	struct load *l = container_of(timer, struct load, timer);

	if (READ_ONCE(l->stopping))
		return HRTIMER_NORESTART;
	WRITE_ONCE(l->fired_at, ktime_get());
	WRITE_ONCE(l->fired, l->fired + 1);
	wake_up_process(l->th[0].task);
	timer->expires += l->period_ns;
	return HRTIMER_RESTART;
}

/*
 * irq_thread_fn - the threaded handler: [1] arm the source on our own
 * CPU, [2] sleep until it fires more often than we have handled,
 * [3] handle: record interrupt-to-thread time, do the work.
 * Context: kthread, SCHED_FIFO IRQ_THREAD_PRIO.
 */
static int irq_thread_fn(void *arg)
{
	struct load_thread *t = arg;
	struct load *l = t->load;

	hrtimer_start(&l->timer, ktime_get() + l->period_ns);	/* [1] */
	while (!kthread_should_stop()) {
		s64 d;

		set_current_state(TASK_INTERRUPTIBLE);		/* [2] */
		if (READ_ONCE(l->fired) == t->events &&
		    !kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
		if (READ_ONCE(l->fired) == t->events)
			continue;
		d = ktime_get() - READ_ONCE(l->fired_at);	/* [3] */
		if (d > l->max_irq_to_thread_ns)
			l->max_irq_to_thread_ns = d;
		t->events = READ_ONCE(l->fired);
		busy_ns((s64)IRQ_WORK_US * NSEC_PER_USEC);
	}
	return 0;
}

static void load_free(struct load *l)
{
	int i;

	WRITE_ONCE(l->stopping, true);
	if (l->kind == LOAD_IRQ)
		hrtimer_cancel(&l->timer);
	for (i = 0; i < l->nthreads; i++)
		if (l->th[i].task)
			kthread_stop(l->th[i].task);
	kfree(l->chans);
	kfree(l);
}

static int load_threads_for(enum load_kind kind, int n)
{
	switch (kind) {
	case LOAD_HACKBENCH:
		return n * 2 * HACKBENCH_GROUP;
	case LOAD_IRQ:
		return 1;
	default:
		return n;
	}
}

int load_max_n(enum load_kind kind)
{
	if (kind == LOAD_IRQ)
		return LOAD_IRQ_HZ_MAX;
	return LOAD_MAX_THREADS / load_threads_for(kind, 1);
}

/*
 * load_start - [1] check and allocate; [2] per-kind state; [3] create
 * each thread, pin it round-robin, set its policy, start it; [4] enter
 * it in the table.  Context: task (the shell), sleeps.
 */
int load_start(enum load_kind kind, int n, int us)
{
	int (*fn)(void *) = hog_fn;
	int i, slot, nth, ret = 0;
	struct load *l;

	might_sleep();
	if (kind >= NR_LOAD_KINDS || n < 1)			/* [1] */
		return -EINVAL;
	/* a hog needs a section; hackbench's per-message cost may be 0 */
	if (us < (kind <= LOAD_IRQOFF ? 1 : 0) || us > LOAD_US_MAX)
		return -EINVAL;
	if (n > load_max_n(kind))
		return -EINVAL;
	nth = load_threads_for(kind, n);
	for (slot = 0; slot < LOAD_MAX && loads[slot]; slot++)
		;
	if (slot == LOAD_MAX)
		return -EBUSY;
	l = kzalloc(sizeof(*l) + nth * sizeof(l->th[0]), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->kind = kind;
	l->n = n;
	l->us = us;
	l->nthreads = nth;
	spin_lock_init(&l->lock);				/* [2] */
	raw_spin_lock_init(&l->raw_lock);
	if (kind == LOAD_HACKBENCH) {
		l->chans = kzalloc(n * HACKBENCH_GROUP * sizeof(*l->chans),
				   GFP_KERNEL);
		if (!l->chans) {
			ret = -ENOMEM;
			goto out_free;
		}
		for (i = 0; i < n * HACKBENCH_GROUP; i++)
			load_chan_init(&l->chans[i]);
		fn = hackbench_fn;
	} else if (kind == LOAD_IRQ) {
		l->period_ns = NSEC_PER_SEC / n;
		hrtimer_init(&l->timer, load_irq_fn);
		fn = irq_thread_fn;
	} else if (kind == LOAD_CPU) {
		fn = cpu_fn;
	}

	for (i = 0; i < nth; i++) {				/* [3] */
		struct load_thread *t = &l->th[i];
		struct task_struct *p;

		t->load = l;
		t->idx = i;
		p = kthread_create(fn, t, "%s/%d", kind_names[kind], i);
		if (!p) {
			ret = -ENOMEM;
			goto out_free;
		}
		kthread_bind(p, nth_online_cpu(next_cpu++));
		if (kind == LOAD_IRQ) {
			struct sched_param sp = {
				.sched_priority = IRQ_THREAD_PRIO
			};

			ret = sched_setscheduler(p, SCHED_FIFO, &sp);
		}
		t->task = p;
		wake_up_process(p);
		if (ret)
			goto out_free;
	}
	l->id = next_id++;					/* [4] */
	loads[slot] = l;
	return l->id;

out_free:
	load_free(l);
	return ret;
}

int load_stop(int id)
{
	int slot, stopped = 0;

	might_sleep();
	for (slot = 0; slot < LOAD_MAX; slot++) {
		struct load *l = loads[slot];

		if (!l || (id && l->id != id))
			continue;
		loads[slot] = NULL;
		load_free(l);
		stopped++;
	}
	return stopped ? stopped : -ENOENT;
}

static long sum_events(const struct load *l)
{
	long sum = 0;
	int i;

	for (i = 0; i < l->nthreads; i++)
		sum += READ_ONCE(l->th[i].events);
	return sum;
}

void load_show(void (*emit)(void *ctx, const char *line), void *ctx)
{
	char line[128];
	int slot, len;

	for (slot = 0; slot < LOAD_MAX; slot++) {
		const struct load *l = loads[slot];

		if (!l)
			continue;
		len = scnprintf(line, sizeof(line), "%2d %-9s %6d", l->id,
				kind_names[l->kind], l->n);
		if (l->kind <= LOAD_IRQOFF ||
		    (l->kind == LOAD_HACKBENCH && l->us))
			len += scnprintf(line + len, sizeof(line) - len,
					 " %6dus", l->us);
		len += scnprintf(line + len, sizeof(line) - len,
				 "  threads %d  events %ld", l->nthreads,
				 sum_events(l));
		if (l->kind == LOAD_IRQ)
			scnprintf(line + len, sizeof(line) - len,
				  "  fired %lu  max irq->thread %lld us",
				  READ_ONCE(l->fired),
				  (long long)(l->max_irq_to_thread_ns /
					      NSEC_PER_USEC));
		emit(ctx, line);
	}
}

int load_count(void)
{
	int slot, n = 0;

	for (slot = 0; slot < LOAD_MAX; slot++)
		n += loads[slot] != NULL;
	return n;
}

long load_events(int id)
{
	int slot;

	for (slot = 0; slot < LOAD_MAX; slot++)
		if (loads[slot] && loads[slot]->id == id)
			return sum_events(loads[slot]);
	return -ENOENT;
}
