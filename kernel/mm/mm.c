/*
 * kernel/mm/mm.c - the memory manager's boot sequence.
 *
 * Order matters: the page tables are built from pages the page allocator
 * hands out, and the slab allocator hands out objects from pages reached
 * through the direct map those tables define.
 * Linux counterpart: init/main.c mm_core_init() (memblock -> paging_init
 * -> kmem_cache_init).
 */
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "arch/x86_64/arch.h"
#include "lib/bug.h"
#include "kernel/irqflags.h"

void __init mm_init(void)
{
	BUG_ON(!raw_irqs_disabled());
	pmm_init();
	arch_mmu_init();
	slab_init();
}
