/*
 * tests/kernel/test_memory.c - the memory suite: the page allocator,
 * kmalloc and object caches (kernel/mm/pmm.c, kernel/mm/slab.c).
 *
 * Scenario: one CPU, the test runner's thread, nothing else allocating.
 * Allocation tests fill every block with a pattern derived from its
 * index and check all of them afterwards, so overlapping blocks show up
 * as a wrong byte.  The exhaustion test takes every free page (chained
 * through their first word, so it needs no memory of its own), checks
 * that the number taken matches the free count and that kmalloc fails
 * cleanly meanwhile, and gives them all back.  Bad frees must be
 * reported (pmm_warn_count, slab_warn_count rise by one each; the
 * report, marked "(expected)" through mm_report_expect, is in the log) and must leave the allocators intact.
 * The page-table side of memory has its own suites: memory_wx
 * (test_memory_wx.c, W^X kernel mappings) and memory_kstack
 * (test_memory_kstack.c, guarded kernel stacks).
 * Linux counterpart: lib/test_meminit.c, mm/kfence tests.
 * Article: none (the allocators are the substrate the article assumes).
 */
#include "kernel/ktest.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/mm_report.h"
#include "lib/string.h"

extern char __text_start[], __data_start[];

#define MAX_PTRS 200

static void *ptrs[MAX_PTRS];
static size_t sizes[MAX_PTRS];

static u8 pattern(int i, size_t off)
{
	return (u8)(i * 37 + off * 11 + 1);
}

static unsigned long slab_objs_in_use(void)
{
	struct kmem_cache_info ci;
	unsigned long n = 0;

	for (int i = 0; kmem_cache_info_get(i, &ci) == 0; i++)
		n += ci.objs_in_use;
	return n;
}

static size_t expected_align(size_t size)
{
	size_t a = KMALLOC_MIN_SIZE;

	if (size > KMALLOC_MAX_CACHE_SIZE)
		return PAGE_SIZE;
	while (a < size)
		a <<= 1;
	return a;
}

static void test_alloc_pages_blocks_are_aligned_and_distinct(struct ktest *t)
{
	unsigned long free0 = pmm_nr_free_pages();
	int n = 0;

	for (unsigned int order = 0; order <= 5; order++) {
		for (int k = 0; k < 3; k++, n++) {
			u8 *p = alloc_pages(order);

			KTEST_ASSERT(t, p, "order-%u block, got NULL", order);
			KTEST_EXPECT(t, IS_ALIGNED((uintptr_t)p, PAGE_SIZE << order),
				     "order-%u block aligned to %lu, saw %p",
				     order, PAGE_SIZE << order, p);
			ptrs[n] = p;
			sizes[n] = PAGE_SIZE << order;
			for (size_t off = 0; off < sizes[n]; off += 64)
				p[off] = pattern(n, off);
		}
	}
	KTEST_EXPECT_EQ(t, pmm_nr_free_pages(), free0 - 3 * 63);
	for (int i = 0; i < n; i++) {
		for (size_t off = 0; off < sizes[i]; off += 64) {
			u8 b = ((u8 *)ptrs[i])[off];

			if (b != pattern(i, off)) {
				KTEST_EXPECT(t, false, "block %d byte %zu: %#x, saw %#x",
					     i, off, pattern(i, off), b);
				break;
			}
		}
		free_pages(ptrs[i], __builtin_ctzl(sizes[i] / PAGE_SIZE));
	}
	KTEST_EXPECT_EQ(t, pmm_nr_free_pages(), free0);
}

static void test_page_exhaustion_returns_null_and_recovers(struct ktest *t)
{
	unsigned long free0 = pmm_nr_free_pages(), taken = 0;
	void **chain = NULL, **p;
	void *big;

	while ((p = alloc_page())) {
		*p = chain;
		chain = p;
		taken++;
	}
	KTEST_EXPECT(t, taken <= free0 && taken + 16 >= free0,
		     "took about the %lu free pages, took %lu", free0, taken);
	KTEST_EXPECT_EQ(t, pmm_nr_free_pages(), 0);
	KTEST_EXPECT(t, alloc_pages(3) == NULL, "order-3 alloc fails when empty");
	big = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
	KTEST_EXPECT(t, big == NULL, "kmalloc(12 KiB) NULL when empty, saw %p", big);
	while (chain) {
		p = chain;
		chain = *p;
		free_page(p);
	}
	KTEST_EXPECT_EQ(t, pmm_nr_free_pages(), free0);
	p = alloc_page();
	KTEST_EXPECT(t, p != NULL, "a page after recovery, got NULL");
	if (p)
		free_page(p);
}

