/*
 * kernel/debug/latency_trace.c - LATENCY_TRACE (see latency_trace.h):
 * the portable half of the function hook (latency_trace_fentry, called
 * by the arch's function-entry hook, see arch/x86_64/arch.h), the per-CPU
 * call buffers and the worst trace.
 *
 * This file is built without -pg (the Makefile's TRACE_NOTRACE): the
 * hook must not call itself.  It calls nothing instrumented either: the
 * time is arch_cycles() (inline), the lock a test-and-set.
 *
 * Per CPU: a buffer of LTR_ENTRIES entries, the bit mask of open
 * sections, the count of calls appended since the first of them opened,
 * and where each open section began (its index and TSC).  Only the CPU
 * itself writes them; an interrupt on the same CPU appends too, so the
 * index is taken with one atomic add.  The worst trace is a copy, made
 * under ltr_lock by the CPU closing the section; everyone takes the lock
 * with trylock and gives up (the trace is lost, counted in ltr_missed)
 * rather than wait with preemption or interrupts off.
 *
 * Linux counterpart: kernel/trace/trace_irqsoff.c (check_critical_timing,
 * update_max_tr_single), arch/x86/kernel/ftrace_64.S (__fentry__).
 */
#include "kernel/debug/latency_trace.h"
#include "kernel/debug/latency_timing.h"
#include "kernel/mm/slab.h"
#include "kernel/percpu.h"
#include "kernel/preempt_count.h"
#include "kernel/sched/preempt.h"
#include "kernel/smp.h"
#include "lib/string.h"

static u64 ltr_thresh_ns;		/* `latency thresh`, in ns */

bool latency_trace_built(void)
{
#ifdef CONFIG_LATENCY_TRACE
	return true;
#else
	return false;
#endif
}

u64 latency_trace_thresh_us(void)
{
	return READ_ONCE(ltr_thresh_ns) / 1000;
}

#ifdef CONFIG_LATENCY_TRACE

struct ltr_cpu {
	u32 open;			/* bit per enum latency_kind */
	u32 n;				/* calls since the first opened */
	u32 start_idx[2];		/* n at each section's start */
	u64 start_cycles[2];
	struct ltr_entry *buf;		/* LTR_ENTRIES; NULL before init */
};

static DEFINE_PER_CPU(struct ltr_cpu, ltr_cpu);

/* read by the arch's function-entry hook before anything else: 0
 * until the buffers exist */
u8 ltr_on;

static int ltr_lock;			/* guards worst and worst_buf */
static struct ltr_info worst;
static struct ltr_entry *worst_buf;
static u64 ltr_missed;			/* worst traces lost to the lock */

void latency_trace_fentry(unsigned long ip, unsigned long parent);

/*
 * latency_trace_fentry - append (ip, parent) to this CPU's buffer if a
 * section is open here.  Called by the arch's function-entry hook
 * once ltr_on is set.  Context: any, even NMI (an interleaved entry
 * is at worst half written).  Locking: none.
 */
void latency_trace_fentry(unsigned long ip, unsigned long parent)
{
	struct ltr_cpu *c = this_cpu_ptr(&ltr_cpu);
	struct ltr_entry *e;
	u32 i;

	if (!READ_ONCE(c->open) || !c->buf)
		return;
	i = __atomic_fetch_add(&c->n, 1, __ATOMIC_RELAXED);
	if (i >= LTR_ENTRIES)
		return;				/* counted as lost */
	e = &c->buf[i];
	e->cycles = arch_cycles();
	e->ip = ip;
	e->parent = parent;
	e->preempt_count = (u32)preempt_count();
	e->flags = (arch_irqs_disabled_flags(arch_local_save_flags()) ?
		    LTR_IRQS_OFF : 0) |
		   (need_resched() ? LTR_RESCHED : 0);
}

static bool ltr_trylock(void)
{
	return !__atomic_exchange_n(&ltr_lock, 1, __ATOMIC_ACQUIRE);
}

static void ltr_unlock(void)
{
	__atomic_store_n(&ltr_lock, 0, __ATOMIC_RELEASE);
}

