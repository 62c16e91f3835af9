/*
 * kernel/mm/pmm.c - the physical page allocator: one bit per page frame,
 * allocation by next fit.
 *
 * Two bitmaps cover every frame from 0 to the top of usable RAM:
 *   reserved_map  bit set: the allocator never hands this frame out
 *                 (not usable RAM, or held back: first MiB, kernel
 *                 image, boot modules, boot information, RSDP, and the
 *                 allocator's own metadata);
 *   used_map      bit set: allocated, reserved, or offline (RAM above
 *                 4 GiB until the direct map covers it).
 * A block of 2^order frames is allocated only at a 2^order-aligned frame,
 * so blocks never straddle and free_pages() can check every bit of the
 * block it is given: freeing a free or a reserved frame is a reported
 * error that changes nothing.  The search starts where the last one
 * ended (next fit), so a run of allocations walks the bitmap once.
 * The ACPI reclaim/NVS areas are not "usable" in the memory map and so
 * are never managed at all.
 * Linux counterpart: mm/memblock.c (the early reservations) and
 * mm/page_alloc.c; rtk has no buddy lists, zones, or reclaim: a bitmap
 * keeps the allocator short and makes double-free checks exact.
 * Poison and the sites of each frame's last alloc/free (CONFIG_SLAB_DEBUG)
 * are kernel/mm/page_debug.c's; a double free is reported there.
 * Spec: Multiboot 0.6.96 3.3 / Multiboot2 3.6.8 (memory map types).
 */
#include "kernel/mm/pmm.h"
#include "kernel/mm/mm_lock.h"
#include "kernel/mm/page_debug.h"
#include "kernel/mm/fault_inject.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "arch/x86_64/arch.h"
#include "lib/bitmap.h"
#include "lib/bug.h"
#include "lib/string.h"

#define PMM_MAX_PHYS (64ULL << 30)	/* bounds the metadata: 0.2 % of RAM */
#define LOW_RESERVED (1ULL << 20)	/* BIOS data, EBDA, ROMs, AP trampoline */
#define MAX_HOLDS 16			/* 4 fixed + 8 modules + metadata + spare */

/* Linker symbols (linker.ld): physical bounds of the loaded image. */
extern char __image_phys_start[], __bss_end_phys[];

struct phys_range {
	u64 start, end;		/* [start, end), page aligned */
};

/* Protected by pmm_lock: */
static struct mm_lock pmm_lock;
static unsigned long *used_map;
static unsigned long *reserved_map;
static unsigned long next_pfn;		/* next-fit hint */
static struct pmm_stats stats;

/* Written once by pmm_init: */
static void **page_private;		/* one word per frame, owner's use */
static unsigned long max_pfn;		/* frames tracked: [0, max_pfn) */
static struct phys_range holds[MAX_HOLDS];
static int nr_holds;

unsigned long pmm_warn_count;

static void __init hold_range(u64 start, u64 end)
{
	if (end <= start)
		return;
	BUG_ON(nr_holds == MAX_HOLDS);
	holds[nr_holds].start = ALIGN_DOWN(start, PAGE_SIZE);
	holds[nr_holds].end = ALIGN_UP(end, PAGE_SIZE);
	nr_holds++;
}

static void __init collect_holds(void)
{
	hold_range(0, LOW_RESERVED);
	hold_range((uintptr_t)__image_phys_start, (uintptr_t)__bss_end_phys);
	for (int i = 0; i < boot_info.nr_modules; i++)
		hold_range(boot_info.modules[i].start, boot_info.modules[i].end);
	hold_range(boot_info.info_phys, boot_info.info_phys + boot_info.info_len);
	/* 36 bytes: the ACPI 2.0 RSDP (ACPI 6.5, 5.2.5.3) */
	if (boot_info.rsdp_phys)
		hold_range(boot_info.rsdp_phys, boot_info.rsdp_phys + 36);
}

/* first_hold_overlapping - a hold that meets [start, end), or NULL. */
static const struct phys_range *first_hold_overlapping(u64 start, u64 end)
{
	for (int i = 0; i < nr_holds; i++)
		if (holds[i].start < end && start < holds[i].end)
			return &holds[i];
	return NULL;
}

/*
 * find_meta_space - bytes of usable RAM below 4 GiB (reachable through
 * the boot direct map) that no hold covers, like memblock_alloc().
 */
