/*
 * tests/kernel/test_slab_debug.c - the slab_debug suite: memory bugs
 * injected on purpose are reported with both sites (kernel/mm/
 * slab_debug.c, page_debug.c, mm_report.c).
 *
 * Scenario: the test runner's thread alone, on any CPU (it may migrate
 * under rt: every test first drains the per-CPU arrays, so the object
 * it looks for is back in its slab wherever the next allocation runs).
 * Each test allocates in alloc_site() and frees in free_site() (noinline
 * functions of this file), injects one bug - a write after kfree, a
 * second kfree, a write past the requested size, a write to a freed
 * page or to a freed task stack's page - with mm_report_expect(true)
 * armed, and checks mm_report_count() and the last report: its kind,
 * address, first bad byte and that its alloc and free tracks name
 * alloc_site and free_site.  Reports print "(expected)", which the
 * harness does not count as a crash; a report without it in any other
 * suite fails the run ("BUG: slab: ...").
 * Without CONFIG_SLAB_DEBUG (make SLAB_DEBUG=0) the suite skips.
 * Linux counterpart: lib/slub_kunit.c, mm/kasan/kasan_test.c.
 */
#include "kernel/ktest.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/mm_report.h"
#include "kernel/mm/page_debug.h"
#include "kernel/mm/slab_debug.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "arch/x86_64/arch.h"
#include "lib/string.h"

/* kmalloc-64 holds about 35 objects a page here; 20000 of them is more
 * than the test RAM's whole kmalloc-64 population could be */
#define MAX_CHAIN 20000

/* The barriers keep the calls from becoming tail jumps, which would
 * leave no frame of these functions on the stack. */
