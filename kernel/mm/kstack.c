/*
 * kernel/mm/kstack.c - allocate kernel stacks in the kernel-stack region,
 * each with an unmapped guard below (layout in kstack.h).
 *
 * A slot bitmap says which slots hold a stack; the stack's pages come one
 * by one from the page allocator and are mapped RW+NX by arch_map_page(),
 * so a stack needs no physically contiguous memory.  The guard is simply
 * never mapped.  A freed stack is unmapped (its addresses fault), and
 * with SLAB_DEBUG its pages are poisoned by free_pages() and checked at
 * their next allocation (kernel/mm/page_debug.h), so a write through a
 * stale direct-map pointer into a dead task's stack is reported.
 * Linux counterpart: kernel/fork.c (alloc_thread_stack_node, VMAP_STACK)
 * and arch/x86/kernel/traps.c's "kernel stack overflow" detection in
 * the #DF handler.
 */
#include "kernel/mm/kstack.h"
#include "kernel/mm/mm_lock.h"
#include "kernel/mm/pmm.h"
#include "arch/x86_64/arch.h"
#include "lib/bitmap.h"
#include "lib/bug.h"

#define KSTACK_PAGES (KSTACK_SIZE / PAGE_SIZE)

/* Protected by kstack_lock (read locklessly by kstack_guard_hit): */
static struct mm_lock kstack_lock;
static DECLARE_BITMAP(slot_used, KSTACK_MAX);
static unsigned int nr_in_use;

static unsigned long slot_base(unsigned int slot)
{
	return KSTACK_REGION_BASE + (unsigned long)slot * KSTACK_SLOT;
}

/*
 * unmap_stack_pages - unmap and free the first n pages of a stack:
 * [1] note each page's frame, [2] unmap all with one TLB shootdown
 * (arch_unmap_range: every CPU that ran on the stack may hold its
 * translation), [3] only then free the frames; freed before [2], a page
 * could get a new owner while another CPU still writes it through a
 * stale entry.
 * Context: task, not hardirq (the shootdown waits for the other CPUs).
 */
static void unmap_stack_pages(unsigned long stack, unsigned int n)
{
	u64 phys[KSTACK_PAGES];
	bool mapped[KSTACK_PAGES];

	BUG_ON(n > KSTACK_PAGES);
	for (unsigned int i = 0; i < n; i++)			/* [1] */
		mapped[i] = arch_query_page(stack + i * PAGE_SIZE, &phys[i],
					    NULL) == 0;
	if (n)
		arch_unmap_range(stack, n);			/* [2] */
	for (unsigned int i = 0; i < n; i++)			/* [3] */
		if (mapped[i])
			free_page(phys_to_virt(phys[i]));
}

/*
 * kstack_alloc - see kstack.h.  Steps:
 *   [1] claim a free slot;
 *   [2] allocate and map its stack pages, above the guard;
 *   [3] on failure unmap what was mapped and give the slot back.
 * Locking: takes kstack_lock for [1] and [3]; mapping takes mmu_lock
 * and pmm_lock (never under kstack_lock).
 */
void *kstack_alloc(void)
{
	unsigned long flags = mm_lock_irqsave(&kstack_lock), stack;
	unsigned long slot = find_first_zero_bit(slot_used, KSTACK_MAX);
	unsigned int i;

	if (slot < KSTACK_MAX) {				/* [1] */
		__set_bit(slot, slot_used);
		nr_in_use++;
	}
	mm_unlock_irqrestore(&kstack_lock, flags);
	if (slot >= KSTACK_MAX)
		return NULL;

	stack = slot_base(slot) + KSTACK_GUARD_SIZE;		/* [2] */
	for (i = 0; i < KSTACK_PAGES; i++) {
		void *page = alloc_page();

		if (!page)
			goto out_unwind;
		if (arch_map_page(stack + i * PAGE_SIZE, virt_to_phys(page),
				  MAP_WRITE)) {
			free_page(page);
			goto out_unwind;
		}
	}
	return (void *)stack;

out_unwind:							/* [3] */
	unmap_stack_pages(stack, i);
	flags = mm_lock_irqsave(&kstack_lock);
	__clear_bit(slot, slot_used);
	nr_in_use--;
	mm_unlock_irqrestore(&kstack_lock, flags);
	return NULL;
}

/*
 * kstack_free - see kstack.h.
 * Context: task (the TLB shootdown waits for the other CPUs).
 * Locking: takes kstack_lock; unmapping takes mmu_lock and pmm_lock.
 */
void kstack_free(void *stack)
{
	unsigned long s = (unsigned long)stack, off = s - KSTACK_REGION_BASE;
	unsigned long slot = off / KSTACK_SLOT, flags;
	bool ok;

	ok = s >= KSTACK_REGION_BASE && slot < KSTACK_MAX &&
	     off % KSTACK_SLOT == KSTACK_GUARD_SIZE;
	flags = mm_lock_irqsave(&kstack_lock);
	ok = ok && test_bit(slot, slot_used);
	mm_unlock_irqrestore(&kstack_lock, flags);
	if (WARN(!ok, "kstack_free(%p): not a stack kstack_alloc() returned",
		 stack))
		return;

	unmap_stack_pages(s, KSTACK_PAGES);
	/* the slot is reusable only once its pages are gone */
	flags = mm_lock_irqsave(&kstack_lock);
	__clear_bit(slot, slot_used);
	nr_in_use--;
	mm_unlock_irqrestore(&kstack_lock, flags);
}

/* kstack_guard_hit - see arch/x86_64/arch.h (called by the #PF/#DF
 * oops in arch/x86_64/traps.c). */
bool kstack_guard_hit(u64 addr)
{
	u64 off = addr - KSTACK_REGION_BASE;
	u64 slot = off / KSTACK_SLOT;

	if (addr < KSTACK_REGION_BASE || slot >= KSTACK_MAX)
		return false;
	return off % KSTACK_SLOT < KSTACK_GUARD_SIZE && test_bit(slot, slot_used);
}

unsigned int kstack_nr_in_use(void)
{
	return READ_ONCE(nr_in_use);
}