static u64 __init find_meta_space(u64 bytes)
{
	for (int i = 0; i < boot_info.nr_mmap; i++) {
		const struct boot_mem_region *r = &boot_info.mmap[i];
		u64 lo = max(ALIGN_UP(r->base, PAGE_SIZE), LOW_RESERVED);
		u64 hi = min(ALIGN_DOWN(r->base + r->len, PAGE_SIZE), BOOT_MAP_END);
		const struct phys_range *h;

		if (r->type != BOOT_MEM_USABLE)
			continue;
		while (lo + bytes <= hi) {
			h = first_hold_overlapping(lo, lo + bytes);
			if (!h)
				return lo;
			lo = h->end;
		}
	}
	panic("pmm: no room for %llu bytes of page-allocator metadata",
	      (unsigned long long)bytes);
}

/* mark_frames - set or clear map bits for the frames in [start, end). */
static void mark_frames(unsigned long *map, u64 start, u64 end, bool set)
{
	unsigned long pfn = start >> PAGE_SHIFT, last = end >> PAGE_SHIFT;

	for (last = min(last, max_pfn); pfn < last; pfn++) {
		if (set)
			__set_bit(pfn, map);
		else
			__clear_bit(pfn, map);
	}
}

static unsigned long count_clear(const unsigned long *map)
{
	return max_pfn - bitmap_weight(map, max_pfn);
}

/*
 * pmm_init - see pmm.h.  Steps:
 *   [1] the top of usable RAM bounds the bitmaps (RAM above
 *       PMM_MAX_PHYS is ignored, with a message);
 *   [2] collect the ranges of usable RAM to hold back;
 *   [3] place the metadata (two bitmaps, the private words) in RAM no
 *       hold covers, and hold it too;
 *   [4] everything starts used and reserved; usable regions become
 *       managed, then every non-usable region is reserved again (so a
 *       map with overlapping entries errs on the safe side), then the
 *       holds;
 *   [5] managed frames below 4 GiB become free; those above stay
 *       offline until pmm_online_high_memory().
 * Context: boot, once, before anything allocates.
 */
void __init pmm_init(void)
{
	u64 top = 0, ignored = 0, meta, map_bytes, priv_bytes, dbg_bytes;

	for (int i = 0; i < boot_info.nr_mmap; i++) {	/* [1] */
		const struct boot_mem_region *r = &boot_info.mmap[i];
		u64 end = ALIGN_DOWN(r->base + r->len, PAGE_SIZE);

		if (r->type != BOOT_MEM_USABLE)
			continue;
		if (end > PMM_MAX_PHYS)
			ignored += end - max(r->base, PMM_MAX_PHYS);
		top = max(top, min(end, PMM_MAX_PHYS));
	}
	if (!top)
		panic("pmm: the boot memory map lists no usable RAM");
	max_pfn = top >> PAGE_SHIFT;
	stats.ignored_pages = ignored >> PAGE_SHIFT;
	if (ignored)
		pr_info("pmm: ignoring %llu MiB of RAM above %llu GiB\n",
			(unsigned long long)(ignored >> 20),
			(unsigned long long)(PMM_MAX_PHYS >> 30));

	collect_holds();				/* [2] */

	map_bytes = BITS_TO_LONGS(max_pfn) * sizeof(unsigned long);	/* [3] */
	priv_bytes = max_pfn * sizeof(void *);
	dbg_bytes = page_debug_meta_bytes(max_pfn);
	meta = find_meta_space(2 * map_bytes + priv_bytes + dbg_bytes);
	used_map = phys_to_virt(meta);
	reserved_map = phys_to_virt(meta + map_bytes);
	page_private = phys_to_virt(meta + 2 * map_bytes);
	page_debug_init(phys_to_virt(meta + 2 * map_bytes + priv_bytes), max_pfn);
	hold_range(meta, meta + 2 * map_bytes + priv_bytes + dbg_bytes);

	memset(used_map, 0xff, map_bytes);		/* [4] */
	memset(reserved_map, 0xff, map_bytes);
	memset(page_private, 0, max_pfn * sizeof(void *));
	for (int i = 0; i < boot_info.nr_mmap; i++) {
		const struct boot_mem_region *r = &boot_info.mmap[i];

		if (r->type == BOOT_MEM_USABLE)
			mark_frames(reserved_map, ALIGN_UP(r->base, PAGE_SIZE),
				    ALIGN_DOWN(r->base + r->len, PAGE_SIZE), false);
	}
	for (int i = 0; i < boot_info.nr_mmap; i++) {
		const struct boot_mem_region *r = &boot_info.mmap[i];

		if (r->type != BOOT_MEM_USABLE)
			mark_frames(reserved_map, ALIGN_DOWN(r->base, PAGE_SIZE),
				    ALIGN_UP(r->base + r->len, PAGE_SIZE), true);
	}
	stats.ram_pages = count_clear(reserved_map);
	for (int i = 0; i < nr_holds; i++)
		mark_frames(reserved_map, holds[i].start, holds[i].end, true);
	stats.reserved_pages = stats.ram_pages - count_clear(reserved_map);

	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {	/* [5] */
		if (test_bit(pfn, reserved_map))
			continue;
		if (pfn < (BOOT_MAP_END >> PAGE_SHIFT)) {
			__clear_bit(pfn, used_map);
			stats.free_pages++;
		} else {
			stats.offline_pages++;
		}
	}
	next_pfn = LOW_RESERVED >> PAGE_SHIFT;
	pr_info("pmm: %lu MiB usable RAM, %lu MiB free, %lu KiB held back "
		"(first MiB, kernel, boot data, allocator)\n",
		stats.ram_pages >> (20 - PAGE_SHIFT),
		stats.free_pages >> (20 - PAGE_SHIFT),
		stats.reserved_pages << (PAGE_SHIFT - 10));
	if (stats.offline_pages)
		pr_info("pmm: %lu MiB above 4 GiB come online with the direct map\n",
			stats.offline_pages >> (20 - PAGE_SHIFT));
}

