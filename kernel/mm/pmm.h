/*
 * kernel/mm/pmm.h - the physical page allocator.
 *
 * Pages are handed out as direct-map virtual addresses (phys_to_virt),
 * in power-of-two blocks of 2^order pages aligned to their size.  Each
 * page also has one private word for its owner (the slab allocator
 * records the slab there), cleared when the page is freed.
 * Linux counterpart: mm/page_alloc.c (__get_free_pages, free_pages,
 * page->private).
 */
#ifndef KERNEL_MM_PMM_H
#define KERNEL_MM_PMM_H

#include "lib/types.h"

#define PMM_MAX_ORDER 10	/* largest block: 2^10 pages = 4 MiB */

/* pmm_init - build the allocator from boot_info.mmap; RAM above 4 GiB
 * stays offline until pmm_online_high_memory().  Context: boot, once. */
void pmm_init(void);

/* pmm_online_high_memory - hand out RAM above 4 GiB too; called once the
 * direct map covers it.  Context: boot, once. */
void pmm_online_high_memory(void);

/*
 * alloc_pages - 2^order contiguous pages, aligned to 2^order pages, as a
 * direct-map address; NULL when no such block is free (no warning: the
 * caller decides) or when fail_page_alloc injects a failure
 * (kernel/mm/fault_inject.h).  The contents are not cleared.
 * Context: any; never sleeps.
 */
void *alloc_pages(unsigned int order);

/*
 * free_pages - give back a block alloc_pages(order) returned.  A block
 * with a page that is already free (a double free, reported with the
 * page's last alloc and free sites, kernel/mm/page_debug.h), or that
 * the allocator never manages (kernel image, firmware, holes), or a
 * misaligned address (both a WARN) is counted in pmm_warn_count, and
 * nothing is changed.  With SLAB_DEBUG the freed block is poisoned.
 * Context: any; never sleeps.
 */
void free_pages(void *addr, unsigned int order);

static inline void *alloc_page(void)
{
	return alloc_pages(0);
}

static inline void free_page(void *addr)
{
	free_pages(addr, 0);
}

/* The page's private word; pmm_page_private returns NULL for an address
 * that is not a page of RAM the allocator manages. */
void **pmm_page_private(const void *addr);

struct pmm_stats {
	unsigned long ram_pages;	/* usable RAM managed */
	unsigned long reserved_pages;	/* of those, never handed out */
	unsigned long free_pages;	/* free now */
	unsigned long offline_pages;	/* above 4 GiB, not yet online */
	unsigned long ignored_pages;	/* above PMM_MAX_PHYS, unused */
};

void pmm_get_stats(struct pmm_stats *st);
unsigned long pmm_nr_free_pages(void);
/* pmm_phys_end - end of the highest usable RAM the allocator tracks. */
u64 pmm_phys_end(void);

/* pmm_warn_count - bad free_pages() calls reported so far (tests). */
extern unsigned long pmm_warn_count;

#endif /* KERNEL_MM_PMM_H */
