/*
 * kernel/mm/page_debug.h - page poisoning and per-page alloc/free sites
 * for the page allocator (CONFIG_SLAB_DEBUG, the same switch as the slab
 * checks: `make SLAB_DEBUG=0` turns both off).
 *
 * free_pages() fills a freed block with PAGE_POISON (0xaa, as Linux)
 * before it becomes free, and records the caller; alloc_pages() checks
 * that every page of the block that was poisoned is still all poison
 * (a write to a page after it was freed, e.g. through a stale pointer
 * into a freed task stack's direct-map alias, is reported with the
 * page's last alloc and free sites) and records its own caller.  A
 * double free reports both sites.  Pages free since boot were never
 * poisoned and are not checked (poisoning all RAM at boot would cost
 * seconds under TCG).  The full-page fill and compare run outside
 * pmm_lock: a 4 MiB block is not memset with interrupts off.
 * Linux counterpart: mm/page_poison.c (CONFIG_PAGE_POISONING),
 * mm/page_owner.c (the sites), mm/debug_page_alloc.c.
 */
#ifndef KERNEL_MM_PAGE_DEBUG_H
#define KERNEL_MM_PAGE_DEBUG_H

#include "lib/types.h"

#define PAGE_POISON 0xaa	/* Linux PAGE_POISON */

#ifdef CONFIG_SLAB_DEBUG

/* page_debug_meta_bytes - metadata for nr_pfn frames (pmm_init). */
unsigned long page_debug_meta_bytes(unsigned long nr_pfn);
/* page_debug_init - use meta (page_debug_meta_bytes, zeroed here).
 * Context: boot, once. */
void page_debug_init(void *meta, unsigned long nr_pfn);

/* page_debug_poison - fill the block at addr (still allocated, ours)
 * with PAGE_POISON.  Context: any.  Locking: pmm_lock not held. */
void page_debug_poison(void *addr, unsigned int order);
/* __page_debug_freed - frames [pfn, pfn+n) are now free and poisoned,
 * freed from caller_ip.  Locking: pmm_lock held. */
void __page_debug_freed(unsigned long pfn, unsigned long n,
			unsigned long caller_ip);
/* __page_debug_take - frames [pfn, pfn+n) were just allocated: set bit
 * i of check[] (n bits) for each page that was poisoned, and forget the
 * poison.  Locking: pmm_lock held. */
void __page_debug_take(unsigned long pfn, unsigned long n,
		       unsigned long *check);
/* page_debug_check - check the pages check[] marks, report any that
 * were written while free, record caller_ip as the allocator.
 * Locking: pmm_lock not held. */
void page_debug_check(void *addr, unsigned long pfn, unsigned long n,
		      const unsigned long *check, unsigned long caller_ip);
/* page_debug_report_double_free - frame pfn was found free by a
 * free_pages() from caller_ip: report with its last sites. */
#else /* !CONFIG_SLAB_DEBUG */

static inline unsigned long page_debug_meta_bytes(unsigned long nr_pfn)
{
	return 0;
}
static inline void page_debug_init(void *meta, unsigned long nr_pfn)
{
}
static inline void page_debug_poison(void *addr, unsigned int order)
{
}
static inline void __page_debug_freed(unsigned long pfn, unsigned long n,
				      unsigned long caller_ip)
{
}
static inline void __page_debug_take(unsigned long pfn, unsigned long n,
				     unsigned long *check)
{
}
static inline void page_debug_check(void *addr, unsigned long pfn,
				    unsigned long n,
				    const unsigned long *check,
				    unsigned long caller_ip)
{
}
#endif /* CONFIG_SLAB_DEBUG */

/* page_debug_report_double_free - frame pfn was found free by a
 * free_pages() from caller_ip: report it, with the frame's last sites
 * when CONFIG_SLAB_DEBUG keeps them.  Locking: pmm_lock not held. */
void page_debug_report_double_free(void *addr, unsigned long pfn,
				   unsigned long caller_ip);

#endif /* KERNEL_MM_PAGE_DEBUG_H */