static void test_bad_free_pages_warns_and_changes_nothing(struct ktest *t)
{
	unsigned long w0 = pmm_warn_count, free0;
	void *p = alloc_page();

	KTEST_ASSERT(t, p, "a page, got NULL");
	free_page(p);
	free0 = pmm_nr_free_pages();
	mm_report_expect(true);
	free_page(p);					/* double free */
	KTEST_EXPECT_EQ(t, pmm_warn_count, w0 + 1);
	free_page(phys_to_virt(virt_to_phys(__text_start)));	/* kernel image */
	KTEST_EXPECT_EQ(t, pmm_warn_count, w0 + 2);
	free_page((char *)p + 8);			/* misaligned */
	KTEST_EXPECT_EQ(t, pmm_warn_count, w0 + 3);
	free_page(__data_start);			/* not a direct-map address */
	mm_report_expect(false);
	KTEST_EXPECT_EQ(t, pmm_warn_count, w0 + 4);
	KTEST_EXPECT_EQ(t, pmm_nr_free_pages(), free0);
}

static void test_kmalloc_many_sizes_aligned_without_overlap(struct ktest *t)
{
	static const size_t try_sizes[] = { 1, 8, 15, 16, 17, 31, 33, 64, 100,
		128, 200, 256, 500, 512, 1000, 1024, 2000, 2048, 3000, 4096,
		4097, 8192, 20000 };
	unsigned long inuse0 = slab_objs_in_use(), large0 = kmalloc_large_pages();
	int n = 0;

	for (size_t s = 0; s < ARRAY_SIZE(try_sizes); s++) {
		for (int k = 0; k < 8 && n < MAX_PTRS; k++, n++) {
			u8 *p = kmalloc(try_sizes[s], GFP_KERNEL);

			KTEST_ASSERT(t, p, "kmalloc(%zu), got NULL", try_sizes[s]);
			sizes[n] = try_sizes[s];
			ptrs[n] = p;
			KTEST_EXPECT(t, IS_ALIGNED((uintptr_t)p, expected_align(sizes[n])),
				     "kmalloc(%zu) aligned to %zu, saw %p", sizes[n],
				     expected_align(sizes[n]), p);
			KTEST_EXPECT(t, ksize(p) >= sizes[n], "ksize >= %zu, saw %zu",
				     sizes[n], ksize(p));
			for (size_t off = 0; off < sizes[n]; off++)
				p[off] = pattern(n, off);
		}
	}
	for (int i = 0; i < n; i++) {
		for (size_t off = 0; off < sizes[i]; off++) {
			u8 b = ((u8 *)ptrs[i])[off];

			if (b != pattern(i, off)) {
				KTEST_EXPECT(t, false, "object %d (%zu bytes) byte %zu: "
					     "%#x, saw %#x (overlap?)", i, sizes[i],
					     off, pattern(i, off), b);
				break;
			}
		}
		for (int j = i + 1; j < n; j++) {
			uintptr_t a = (uintptr_t)ptrs[i], b = (uintptr_t)ptrs[j];

			KTEST_EXPECT(t, a + sizes[i] <= b || b + sizes[j] <= a,
				     "objects %d and %d disjoint, saw %p+%zu, %p+%zu",
				     i, j, ptrs[i], sizes[i], ptrs[j], sizes[j]);
		}
	}
	KTEST_EXPECT_EQ(t, slab_objs_in_use(), inuse0 + 8 * 20);
	for (int i = 0; i < n; i++)
		kfree(ptrs[i]);
	KTEST_EXPECT_EQ(t, slab_objs_in_use(), inuse0);
	KTEST_EXPECT_EQ(t, kmalloc_large_pages(), large0);
}

static void test_kzalloc_returns_zeroed_memory(struct ktest *t)
{
	static const size_t try_sizes[] = { 24, 128, 4096, 10000 };

	for (size_t s = 0; s < ARRAY_SIZE(try_sizes); s++) {
		size_t size = try_sizes[s];
		u8 *p = kmalloc(size, GFP_KERNEL), *q;
		size_t off;

		KTEST_ASSERT(t, p, "kmalloc(%zu), got NULL", size);
		memset(p, 0xAA, size);
		kfree(p);	/* q most likely reuses p's memory */
		q = kzalloc(size, GFP_KERNEL);
		KTEST_ASSERT(t, q, "kzalloc(%zu), got NULL", size);
		for (off = 0; off < size && q[off] == 0; off++)
			;
		KTEST_EXPECT(t, off == size, "kzalloc(%zu) all zero, byte %zu is %#x",
			     size, off, off < size ? q[off] : 0);
		kfree(q);
	}
	KTEST_EXPECT(t, kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR,
		     "kmalloc(0) is ZERO_SIZE_PTR");
}