/*
 * pmm_online_high_memory - see pmm.h.
 * Context: boot, once, after the direct map was extended (mmu.c).
 * Locking: takes pmm_lock.
 */
void __init pmm_online_high_memory(void)
{
	unsigned long flags = mm_lock_irqsave(&pmm_lock);

	for (unsigned long pfn = BOOT_MAP_END >> PAGE_SHIFT; pfn < max_pfn; pfn++) {
		if (test_bit(pfn, reserved_map) || !test_bit(pfn, used_map))
			continue;
		__clear_bit(pfn, used_map);
		stats.free_pages++;
		stats.offline_pages--;
	}
	mm_unlock_irqrestore(&pmm_lock, flags);
}

/* block_is_free - are all n frames from pfn (aligned to n) free? */
static bool block_is_free(unsigned long pfn, unsigned long n)
{
	unsigned long w = BIT_WORD(pfn);

	if (n < BITS_PER_LONG)
		return !((used_map[w] >> (pfn % BITS_PER_LONG)) & ((1UL << n) - 1));
	for (unsigned long i = 0; i < n / BITS_PER_LONG; i++)
		if (used_map[w + i])
			return false;
	return true;
}

/* scan_free_block - first free aligned block of n frames in [from, to),
 * or ~0UL.  A full word is skipped in one step. */
static unsigned long scan_free_block(unsigned long from, unsigned long to,
				     unsigned long n)
{
	unsigned long pfn = ALIGN_UP(from, n);

	while (pfn + n <= to) {
		if (n < BITS_PER_LONG && used_map[BIT_WORD(pfn)] == ~0UL) {
			pfn = ALIGN_UP(pfn + 1, BITS_PER_LONG);
			continue;
		}
		if (block_is_free(pfn, n))
			return pfn;
		pfn += n;
	}
	return ~0UL;
}

/*
 * alloc_pages - see pmm.h.  Next fit: from the hint to the end, then
 * from the start.
 * Locking: takes pmm_lock (after any slab cache lock: cache -> pmm).
 */
