/*
 * kernel/debug/latency_trace.h - LATENCY_TRACE, the function-call trace
 * of the worst latency section (`make LATENCY_TRACE=1`, which implies
 * the three timing options of latency_timing.h).
 *
 * Every kernel C file but a few (the tracer, latency_timing, printk and
 * the console drivers: see the Makefile's TRACE_NOTRACE) is compiled
 * with -pg -mfentry, so each function begins with `call __fentry__`.
 * the arch's function-entry hook returns at once unless tracing is on,
 * then hands the function and its caller to latency_trace_fentry(),
 * which appends an entry to this CPU's buffer -- but only while this CPU
 * has a preempt-off or irqs-off section open (latency_timing.c calls
 * latency_trace_start/stop at the section's ends).  When a section
 * closes as the longest seen so far and longer than the threshold
 * (`latency thresh US`, Linux's tracing_thresh / the 2.6-rt
 * preempt_thresh), its entries become the worst trace, which `latency
 * trace` prints in the spirit of Linux's latency_trace:
 *
 *	  cpu flags   time   function <- parent
 *	    1 d..1     12us : do_something <- caller
 *
 * A buffer keeps the first LTR_ENTRIES calls of a section (the ones
 * that show how it began) and counts the rest as lost.
 * Without CONFIG_LATENCY_TRACE the hooks are empty inlines.
 *
 * Linux counterpart: kernel/trace/trace_irqsoff.c with the function
 * tracer (CONFIG_FUNCTION_TRACER, arch/x86/kernel/ftrace_64.S);
 * the 2.6-rt kernel/latency_trace.c the article describes.  rtk leaves
 * out function-exit tracing, dynamic patching of the call sites and
 * per-function filters.
 */
#ifndef KERNEL_DEBUG_LATENCY_TRACE_H
#define KERNEL_DEBUG_LATENCY_TRACE_H

#include "lib/types.h"

#define LTR_ENTRIES 4096	/* calls kept per section */

/* entry flags */
#define LTR_IRQS_OFF	0x1	/* RFLAGS.IF clear */
#define LTR_RESCHED	0x2	/* TIF_NEED_RESCHED set */

struct ltr_entry {
	u64 cycles;		/* arch_cycles() at the call */
	unsigned long ip;	/* the function called */
	unsigned long parent;	/* the return address into its caller */
	u32 preempt_count;	/* preempt_count() at the call */
	u32 flags;		/* LTR_* */
};

/* the header of the worst trace (see latency_trace_read) */
struct ltr_info {
	u64 ns;			/* the section's length; 0: none */
	int kind;		/* enum latency_kind */
	int cpu;
	int pid;
	char comm[16];
	unsigned long start_ip, end_ip;	/* the section's ends */
	u32 nr;			/* entries kept */
	u32 lost;		/* calls past LTR_ENTRIES */
	u64 start_cycles;	/* arch_cycles() at the section's start */
};

struct latency_record;

#ifdef CONFIG_LATENCY_TRACE
/* latency_trace_init - allocate the buffers, turn __fentry__ on.
 * Context: boot, task, after smp_init() (from latency_timing_init). */
void latency_trace_init(void);
/* latency_trace_start - a section of kind opened on this CPU.
 * Context: preemption or irqs off (the latency_timing hooks). */
void latency_trace_start(int kind);
/* latency_trace_stop - it closed as rec (rec NULL: dropped unmeasured);
 * keeps the trace if rec is the worst and over the threshold.
 * Context: as latency_trace_start. */
void latency_trace_stop(int kind, const struct latency_record *rec);
/* latency_trace_reset - forget the worst trace.  Context: any. */
void latency_trace_reset(void);
#else
static inline void latency_trace_init(void) { }
static inline void latency_trace_start(int kind) { (void)kind; }
static inline void latency_trace_stop(int kind,
				      const struct latency_record *rec)
{
	(void)kind;
	(void)rec;
}
static inline void latency_trace_reset(void) { }
#endif

/* latency_trace_built - was LATENCY_TRACE built in? */
bool latency_trace_built(void);
/* latency_trace_thresh_us / _set_thresh_us - the threshold in µs;
 * setting it forgets the worst trace.  Context: any. */
u64 latency_trace_thresh_us(void);
void latency_trace_set_thresh_us(u64 us);

/*
 * latency_trace_read - copy the worst trace: its header into *info and
 * up to max entries into out (may be NULL).  Returns false if there is
 * none.  While a reader copies, new worst sections are not kept.
 * Context: task.
 */
bool latency_trace_read(struct ltr_info *info, struct ltr_entry *out,
			u32 max);

/* latency_trace_cmd - the shell's `latency trace` and `latency thresh
 * [US]` (kernel/shell/cmd_latency_trace.c).  Context: task. */
int latency_trace_cmd(int argc, char **argv);

#endif /* KERNEL_DEBUG_LATENCY_TRACE_H */