static noinline void *alloc_site(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void free_site(void *p)
{
	kfree(p);
	barrier();
}

/* skip_without_debug - true (and the test skipped) without SLAB_DEBUG. */
static bool skip_without_debug(struct ktest *t)
{
#ifndef CONFIG_SLAB_DEBUG
	ktest_skip(t, "built with SLAB_DEBUG=0");
	return true;
#else
	return false;
#endif
}

static void expect_sites(struct ktest *t, const struct mm_report *r)
{
	KTEST_EXPECT(t, mm_track_has(&r->alloc, alloc_site),
		     "the alloc track names alloc_site (ip[0] %lx)",
		     r->alloc.ip[0]);
	KTEST_EXPECT(t, mm_track_has(&r->free, free_site),
		     "the free track names free_site (ip[0] %lx)",
		     r->free.ip[0]);
}

static void test_write_after_kfree_reported_at_next_kmalloc(struct ktest *t)
{
	unsigned long n0 = mm_report_count();
	struct mm_report r;
	u8 *p;

	if (skip_without_debug(t))
		return;
	p = alloc_site(64);
	KTEST_ASSERT(t, p, "kmalloc(64), got NULL");
	free_site(p);
	mm_report_expect(true);
	p[8] = 0x41;			/* the use after free */
	KTEST_EXPECT(t, slab_debug_meet_again(64, p, MAX_CHAIN), "kmalloc(64) handed %p out again",
		     p);
	mm_report_expect(false);
	KTEST_ASSERT_EQ(t, mm_report_count(), n0 + 1);
	KTEST_ASSERT(t, mm_report_last(&r), "a last report");
	KTEST_EXPECT_EQ(t, r.kind, MM_REPORT_POISON);
	KTEST_EXPECT(t, r.addr == p, "report about %p, saw %p", p, r.addr);
	KTEST_EXPECT_EQ(t, r.offset, 8);
	KTEST_EXPECT_EQ(t, r.seen, 0x41);
	KTEST_EXPECT_EQ(t, r.want, 0x6b);
	KTEST_EXPECT(t, r.expected, "marked expected");
	expect_sites(t, &r);
}

static void test_double_kfree_reported_with_both_sites(struct ktest *t)
{
	unsigned long n0 = mm_report_count();
	struct mm_report r;
	void *p, *a, *b;

	if (skip_without_debug(t))
		return;
	p = alloc_site(96);
	KTEST_ASSERT(t, p, "kmalloc(96), got NULL");
	free_site(p);
	mm_report_expect(true);
	kfree(p);			/* the double free */
	mm_report_expect(false);
	KTEST_ASSERT_EQ(t, mm_report_count(), n0 + 1);
	KTEST_ASSERT(t, mm_report_last(&r), "a last report");
	KTEST_EXPECT_EQ(t, r.kind, MM_REPORT_DOUBLE_FREE);
	KTEST_EXPECT(t, r.addr == p, "report about %p, saw %p", p, r.addr);
	expect_sites(t, &r);
	KTEST_EXPECT(t, mm_track_has(&r.now,
				     test_double_kfree_reported_with_both_sites),
		     "found by this test (ip[0] %lx)", r.now.ip[0]);
	/* the ignored free left the cache sound */
	a = kmalloc(96, GFP_KERNEL);
	b = kmalloc(96, GFP_KERNEL);
	KTEST_EXPECT(t, a && b && a != b, "two distinct objects, saw %p %p", a,
		     b);
	kfree(a);
	kfree(b);
	KTEST_EXPECT_EQ(t, mm_report_count(), n0 + 1);
}

static void test_red_zone_overrun_reported_at_kfree(struct ktest *t)
{
	unsigned long n0 = mm_report_count();
	struct mm_report r;
	u8 *p;

	if (skip_without_debug(t))
		return;
	/* past the request, inside the size class (kmalloc-64) */
	p = alloc_site(40);
	KTEST_ASSERT(t, p, "kmalloc(40), got NULL");
	mm_report_expect(true);
	p[40] = 0;
	free_site(p);
	KTEST_ASSERT_EQ(t, mm_report_count(), n0 + 1);
	KTEST_ASSERT(t, mm_report_last(&r), "a last report");
	KTEST_EXPECT_EQ(t, r.kind, MM_REPORT_REDZONE);
	KTEST_EXPECT_EQ(t, r.offset, 40);
	KTEST_EXPECT(t, mm_track_has(&r.alloc, alloc_site), "alloc site");
	KTEST_EXPECT(t, mm_track_has(&r.now, free_site), "found at free_site");
	/* past the size class: the red zone proper */
	p = alloc_site(64);
	KTEST_ASSERT(t, p, "kmalloc(64), got NULL");
	p[64 + 3] = 0x11;
	free_site(p);
	mm_report_expect(false);
	KTEST_ASSERT_EQ(t, mm_report_count(), n0 + 2);
	KTEST_ASSERT(t, mm_report_last(&r), "a last report");
	KTEST_EXPECT_EQ(t, r.kind, MM_REPORT_REDZONE);
	KTEST_EXPECT_EQ(t, r.offset, 67);
	KTEST_EXPECT_EQ(t, r.seen, 0x11);
}

/* take_all_pages - allocate every free page (chained through their first
 * word: each allocation runs the poison check), then free them all. */
static void take_all_pages(void)
{
	void *chain = NULL, *p;

	while ((p = alloc_page())) {
		*(void **)p = chain;
		chain = p;
	}
	while (chain) {
		p = chain;
		chain = *(void **)p;
		free_page(p);
	}
}

static void test_write_to_freed_page_reported_at_reuse(struct ktest *t)
{
	unsigned long n0 = mm_report_count(), free0 = pmm_nr_free_pages();
	struct mm_report r;
	u8 *page;

	if (skip_without_debug(t))
		return;
	page = alloc_page();
	KTEST_ASSERT(t, page, "a page, got NULL");
	free_page(page);
	mm_report_expect(true);
	page[123] = 0x5a;
	take_all_pages();
	mm_report_expect(false);
	KTEST_ASSERT_EQ(t, mm_report_count(), n0 + 1);
	KTEST_ASSERT(t, mm_report_last(&r), "a last report");
	KTEST_EXPECT_EQ(t, r.kind, MM_REPORT_PAGE_POISON);
	KTEST_EXPECT(t, r.addr == page, "report about %p, saw %p", page,
		     r.addr);
	KTEST_EXPECT_EQ(t, r.offset, 123);
	KTEST_EXPECT_EQ(t, r.want, PAGE_POISON);
	KTEST_EXPECT(t, mm_track_has(&r.free,
				     test_write_to_freed_page_reported_at_reuse),
		     "freed here (ip %lx)", r.free.ip[0]);
	KTEST_EXPECT_EQ(t, pmm_nr_free_pages(), free0);
}

/* A freed task stack is unmapped (test_memory_kstack.c) and its pages
 * poisoned: a write through the direct-map alias of one of them, the
 * way a stale pointer would land, is reported when the page is reused. */
static void test_write_to_freed_stack_page_reported_at_reuse(struct ktest *t)
{
	unsigned long n0 = mm_report_count();
	struct mm_report r;
	u64 phys;
	u8 *stack, *alias;

	if (skip_without_debug(t))
		return;
	stack = kstack_alloc();
	KTEST_ASSERT(t, stack, "kstack_alloc, got NULL");
	KTEST_ASSERT(t, arch_query_page((unsigned long)stack, &phys, NULL) == 0,
		     "the stack's first page is mapped");
	alias = phys_to_virt(phys);
	kstack_free(stack);
	mm_report_expect(true);
	alias[8] = 0x77;
	take_all_pages();
	mm_report_expect(false);
	KTEST_ASSERT_EQ(t, mm_report_count(), n0 + 1);
	KTEST_ASSERT(t, mm_report_last(&r), "a last report");
	KTEST_EXPECT_EQ(t, r.kind, MM_REPORT_PAGE_POISON);
	KTEST_EXPECT(t, r.addr == alias, "report about %p, saw %p", alias,
		     r.addr);
	KTEST_EXPECT_EQ(t, r.offset, 8);
}

static void test_page_double_free_reported_with_both_sites(struct ktest *t)
{
	unsigned long n0 = mm_report_count(), free0;
	struct mm_report r;
	void *page;

	if (skip_without_debug(t))
		return;
	page = alloc_page();
	KTEST_ASSERT(t, page, "a page, got NULL");
	free_page(page);
	free0 = pmm_nr_free_pages();
	mm_report_expect(true);
	free_page(page);
	mm_report_expect(false);
	KTEST_ASSERT_EQ(t, mm_report_count(), n0 + 1);
	KTEST_ASSERT(t, mm_report_last(&r), "a last report");
	KTEST_EXPECT_EQ(t, r.kind, MM_REPORT_PAGE_DOUBLE_FREE);
	KTEST_EXPECT(t, mm_track_has(&r.alloc,
			test_page_double_free_reported_with_both_sites) &&
		     mm_track_has(&r.free,
			test_page_double_free_reported_with_both_sites),
		     "alloc and free sites in this test (%lx, %lx)",
		     r.alloc.ip[0], r.free.ip[0]);
	KTEST_EXPECT_EQ(t, pmm_nr_free_pages(), free0);
}

KTEST_SUITE(slab_debug,
	    KTEST_CASE(test_write_after_kfree_reported_at_next_kmalloc),
	    KTEST_CASE(test_double_kfree_reported_with_both_sites),
	    KTEST_CASE(test_red_zone_overrun_reported_at_kfree),
	    KTEST_CASE(test_write_to_freed_page_reported_at_reuse),
	    KTEST_CASE(test_write_to_freed_stack_page_reported_at_reuse),
	    KTEST_CASE(test_page_double_free_reported_with_both_sites));
