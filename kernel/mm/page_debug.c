/*
 * kernel/mm/page_debug.c - page poisoning and the last alloc/free site
 * of every page frame (rules in page_debug.h).
 *
 * One record per frame, in pmm_init's metadata: the callers of the last
 * alloc_pages() and free_pages() that covered it, and whether it holds
 * poison now.  `poisoned` changes only under pmm_lock; the sites are
 * written by the block's owner (the allocator after taking it, the
 * freer before giving it back) and read by reports, racily.
 * Linux counterpart: mm/page_poison.c, mm/page_owner.c (one caller
 * here instead of a stack depot).
 */
#include "kernel/mm/page_debug.h"
#include "kernel/mm/mm_report.h"
#include "kernel/mm/pmm.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/arch.h"
#include "lib/bitmap.h"
#include "lib/string.h"

#ifdef CONFIG_SLAB_DEBUG

struct page_debug_rec {
	unsigned long alloc_ip;		/* caller of the last alloc_pages */
	unsigned long free_ip;		/* caller of the last free_pages */
	int alloc_pid, free_pid;	/* -1: none */
	bool poisoned;			/* under pmm_lock */
};

static struct page_debug_rec *recs;	/* written once by page_debug_init */

unsigned long page_debug_meta_bytes(unsigned long nr_pfn)
{
	return nr_pfn * sizeof(struct page_debug_rec);
}

void __init page_debug_init(void *meta, unsigned long nr_pfn)
{
	recs = meta;
	for (unsigned long pfn = 0; pfn < nr_pfn; pfn++)
		recs[pfn] = (struct page_debug_rec){ .alloc_pid = -1,
						     .free_pid = -1 };
}

static int current_pid(void)
{
	struct task_struct *tsk = current_or_null();

	return tsk ? tsk->pid : 0;
}

void page_debug_poison(void *addr, unsigned int order)
{
	memset(addr, PAGE_POISON, PAGE_SIZE << order);
}

void __page_debug_freed(unsigned long pfn, unsigned long n,
			unsigned long caller_ip)
{
	int pid = current_pid();

	for (unsigned long i = 0; i < n; i++) {
		recs[pfn + i].poisoned = true;
		recs[pfn + i].free_ip = caller_ip;
		recs[pfn + i].free_pid = pid;
	}
}

void __page_debug_take(unsigned long pfn, unsigned long n,
		       unsigned long *check)
{
	for (unsigned long i = 0; i < n; i++) {
		if (recs[pfn + i].poisoned)
			__set_bit(i, check);
		recs[pfn + i].poisoned = false;
	}
}

/* rec_tracks - a report's alloc/free tracks from frame pfn's record. */
static void rec_tracks(struct mm_report *r, unsigned long pfn)
{
	mm_track_clear(&r->alloc);
	mm_track_clear(&r->free);
	if (!recs)
		return;
	r->alloc.ip[0] = recs[pfn].alloc_ip;
	r->alloc.pid = recs[pfn].alloc_pid;
	r->free.ip[0] = recs[pfn].free_ip;
	r->free.pid = recs[pfn].free_pid;
}

/* first_bad - offset of the first byte of the page that is not poison,
 * or -1; word at a time. */
static long first_bad(const u8 *p)
{
	const unsigned long word = 0x0101010101010101UL * PAGE_POISON;

	for (long i = 0; i < (long)PAGE_SIZE; i += 8)
		if (*(const unsigned long *)(p + i) != word)
			for (long j = i;; j++)
				if (p[j] != PAGE_POISON)
					return j;
	return -1;
}

void page_debug_check(void *addr, unsigned long pfn, unsigned long n,
		      const unsigned long *check, unsigned long caller_ip)
{
	int pid = current_pid();

	for (unsigned long i = 0; i < n; i++) {
		u8 *page = (u8 *)addr + i * PAGE_SIZE;
		long off = test_bit(i, check) ? first_bad(page) : -1;

		if (off >= 0) {
			struct mm_report r = {
				.kind = MM_REPORT_PAGE_POISON, .addr = page,
				.cache = "page", .offset = off,
				.seen = page[off], .want = PAGE_POISON,
			};

			rec_tracks(&r, pfn + i);
			mm_track_clear(&r.now);
			r.now.ip[0] = caller_ip;
			r.now.pid = pid;
			mm_report(&r);
		}
		recs[pfn + i].alloc_ip = caller_ip;
		recs[pfn + i].alloc_pid = pid;
	}
}

#else
static void rec_tracks(struct mm_report *r, unsigned long pfn)
{
	mm_track_clear(&r->alloc);
	mm_track_clear(&r->free);
}
#endif /* CONFIG_SLAB_DEBUG */

/* page_debug_report_double_free - see page_debug.h.  Context: any.
 * Locking: pmm_lock not held. */
void page_debug_report_double_free(void *addr, unsigned long pfn,
				   unsigned long caller_ip)
{
	struct mm_report r = {
		.kind = MM_REPORT_PAGE_DOUBLE_FREE, .addr = addr,
		.cache = "page", .offset = -1,
	};
	struct task_struct *tsk = current_or_null();

	rec_tracks(&r, pfn);
	mm_track_clear(&r.now);
	r.now.ip[0] = caller_ip;
	r.now.pid = tsk ? tsk->pid : 0;
	mm_report(&r);
}
