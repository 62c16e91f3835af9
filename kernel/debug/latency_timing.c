/*
 * kernel/debug/latency_timing.c - CRITICAL_PREEMPT_TIMING,
 * CRITICAL_IRQSOFF_TIMING and WAKEUP_TIMING (see latency_timing.h).
 *
 * Per CPU: the start of the open preempt-off and irqs-off sections and
 * the longest closed one of each kind.  A section is open while its
 * start time is non-zero; an "on" without one does nothing, an "off"
 * with one open restarts it (see section_start).  Only
 * the CPU itself writes its records, each under a sequence count that
 * lets `latency` on another CPU read them without a lock; a reset bumps
 * a generation number instead of writing other CPUs' data.
 *
 * The wake-up record follows one task at a time, as Linux's wakeup_rt
 * tracer does: the most important RT task woken and not yet running; a
 * more important wake-up replaces it, the switch to it closes it.  The
 * hooks call nothing that could call them back: time from ktime_get()
 * (a TSC read), irqs off through the arch_ functions (unhooked).
 *
 * Linux counterpart: kernel/trace/trace_irqsoff.c (start/stop_critical_
 * timing, check_critical_timing), trace_sched_wakeup.c.
 */
#include "kernel/debug/latency_timing.h"
#include "kernel/debug/latency_trace.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/sched/sched.h"
#include "kernel/time/ktime.h"
#include "lib/string.h"

struct lat_open {
	u64 start;			/* ktime at the start; 0: closed */
	unsigned long ip, parent;	/* where it started */
	int pid;			/* who started it */
	char comm[16];
};

struct lat_slot {
	u32 seq;			/* odd while the owner writes */
	u32 gen;			/* lat_gen when written */
	struct latency_record rec;
};

/* this CPU's state: written only by this CPU (hooks), read by anyone */
struct lat_cpu {
	struct lat_open open[2];	/* LATENCY_PREEMPT_OFF, _IRQS_OFF */
	struct lat_slot max[LATENCY_NR_KINDS];
};

static DEFINE_PER_CPU(struct lat_cpu, lat_cpu);
static bool lat_enabled;		/* set once by latency_timing_init */
static u32 lat_gen = 1;			/* bumped by latency_timing_reset */

/* the tracked wake-up, under wake_lock (a bare test-and-set: the hooks
 * cannot use raw_spinlock_t, whose preempt_disable() would recurse) */
static int wake_lock;
static struct task_struct *wake_task;	/* NULL: none tracked */
static int wake_prio;			/* its prio at the wake-up */
static u64 wake_start;
static unsigned long wake_ip;

bool latency_kind_enabled(enum latency_kind kind)
{
	switch (kind) {
#ifdef CONFIG_CRITICAL_PREEMPT_TIMING
	case LATENCY_PREEMPT_OFF:
		return true;
#endif
#ifdef CONFIG_CRITICAL_IRQSOFF_TIMING
	case LATENCY_IRQS_OFF:
		return true;
#endif
#ifdef CONFIG_WAKEUP_TIMING
	case LATENCY_WAKEUP:
		return true;
#endif
	default:
		return false;
	}
}

const char *latency_kind_name(enum latency_kind kind)
{
	static const char *const names[LATENCY_NR_KINDS] = {
		[LATENCY_PREEMPT_OFF] = "preempt-off",
		[LATENCY_IRQS_OFF] = "irqs-off",
		[LATENCY_WAKEUP] = "wakeup",
	};

	return (unsigned)kind < LATENCY_NR_KINDS ? names[kind] : "?";
}

void latency_timing_init(void)
{
	latency_trace_init();		/* LATENCY_TRACE */
	WRITE_ONCE(lat_enabled, true);
}

void latency_timing_reset(void)
{
	__atomic_add_fetch(&lat_gen, 1, __ATOMIC_SEQ_CST);
	latency_trace_reset();		/* LATENCY_TRACE */
}

static void task_ident(struct task_struct *p, int *pid, char *comm)
{
	if (p) {
		*pid = p->pid;
		strscpy(comm, p->name, 16);
	} else {
		*pid = -1;
		strscpy(comm, "-", 16);
	}
}

/*
 * slot_update - keep rec in this CPU's slot if it beats the maximum.
 * Context: any, on the slot's own CPU, which cannot change under us
 * (preemption or irqs off, or the caller holds wake_lock with irqs off).
 * Locking: none; pairs with the seq retry in latency_timing_read().
 */
