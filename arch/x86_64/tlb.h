/*
 * arch/x86_64/tlb.h - TLB invalidation of kernel addresses on every CPU
 * (the "TLB shootdown").
 *
 * Kernel mappings are global (PTE_G), so every CPU may cache them and a
 * CR3 load does not drop them.  After a page-table entry is cleared, a
 * CPU other than the one that cleared it may still translate through its
 * cached copy; the page behind it must not be reused until every online
 * CPU has invalidated it.  flush_tlb_kernel_range() does the INVLPGs
 * here and, through a call-function IPI (kernel/smp.h), on the others,
 * and returns only after all have done them.
 * Spec: Intel SDM Vol. 3A 4.10.4 (invalidation of TLBs), 4.10.5
 * (propagation of paging-structure changes to multiple processors: "TLB
 * shootdown" by IPI).
 * Linux counterpart: arch/x86/mm/tlb.c flush_tlb_kernel_range() and
 * flush_tlb_func(); rtk has no lazy-TLB mode, no per-mm CPU masks (one
 * address space) and no full-flush threshold.
 */
#ifndef ARCH_X86_64_TLB_H
#define ARCH_X86_64_TLB_H

#include "lib/types.h"

/*
 * flush_tlb_kernel_range - invalidate [start, end) (page-aligned kernel
 * addresses) on this CPU and on every other online CPU; returns once all
 * have done it.  Call after the entries were cleared and before the
 * pages they mapped are reused.
 * Context: task or boot, not hardirq: it waits for the other CPUs, which
 * must be able to take the IPI (see smp_call_function_single() on
 * waiting with interrupts off).  Locking: none held that another CPU
 * could spin on with interrupts off.
 */
void flush_tlb_kernel_range(unsigned long start, unsigned long end);

/* tlb_shootdowns_received - flush requests this CPU handled for others
 * (tests, the `smp` view).  Context: any. */
unsigned long tlb_shootdowns_received(int cpu);

#endif /* ARCH_X86_64_TLB_H */