void *alloc_pages(unsigned int order)
{
	unsigned long caller = (unsigned long)__builtin_return_address(0);
	unsigned long check[BITS_TO_LONGS(1UL << PMM_MAX_ORDER)] = { 0 };
	unsigned long n = 1UL << order, pfn, flags;
	void *addr;

	if (WARN(order > PMM_MAX_ORDER, "alloc_pages: order %u > %d", order,
		 PMM_MAX_ORDER) || should_fail_alloc_page(order))
		return NULL;
	flags = mm_lock_irqsave(&pmm_lock);
	pfn = scan_free_block(next_pfn, max_pfn, n);
	if (pfn == ~0UL)
		pfn = scan_free_block(0, max_pfn, n);
	if (pfn != ~0UL) {
		mark_frames(used_map, (u64)pfn << PAGE_SHIFT,
			    (u64)(pfn + n) << PAGE_SHIFT, true);
		stats.free_pages -= n;
		next_pfn = pfn + n;
		__page_debug_take(pfn, n, check);
	}
	mm_unlock_irqrestore(&pmm_lock, flags);
	if (pfn == ~0UL)
		return NULL;
	addr = phys_to_virt((u64)pfn << PAGE_SHIFT);
	page_debug_check(addr, pfn, n, check, caller);	/* outside the lock */
	return addr;
}

/* addr_to_pfn - frame of a direct-map address of tracked RAM, or ~0UL. */
static unsigned long addr_to_pfn(const void *addr)
{
	uintptr_t v = (uintptr_t)addr;

	if (v < DIRECT_MAP_BASE ||
	    v - DIRECT_MAP_BASE >= (u64)max_pfn << PAGE_SHIFT)
		return ~0UL;
	return (v - DIRECT_MAP_BASE) >> PAGE_SHIFT;
}

/* block_allocated - are all n frames from pfn allocated, none reserved?
 * Unlocked, so only a hint: free_pages checks again under pmm_lock. */
static bool block_allocated(unsigned long pfn, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (test_bit(pfn + i, reserved_map) ||
		    !test_bit(pfn + i, used_map))
			return false;
	return true;
}

/*
 * free_pages - see pmm.h.  Steps: [1] a block that looks allocated is
 * poisoned (page_debug.h; outside the lock, the block is still ours);
 * [2] under pmm_lock every frame is checked before any is changed, then
 * all are freed; [3] a bad free is reported after pmm_lock is dropped.
 * Locking: takes pmm_lock.
 */
void free_pages(void *addr, unsigned int order)
{
	unsigned long caller = (unsigned long)__builtin_return_address(0);
	unsigned long pfn = addr_to_pfn(addr), n = 1UL << order, flags, i;
	unsigned long bad_pfn = pfn;
	const char *why = NULL;

	if (order > PMM_MAX_ORDER || pfn == ~0UL || pfn + n > max_pfn ||
	    !IS_ALIGNED((uintptr_t)addr, PAGE_SIZE << order)) {
		why = "not a block the page allocator hands out";
		goto out_warn;
	}
	if (block_allocated(pfn, n))					/* [1] */
		page_debug_poison(addr, order);
	flags = mm_lock_irqsave(&pmm_lock);				/* [2] */
	for (i = 0; i < n && !why; i++) {
		bad_pfn = pfn + i;
		if (test_bit(pfn + i, reserved_map))
			why = "reserved memory (never allocated)";
		else if (!test_bit(pfn + i, used_map))
			why = "already free (double free?)";
	}
	if (!why) {
		for (i = 0; i < n; i++) {
			__clear_bit(pfn + i, used_map);
			page_private[pfn + i] = NULL;
		}
		stats.free_pages += n;
		__page_debug_freed(pfn, n, caller);
	}
	mm_unlock_irqrestore(&pmm_lock, flags);
	if (!why)
		return;
	if (!test_bit(bad_pfn, reserved_map)) {				/* [3] */
		pmm_warn_count++;
		page_debug_report_double_free(addr, bad_pfn, caller);
		return;
	}
out_warn:
	pmm_warn_count++;
	WARN(1, "free_pages(%p, %u): %s", addr, order, why);
}

void **pmm_page_private(const void *addr)
{
	unsigned long pfn = addr_to_pfn(addr);

	if (pfn == ~0UL || test_bit(pfn, reserved_map))
		return NULL;
	return &page_private[pfn];
}

void pmm_get_stats(struct pmm_stats *st)
{
	unsigned long flags = mm_lock_irqsave(&pmm_lock);

	*st = stats;
	mm_unlock_irqrestore(&pmm_lock, flags);
}

unsigned long pmm_nr_free_pages(void)
{
	return READ_ONCE(stats.free_pages);
}

u64 pmm_phys_end(void)
{
	return (u64)max_pfn << PAGE_SHIFT;
}
