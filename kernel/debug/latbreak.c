/*
 * kernel/debug/latbreak.c - the per-stage breakdown of a cyclictest
 * wake-up (see latbreak.h for the stages and the hooks).
 *
 * The record: one per CPU, of the last hrtimer sleeper woken there.
 * Every stamp but the last two is written by this CPU's interrupts
 * with interrupts off; the sleeper stamps [6] itself and copies the
 * record with interrupts off in __latbreak_sample, so a stamp is never
 * torn.  A record is used only if it belongs to the sampling thread and
 * deadline, and its stamps are in order; otherwise (another sleeper's
 * timer fired on the CPU in between, or the wake-up went another way)
 * the sample counts as dropped, never as a wrong figure.
 *
 * The histograms: per CPU and stage, 1 µs buckets up to LB_HIST_US,
 * written only by that CPU's cyclictest thread (bound); allocated by the
 * first latbreak_on and never freed, so a hook that saw latbreak_enabled
 * late still writes valid memory.
 * Linux counterpart: none (see latbreak.h); the stamps are what the
 * irq_handler_entry/exit, hrtimer_expire_entry, sched_wakeup and
 * sched_switch tracepoints would show for the same wake-up.
 */
#include "kernel/debug/latbreak.h"
#include "kernel/irqflags.h"
#include "kernel/mm/slab.h"
#include "kernel/percpu.h"
#include "kernel/preempt_count.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "kernel/time/hrtimer.h"
#include "arch/x86_64/arch.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

#define LB_HIST_US 2000	/* buckets: 2 ms covers a loaded TCG wake-up's P99 */

struct latbreak_rec {
	/* this CPU's current interrupt (interrupts off) */
	u64 vector_cyc;		/* arch_handle_irq entry */
	u64 handler_cyc;	/* tick handler entry, beside handler_ns */
	ktime_t handler_ns;	/* the tick handler's ktime_get() */
	/* the last sleeper wake-up on this CPU */
	struct task_struct *task;	/* whose hrtimer fired */
	ktime_t expires;	/* its deadline */
	u64 stamp[LB_NR_STAGES];	/* cycles at the end of stage i */
	s64 delivery_ns;	/* [0]: deadline -> vector entry */
	bool resched_at_exit;	/* need_resched() when the handler returned */
	bool exit_refused;	/* irq_exit could not preempt: preempt_count
				 * or a soft irqs-off section (rt) */
	u8 sleeper_was;		/* LB_WAS_*: the sleeper when its timer fired */
};

enum { LB_WAS_ASLEEP, LB_WAS_CURRENT, LB_WAS_QUEUED, LB_NR_WAS };

struct latbreak_hist {
	u64 n;
	u64 sum_ns;
	u64 min_ns;
	u64 max_ns;
	u64 over;		/* samples >= LB_HIST_US */
	u32 bucket[LB_HIST_US];	/* samples of i µs */
};

struct latbreak_cpu_stats {
	struct latbreak_hist stage[LB_NR_STAGES];
	u64 dropped;		/* records that did not match the sample */
	u64 resched_at_exit;	/* samples woken with need_resched set */
	u64 exit_refused;	/* ... and the interrupted task not preemptible */
	u64 was[LB_NR_WAS];	/* the sleeper at expiry: off every queue,
				 * running here, or queued but not running */
	/* the timer events, checked by __latbreak_tick_entry */
	u64 events;		/* timer interrupts with an armed event */
	u64 armed_late;		/* armed after something was due: a bug */
	u64 armed_late_max_ns;
	u64 fired_early;	/* taken before the armed time */
	u64 delivered_late;	/* armed on time, taken >= 1 ms after due */
};

bool latbreak_enabled;
static DEFINE_PER_CPU(struct latbreak_rec, latbreak_recs);
static struct latbreak_cpu_stats *lb_stats;	/* [nr_cpu_ids], kept */

static const char *const stage_names[LB_NR_STAGES] = {
	[LB_DELIVERY] = "deadline -> irq vector entry",
	[LB_ENTRY] = "vector -> tick handler",
	[LB_TICK] = "tick handler -> hrtimer callback",
	[LB_WAKE] = "callback -> sleeper queued",
	[LB_QUEUE] = "woken -> next event programming",
	[LB_HANDLER] = "programming -> handler returns",
	[LB_SOFTIRQ] = "handler -> irq_exit preemption pt",
	[LB_SWITCH] = "preemption pt -> sleeper runs",
	[LB_CLOCK] = "sleeper runs -> clock read",
	[LB_TOTAL] = "total: deadline -> clock read",
};