void latency_trace_init(void)
{
	int cpu;

	worst_buf = kmalloc(LTR_ENTRIES * sizeof(struct ltr_entry),
			    GFP_KERNEL);
	if (!worst_buf)
		return;
	for_each_online_cpu(cpu)
		per_cpu(ltr_cpu, cpu).buf =
			kmalloc(LTR_ENTRIES * sizeof(struct ltr_entry),
				GFP_KERNEL);
	WRITE_ONCE(ltr_on, 1);
}

void latency_trace_start(int kind)
{
	struct ltr_cpu *c = this_cpu_ptr(&ltr_cpu);
	u32 bit = 1u << kind;

	if (!c->buf || kind > LATENCY_IRQS_OFF)
		return;
	if (!(c->open & ~bit))
		WRITE_ONCE(c->n, 0);		/* the first open: a fresh buffer */
	c->start_idx[kind] = READ_ONCE(c->n);
	c->start_cycles[kind] = arch_cycles();
	barrier();
	WRITE_ONCE(c->open, c->open | bit);
}

/*
 * latency_trace_stop - [1] close the section (recording stops unless
 * the other kind is still open); [2] not the worst, or under the
 * threshold: done; [3] under ltr_lock, recheck and copy its entries.
 * Context: this CPU's section end, preemption or irqs off.
 * Locking: tries ltr_lock, never waits for it.
 */
void latency_trace_stop(int kind, const struct latency_record *rec)
{
	struct ltr_cpu *c = this_cpu_ptr(&ltr_cpu);
	u32 bit = 1u << kind, first, end;

	if (kind > LATENCY_IRQS_OFF || !(c->open & bit))
		return;
	end = READ_ONCE(c->n);					/* [1] */
	WRITE_ONCE(c->open, c->open & ~bit);
	if (!rec || rec->ns <= READ_ONCE(ltr_thresh_ns) ||	/* [2] */
	    rec->ns <= READ_ONCE(worst.ns))
		return;
	if (!ltr_trylock()) {					/* [3] */
		ltr_missed++;
		return;
	}
	if (rec->ns > worst.ns && rec->ns > ltr_thresh_ns) {
		first = c->start_idx[kind];
		if (first > LTR_ENTRIES)
			first = LTR_ENTRIES;
		worst.lost = end > LTR_ENTRIES ? end - LTR_ENTRIES : 0;
		if (end > LTR_ENTRIES)
			end = LTR_ENTRIES;
		worst.nr = end - first;
		memcpy(worst_buf, c->buf + first,
		       worst.nr * sizeof(struct ltr_entry));
		worst.ns = rec->ns;
		worst.kind = kind;
		worst.cpu = rec->cpu;
		worst.pid = rec->pid;
		memcpy(worst.comm, rec->comm, sizeof(worst.comm));
		worst.start_ip = rec->start_ip;
		worst.end_ip = rec->end_ip;
		worst.start_cycles = c->start_cycles[kind];
	}
	ltr_unlock();
}

/* Locking: spins for ltr_lock with irqs off (holders copy, never wait). */
void latency_trace_reset(void)
{
	unsigned long flags = arch_local_irq_save();

	while (!ltr_trylock())
		arch_cpu_relax();
	worst.ns = 0;
	worst.nr = 0;
	ltr_unlock();
	arch_local_irq_restore(flags);
}

bool latency_trace_read(struct ltr_info *info, struct ltr_entry *out,
			u32 max)
{
	unsigned long flags = arch_local_irq_save();
	bool found;

	while (!ltr_trylock())
		arch_cpu_relax();
	*info = worst;
	found = worst.ns != 0;
	if (found && out)
		memcpy(out, worst_buf, (info->nr < max ? info->nr : max) *
					       sizeof(struct ltr_entry));
	ltr_unlock();
	arch_local_irq_restore(flags);
	return found;
}

#else /* !CONFIG_LATENCY_TRACE */

bool latency_trace_read(struct ltr_info *info, struct ltr_entry *out,
			u32 max)
{
	return false;
}

#endif

void latency_trace_set_thresh_us(u64 us)
{
	WRITE_ONCE(ltr_thresh_ns, us * 1000);
	latency_trace_reset();
}
