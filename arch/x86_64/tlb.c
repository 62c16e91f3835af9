/*
 * arch/x86_64/tlb.c - TLB shootdown of kernel ranges (see tlb.h).
 *
 * Steps of flush_tlb_kernel_range():
 *   [1] invalidate the range here (INVLPG per page: the entries are
 *       global, a CR3 load would keep them);
 *   [2] if other CPUs are online, run flush_tlb_func() on each of them
 *       through smp_call_function() and wait for all: only then may the
 *       caller free the pages.
 * Preemption stays off across [1] and [2]: a task migrating between
 * them would leave its new CPU out of both ("all but self").
 * The race it closes:
 *
 *	CPU0 (frees a stack)             CPU1 (ran the dead task)
 *	clear PTE, INVLPG here           TLB still maps va -> page
 *	free_page(page)
 *	page reused by kmalloc           write va  -> lands in the new
 *	                                 owner's data (no fault)
 *
 * With [2] between "clear" and "free", CPU1 has dropped the entry before
 * the page can have another owner, and its next access faults.
 * Linux counterpart: arch/x86/mm/tlb.c (flush_tlb_kernel_range,
 * do_kernel_range_flush).
 */
#include "arch/x86_64/tlb.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "kernel/sched/preempt.h"
#include "kernel/smp.h"
#include "lib/bug.h"

struct flush_range {
	unsigned long start;
	unsigned long end;
};

static DEFINE_PER_CPU(unsigned long, nr_shootdowns);

static void flush_range_local(unsigned long start, unsigned long end)
{
	for (unsigned long va = start; va < end; va += PAGE_SIZE)
		invlpg(va);
}

/* flush_tlb_func - the IPI side of [2].  Context: hardirq, irqs off. */
static void flush_tlb_func(void *info)
{
	const struct flush_range *r = info;

	flush_range_local(r->start, r->end);
	this_cpu_inc(nr_shootdowns);
}

void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct flush_range r = { .start = start, .end = end };

	BUG_ON(start & (PAGE_SIZE - 1) || end < start);
	preempt_disable();
	flush_range_local(start, end);				/* [1] */
	if (num_online_cpus() > 1)				/* [2] */
		smp_call_function(flush_tlb_func, &r, true);
	preempt_enable();
}

unsigned long tlb_shootdowns_received(int cpu)
{
	return READ_ONCE(per_cpu(nr_shootdowns, cpu));
}