/* cyc_to_ns - cycles of the clock counter in ns (split: no overflow). */
static u64 cyc_to_ns(u64 cyc)
{
	u64 hz = ktime_clock_hz();

	return cyc / hz * NSEC_PER_SEC + cyc % hz * NSEC_PER_SEC / hz;
}

void __latbreak_irq_vector(void)
{
	this_cpu_ptr(&latbreak_recs)->vector_cyc = arch_cycles();
}

/* ARMED_SLACK_NS: rounding in the ns -> timer-count conversion */
#define ARMED_SLACK_NS 1000

/*
 * __latbreak_tick_entry - stamp the handler's entry for stage [1], then
 * check the event that fired: armed is what the CPU had programmed, due
 * the earliest of its hrtimers and its tick.
 */
void __latbreak_tick_entry(ktime_t armed, ktime_t next_tick, ktime_t now)
{
	struct latbreak_rec *r = this_cpu_ptr(&latbreak_recs);
	struct latbreak_cpu_stats *st;
	ktime_t due;

	BUG_ON(!in_irq());
	r->handler_cyc = arch_cycles();
	r->handler_ns = now;
	if (!lb_stats || armed == KTIME_MAX)
		return;
	st = &lb_stats[smp_processor_id()];
	due = min(hrtimer_next_expiry(), next_tick);
	st->events++;
	if (armed > due + ARMED_SLACK_NS) {
		st->armed_late++;
		if ((u64)(armed - due) > st->armed_late_max_ns)
			st->armed_late_max_ns = armed - due;
	} else if (now + ARMED_SLACK_NS < armed) {
		st->fired_early++;
	} else if (now - due >= NSEC_PER_MSEC) {
		st->delivered_late++;
	}
}

/*
 * __latbreak_expiry - open the record: the stamps of this interrupt's
 * entry become stages [0] and [1] of task's wake-up.  [0] is in ns:
 * the handler's ktime minus the deadline, less the cycles from the
 * vector entry to the handler.
 */
void __latbreak_expiry(struct task_struct *task, ktime_t expires)
{
	struct latbreak_rec *r = this_cpu_ptr(&latbreak_recs);
	u64 entry = r->handler_cyc - r->vector_cyc;

	BUG_ON(!in_irq());
	memset(r->stamp, 0, sizeof(r->stamp));
	r->task = task;
	r->expires = expires;
	r->delivery_ns = r->handler_ns - expires - (s64)cyc_to_ns(entry);
	r->stamp[LB_DELIVERY] = r->vector_cyc;
	r->stamp[LB_ENTRY] = r->handler_cyc;
	r->stamp[LB_TICK] = arch_cycles();
	r->resched_at_exit = false;
	r->exit_refused = false;
	if (task == current)
		r->sleeper_was = LB_WAS_CURRENT;
	else if (READ_ONCE(task->on_rq))
		r->sleeper_was = LB_WAS_QUEUED;
	else
		r->sleeper_was = LB_WAS_ASLEEP;
}

/* __latbreak_woken - try_to_wake_up queued p (trace_sched_wakeup): the
 * end of stage [3] if p is this CPU's open record's sleeper. */
void __latbreak_woken(struct task_struct *p)
{
	struct latbreak_rec *r = this_cpu_ptr(&latbreak_recs);

	if (r->task == p && r->stamp[LB_TICK] && !r->stamp[LB_WAKE])
		r->stamp[LB_WAKE] = arch_cycles();
}

/*
 * __latbreak_reprogram - the tick handler starts programming the next
 * event: only the first time after the wake-up, stage [4] ends.  A
 * sleeper that was still running or queued when its timer fired is not
 * queued again, so no sched_wakeup ended stage [3]: it is empty then
 * (the callback's wake_up_process only set TASK_RUNNING).
 */
void __latbreak_reprogram(void)
{
	struct latbreak_rec *r = this_cpu_ptr(&latbreak_recs);

	if (r->stamp[LB_TICK] && !r->stamp[LB_WAKE])
		r->stamp[LB_WAKE] = r->stamp[LB_TICK];
	if (r->stamp[LB_WAKE] && !r->stamp[LB_QUEUE])
		r->stamp[LB_QUEUE] = arch_cycles();
}