static void slot_update(struct lat_slot *s, const struct latency_record *rec)
{
	u32 gen = READ_ONCE(lat_gen);

	if (s->gen == gen && s->rec.ns >= rec->ns)
		return;
	WRITE_ONCE(s->seq, s->seq + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	s->rec = *rec;
	s->gen = gen;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	WRITE_ONCE(s->seq, s->seq + 1);
}

static void section_start(int kind, unsigned long ip, unsigned long parent)
{
	struct lat_open *o;

	if (!READ_ONCE(lat_enabled))
		return;
	/* The hooks call this only on a real on -> off transition, so a
	 * section still open is stale: its "on" went by unhooked (iret
	 * restoring IF, a preempt_count written at context switch).  Start
	 * over rather than charge that time to this section. */
	o = &this_cpu_ptr(&lat_cpu)->open[kind];
	o->ip = ip;
	o->parent = parent;
	task_ident(current_or_null(), &o->pid, o->comm);
	o->start = (u64)ktime_get();
	latency_trace_start(kind);	/* LATENCY_TRACE */
}

static void section_end(int kind, unsigned long ip, unsigned long parent)
{
	struct lat_cpu *lc;
	struct lat_open *o;
	struct latency_record rec;
	u64 now;

	if (!READ_ONCE(lat_enabled))
		return;
	now = (u64)ktime_get();
	lc = this_cpu_ptr(&lat_cpu);
	o = &lc->open[kind];
	if (!o->start)
		return;
	rec.ns = now > o->start ? now - o->start : 0;
	rec.start_ip = o->ip;
	rec.start_parent = o->parent;
	rec.end_ip = ip;
	rec.end_parent = parent;
	rec.cpu = raw_smp_processor_id();
	rec.pid = o->pid;
	rec.prio = -1;
	memcpy(rec.comm, o->comm, sizeof(rec.comm));
	o->start = 0;
	slot_update(&lc->max[kind], &rec);
	latency_trace_stop(kind, &rec);	/* LATENCY_TRACE */
}

/* Context: preempt_count just went 0 -> 1 (preemption off). */
void __trace_preempt_off(unsigned long ip, unsigned long parent)
{
	section_start(LATENCY_PREEMPT_OFF, ip, parent);
}

/* Context: preempt_count about to go 1 -> 0. */
void __trace_preempt_on(unsigned long ip, unsigned long parent)
{
	section_end(LATENCY_PREEMPT_OFF, ip, parent);
}

/* Context: irqs just went off (cli), from on. */
void __trace_hardirqs_off(unsigned long ip, unsigned long parent)
{
	section_start(LATENCY_IRQS_OFF, ip, parent);
}

/* Context: irqs about to go on (sti), still off. */
void __trace_hardirqs_on(unsigned long ip, unsigned long parent)
{
	/* an enable with irqs already on closes nothing (and this CPU's
	 * record is not ours to touch while we could migrate) */
	if (!arch_irqs_disabled_flags(arch_local_save_flags()))
		return;
	section_end(LATENCY_IRQS_OFF, ip, parent);
}

/* Context: hard irq entry, irqs off (see trace_irq_enter, hooks.h). */
void __trace_hardirqs_entry(void)
{
	if (READ_ONCE(lat_enabled))
		this_cpu_ptr(&lat_cpu)->open[LATENCY_IRQS_OFF].start = 0;
	latency_trace_stop(LATENCY_IRQS_OFF, NULL);	/* LATENCY_TRACE */
}

static unsigned long wake_lock_irqsave(void)
{
	unsigned long flags = arch_local_irq_save();

	while (__atomic_exchange_n(&wake_lock, 1, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	return flags;
}

static void wake_unlock_irqrestore(unsigned long flags)
{
	__atomic_store_n(&wake_lock, 0, __ATOMIC_RELEASE);
	arch_local_irq_restore(flags);
}

/*
 * latency_wakeup_mark - [1] only RT tasks count; [2] one more important
 * than the tracked one (or none tracked) replaces it.
 * Locking: takes wake_lock with irqs off.
 */
void latency_wakeup_mark(struct task_struct *p, unsigned long ip)
{
	unsigned long flags;

	if (!READ_ONCE(lat_enabled) || !rt_prio(p->prio))	/* [1] */
		return;
	flags = wake_lock_irqsave();
	if (!wake_task || p->prio < wake_prio) {		/* [2] */
		wake_task = p;
		wake_prio = p->prio;
		wake_ip = ip;
		wake_start = (u64)ktime_get();
	}
	wake_unlock_irqrestore(flags);
}

/*
 * latency_wakeup_switch - close the tracked wake-up when its task is
 * picked.  Locking: takes wake_lock (irqs are off already).
 */
void latency_wakeup_switch(struct task_struct *next, unsigned long ip)
{
	struct latency_record rec;
	unsigned long flags;
	u64 now;

	if (!READ_ONCE(lat_enabled) || READ_ONCE(wake_task) != next)
		return;
	now = (u64)ktime_get();
	flags = wake_lock_irqsave();
	if (wake_task != next) {
		wake_unlock_irqrestore(flags);
		return;
	}
	rec.ns = now > wake_start ? now - wake_start : 0;
	rec.start_ip = wake_ip;
	rec.start_parent = 0;
	rec.end_ip = ip;
	rec.end_parent = 0;
	rec.cpu = raw_smp_processor_id();
	rec.prio = wake_prio;
	task_ident(next, &rec.pid, rec.comm);
	wake_task = NULL;
	slot_update(&this_cpu_ptr(&lat_cpu)->max[LATENCY_WAKEUP], &rec);
	wake_unlock_irqrestore(flags);
}

/* read_slot - a consistent copy of cpu's slot; false if empty. */
static bool read_slot(int cpu, enum latency_kind kind,
		      struct latency_record *rec)
{
	struct lat_slot *s = &per_cpu(lat_cpu, cpu).max[kind];
	u32 seq, gen;

	do {
		seq = READ_ONCE(s->seq);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		*rec = s->rec;
		gen = s->gen;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || READ_ONCE(s->seq) != seq);
	return gen == READ_ONCE(lat_gen) && rec->ns;
}

bool latency_timing_read(enum latency_kind kind, int cpu,
			 struct latency_record *rec)
{
	struct latency_record r;
	bool found = false;
	int c;

	if ((unsigned)kind >= LATENCY_NR_KINDS || !latency_kind_enabled(kind))
		return false;
	if (cpu >= 0)
		return cpu < NR_CPUS && read_slot(cpu, kind, rec);
	for (c = 0; c < NR_CPUS; c++) {
		if (!cpu_online(c) || !read_slot(c, kind, &r))
			continue;
		if (!found || r.ns > rec->ns) {
			*rec = r;
			found = true;
		}
	}
	return found;
}