static void test_kfree_double_free_warns_and_does_not_corrupt(struct ktest *t)
{
	unsigned long w0 = slab_warn_count;
	void *p = kmalloc(64, GFP_KERNEL), *a, *b, *big;

	KTEST_ASSERT(t, p, "kmalloc(64), got NULL");
	kfree(p);
	mm_report_expect(true);
	kfree(p);
	mm_report_expect(false);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 1);
	/* a corrupted free list would hand out the same object twice */
	a = kmalloc(64, GFP_KERNEL);
	b = kmalloc(64, GFP_KERNEL);
	KTEST_EXPECT(t, a && b && a != b, "two distinct objects, saw %p and %p", a, b);
	kfree(a);
	kfree(b);
	big = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
	KTEST_ASSERT(t, big, "kmalloc(12 KiB), got NULL");
	kfree(big);
	mm_report_expect(true);
	kfree(big);
	mm_report_expect(false);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 2);
}

static void test_kfree_bad_pointer_warns_and_does_not_corrupt(struct ktest *t)
{
	unsigned long w0 = slab_warn_count, inuse0 = slab_objs_in_use();
	u8 *p = kmalloc(128, GFP_KERNEL), *big = kmalloc(2 * PAGE_SIZE, GFP_KERNEL);
	void *page = alloc_page();
	int local;

	KTEST_ASSERT(t, p && big && page, "allocations, got %p %p %p", p, big, page);
	mm_report_expect(true);
	kfree(p + 8);			/* inside an object */
	kfree(p + 128);			/* the next object, never allocated */
	kfree(&local);			/* stack */
	kfree(__data_start);		/* kernel data */
	kfree(page);			/* a page kmalloc did not hand out */
	kfree(big + PAGE_SIZE);		/* inside a page-sized kmalloc */
	kfree(NULL);			/* allowed, as in C */
	mm_report_expect(false);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 6);
	KTEST_EXPECT_EQ(t, slab_objs_in_use(), inuse0 + 1);
	kfree(p);
	kfree(big);
	free_page(page);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 6);
	KTEST_EXPECT_EQ(t, slab_objs_in_use(), inuse0);
}

static void test_kmem_cache_objects_aligned_and_reusable(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("test_obj", 200, 64);
	unsigned long w0 = slab_warn_count;
	int n = 100;

	KTEST_ASSERT(t, c, "kmem_cache_create, got NULL");
	for (int i = 0; i < n; i++) {
		ptrs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT(t, ptrs[i], "object %d, got NULL", i);
		KTEST_EXPECT(t, IS_ALIGNED((uintptr_t)ptrs[i], 64),
			     "64-byte aligned, saw %p", ptrs[i]);
		memset(ptrs[i], i, 200);
	}
	for (int i = 0; i < n; i++)
		KTEST_EXPECT(t, ((u8 *)ptrs[i])[199] == (u8)i,
			     "object %d last byte %#x, saw %#x", i, i,
			     ((u8 *)ptrs[i])[199]);
	kmem_cache_free(c, ptrs[0]);
	mm_report_expect(true);
	kmem_cache_free(c, ptrs[0]);
	mm_report_expect(false);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 1);
	for (int i = 1; i < n; i++)
		kmem_cache_free(c, ptrs[i]);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 1);
	kmem_cache_destroy(c);
}

KTEST_SUITE(memory,
	    KTEST_CASE(test_alloc_pages_blocks_are_aligned_and_distinct),
	    KTEST_CASE(test_page_exhaustion_returns_null_and_recovers),
	    KTEST_CASE(test_bad_free_pages_warns_and_changes_nothing),
	    KTEST_CASE(test_kmalloc_many_sizes_aligned_without_overlap),
	    KTEST_CASE(test_kzalloc_returns_zeroed_memory),
	    KTEST_CASE(test_kfree_double_free_warns_and_does_not_corrupt),
	    KTEST_CASE(test_kfree_bad_pointer_warns_and_does_not_corrupt),
	    KTEST_CASE(test_kmem_cache_objects_aligned_and_reusable));