/* __latbreak_handler_exit - the tick handler returned: stage [5] ends. */
void __latbreak_handler_exit(void)
{
	struct latbreak_rec *r = this_cpu_ptr(&latbreak_recs);

	if (r->stamp[LB_QUEUE] && !r->stamp[LB_HANDLER]) {
		r->stamp[LB_HANDLER] = arch_cycles();
		r->resched_at_exit = need_resched();
	}
}

void __latbreak_irq_exit(void)
{
	struct latbreak_rec *r = this_cpu_ptr(&latbreak_recs);

	if (r->stamp[LB_HANDLER] && !r->stamp[LB_SOFTIRQ]) {
		r->stamp[LB_SOFTIRQ] = arch_cycles();
		r->exit_refused = preempt_count() || rt_soft_irqs_off_now();
	}
}

void __latbreak_sleeper_running(void)
{
	unsigned long flags;
	struct latbreak_rec *r;

	raw_local_irq_save(flags);
	r = this_cpu_ptr(&latbreak_recs);
	if (r->task == current && r->stamp[LB_SOFTIRQ] && !r->stamp[LB_SWITCH])
		r->stamp[LB_SWITCH] = arch_cycles();
	raw_local_irq_restore(flags);
}

static void hist_add(struct latbreak_hist *h, u64 ns)
{
	u64 us = ns / NSEC_PER_USEC;

	if (!h->n || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->n++;
	h->sum_ns += ns;
	if (us < LB_HIST_US)
		h->bucket[us]++;
	else
		h->over++;
}

/*
 * __latbreak_sample - [1] stamp [7] and copy the record with interrupts
 * off; [2] drop it unless it is this thread's wake-up at deadline with
 * every stamp in order; [3] add each stage and the total.
 */
void __latbreak_sample(ktime_t deadline, ktime_t now)
{
	struct latbreak_cpu_stats *st;
	struct latbreak_rec r;
	unsigned long flags;
	int i;

	raw_local_irq_save(flags);					/* [1] */
	this_cpu_ptr(&latbreak_recs)->stamp[LB_CLOCK] = arch_cycles();
	r = *this_cpu_ptr(&latbreak_recs);
	this_cpu_ptr(&latbreak_recs)->task = NULL;	/* used once */
	st = lb_stats ? &lb_stats[smp_processor_id()] : NULL;
	raw_local_irq_restore(flags);
	if (!st)
		return;
	if (r.task != current || r.expires != deadline)			/* [2] */
		goto out_drop;
	for (i = LB_ENTRY; i <= LB_CLOCK; i++)
		if (!r.stamp[i] || r.stamp[i] < r.stamp[i - 1])
			goto out_drop;
	hist_add(&st->stage[LB_DELIVERY],				/* [3] */
		 r.delivery_ns > 0 ? (u64)r.delivery_ns : 0);
	for (i = LB_ENTRY; i <= LB_CLOCK; i++)
		hist_add(&st->stage[i], cyc_to_ns(r.stamp[i] - r.stamp[i - 1]));
	hist_add(&st->stage[LB_TOTAL], now > deadline ? (u64)(now - deadline) : 0);
	st->resched_at_exit += r.resched_at_exit;
	st->exit_refused += r.resched_at_exit && r.exit_refused;
	st->was[r.sleeper_was]++;
	return;
out_drop:
	st->dropped++;
}

int latbreak_event_counts(int cpu, struct latbreak_events *ev)
{
	const struct latbreak_cpu_stats *st;

	if (!READ_ONCE(lb_stats) || cpu < 0 || cpu >= nr_cpu_ids)
		return -ENODATA;
	st = &lb_stats[cpu];
	ev->events = READ_ONCE(st->events);
	ev->armed_late = READ_ONCE(st->armed_late);
	ev->fired_early = READ_ONCE(st->fired_early);
	ev->delivered_late = READ_ONCE(st->delivered_late);
	return 0;
}

int latbreak_on(void)
{
	might_sleep();
	WRITE_ONCE(latbreak_enabled, false);
	if (!lb_stats) {
		lb_stats = kzalloc((size_t)nr_cpu_ids * sizeof(*lb_stats),
				   GFP_KERNEL);
		if (!lb_stats)
			return -ENOMEM;
	} else {
		memset(lb_stats, 0, (size_t)nr_cpu_ids * sizeof(*lb_stats));
	}
	WRITE_ONCE(latbreak_enabled, true);
	return 0;
}

void latbreak_off(void)
{
	might_sleep();
	WRITE_ONCE(latbreak_enabled, false);
}

/* hist_percentile - the bucket (µs) holding the p-th percentile of h;
 * LB_HIST_US if it lies among the overflows. */
static u64 hist_percentile(const struct latbreak_hist *h, u64 p)
{
	u64 want = (h->n * p + 99) / 100, seen = 0;
	u64 us;

	for (us = 0; us < LB_HIST_US; us++) {
		seen += h->bucket[us];
		if (seen >= want)
			return us;
	}
	return LB_HIST_US;
}

void latbreak_print(void (*emit)(void *ctx, const char *line), void *ctx)
{
	struct latbreak_hist *sum;
	u64 dropped = 0, resched = 0;
	char line[256];
	int cpu, i, us;

	might_sleep();
	if (!lb_stats) {
		emit(ctx, "latbreak: no samples (latbreak on, then cyclictest)");
		return;
	}
	sum = kzalloc(sizeof(*sum) * LB_NR_STAGES, GFP_KERNEL);
	if (!sum) {
		emit(ctx, "latbreak: out of memory");
		return;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		const struct latbreak_cpu_stats *st = &lb_stats[cpu];

		dropped += st->dropped;
		resched += st->resched_at_exit;
		for (i = 0; i < LB_NR_STAGES; i++) {
			const struct latbreak_hist *h = &st->stage[i];

			if (!h->n)
				continue;
			if (!sum[i].n || h->min_ns < sum[i].min_ns)
				sum[i].min_ns = h->min_ns;
			if (h->max_ns > sum[i].max_ns)
				sum[i].max_ns = h->max_ns;
			sum[i].n += h->n;
			sum[i].sum_ns += h->sum_ns;
			sum[i].over += h->over;
			for (us = 0; us < LB_HIST_US; us++)
				sum[i].bucket[us] += h->bucket[us];
		}
	}
	snprintf(line, sizeof(line),
		 "latbreak: %llu wake-ups, %llu dropped, need_resched at handler exit in %llu",
		 (unsigned long long)sum[LB_TOTAL].n,
		 (unsigned long long)dropped, (unsigned long long)resched);
	emit(ctx, line);
	emit(ctx, "stage                                 min      avg  P50  P99      max  (us)");
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		const struct latbreak_cpu_stats *st = &lb_stats[cpu];
		const struct latbreak_hist *h = &st->stage[LB_TOTAL];

		if (!h->n && !st->dropped)
			continue;
		snprintf(line, sizeof(line),
			 "  cpu %d: %llu wake-ups (%llu with need_resched at handler exit, %llu of them not preemptible there; sleeper asleep/current/queued at expiry %llu/%llu/%llu), %llu dropped, total avg %llu us, P99 %llu us",
			 cpu, (unsigned long long)h->n,
			 (unsigned long long)st->resched_at_exit,
			 (unsigned long long)st->exit_refused,
			 (unsigned long long)st->was[LB_WAS_ASLEEP],
			 (unsigned long long)st->was[LB_WAS_CURRENT],
			 (unsigned long long)st->was[LB_WAS_QUEUED],
			 (unsigned long long)st->dropped,
			 (unsigned long long)(h->n ? h->sum_ns / h->n / NSEC_PER_USEC : 0),
			 (unsigned long long)hist_percentile(h, 99));
		emit(ctx, line);
		snprintf(line, sizeof(line),
			 "  cpu %d: %llu timer events: armed late %llu (max %llu ns), fired early %llu, armed on time but taken >= 1 ms after due %llu",
			 cpu, (unsigned long long)st->events,
			 (unsigned long long)st->armed_late,
			 (unsigned long long)st->armed_late_max_ns,
			 (unsigned long long)st->fired_early,
			 (unsigned long long)st->delivered_late);
		emit(ctx, line);
	}
	for (i = 0; i < LB_NR_STAGES; i++) {
		const struct latbreak_hist *h = &sum[i];
		u64 avg10 = h->n ? h->sum_ns / h->n / 100 : 0;	/* 0.1 µs */

		snprintf(line, sizeof(line),
			 "[%d] %-33s %5llu %6llu.%llu %4llu %4llu %8llu", i,
			 stage_names[i],
			 (unsigned long long)(h->min_ns / NSEC_PER_USEC),
			 (unsigned long long)(avg10 / 10),
			 (unsigned long long)(avg10 % 10),
			 (unsigned long long)hist_percentile(h, 50),
			 (unsigned long long)hist_percentile(h, 99),
			 (unsigned long long)(h->max_ns / NSEC_PER_USEC));
		emit(ctx, line);
	}
	kfree(sum);
}
