/*
 * tests/kernel/test_memory.c - the memory manager: page allocator,
 * kmalloc and object caches, W^X page tables, guarded kernel stacks.
 *
 * Scenario: one CPU, the test runner's thread, nothing else allocating.
 * Allocation tests fill every block with a pattern derived from its
 * index and check all of them afterwards, so overlapping blocks show up
 * as a wrong byte.  The exhaustion test takes every free page (chained
 * through their first word, so it needs no memory of its own), checks
 * that the number taken matches the free count and that kmalloc fails
 * cleanly meanwhile, and gives them all back.  Bad frees must be
 * reported (pmm_warn_count, slab_warn_count rise by one each; the WARN
 * text appears in the log) and must leave the allocators intact.  The
 * fault tests arm a trap catch (arch/x86_64/trap_catch.h): a write to
 * text or rodata must raise #PF with the protection and write bits, a
 * call into data #PF with the instruction-fetch bit, and a recursion
 * on a kstack_alloc() stack #DF with CR2 in that stack's guard.
 * The shootdown test needs two CPUs: a thread bound to another CPU keeps
 * reading a stack word (its TLB caches the translation); the runner
 * frees the stack (kstack_free: unmap + TLB shootdown); the thread's
 * next read, under a catch, must see #PF at that address, not the old
 * value through a stale entry.
 * Linux counterpart: lib/test_meminit.c, mm/kfence tests, lkdtm's
 * WRITE_RO / EXEC_DATA / EXHAUST_STACK.
 *
 * Length: just over 600 lines: each allocator layer has its own cases and
 * the W^X / guard-page tests need their fault plumbing beside them.
 */
#include "kernel/ktest.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/smp.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/stack_switch.h"
#include "arch/x86_64/tlb.h"
#include "arch/x86_64/trap_catch.h"
#include "arch/x86_64/traps.h"
#include "lib/errno.h"
#include "lib/string.h"

extern char __text_start[], __rodata_start[], __data_start[];

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
	free_page(p);					/* double free */
	KTEST_EXPECT_EQ(t, pmm_warn_count, w0 + 1);
	free_page(phys_to_virt(virt_to_phys(__text_start)));	/* kernel image */
	KTEST_EXPECT_EQ(t, pmm_warn_count, w0 + 2);
	free_page((char *)p + 8);			/* misaligned */
	KTEST_EXPECT_EQ(t, pmm_warn_count, w0 + 3);
	free_page(__data_start);			/* not a direct-map address */
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
	kfree(p);
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
	kfree(big);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 2);
}

static void test_kfree_bad_pointer_warns_and_does_not_corrupt(struct ktest *t)
{
	unsigned long w0 = slab_warn_count, inuse0 = slab_objs_in_use();
	u8 *p = kmalloc(128, GFP_KERNEL), *big = kmalloc(2 * PAGE_SIZE, GFP_KERNEL);
	void *page = alloc_page();
	int local;

	KTEST_ASSERT(t, p && big && page, "allocations, got %p %p %p", p, big, page);
	kfree(p + 8);			/* inside an object */
	kfree(p + 128);			/* the next object, never allocated */
	kfree(&local);			/* stack */
	kfree(__data_start);		/* kernel data */
	kfree(page);			/* a page kmalloc did not hand out */
	kfree(big + PAGE_SIZE);		/* inside a page-sized kmalloc */
	kfree(NULL);			/* allowed, as in C */
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
	kmem_cache_free(c, ptrs[0]);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 1);
	for (int i = 1; i < n; i++)
		kmem_cache_free(c, ptrs[i]);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 1);
	kmem_cache_destroy(c);
}

static void test_kernel_mappings_follow_w_xor_x(struct ktest *t)
{
	static const struct {
		const char *what;
		unsigned long addr;
		unsigned int flags;
	} want[] = {
		{ "text", (unsigned long)__text_start, MAP_EXEC },
		{ "rodata", (unsigned long)__rodata_start, 0 },
		{ "data", (unsigned long)__data_start, MAP_WRITE },
		{ "bss", (unsigned long)&ptrs, MAP_WRITE },
	};
	unsigned int flags;
	u64 phys;

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		unsigned long dm = (unsigned long)phys_to_virt(virt_to_phys(
					   (void *)want[i].addr));

		KTEST_ASSERT(t, !arch_query_page(want[i].addr, &phys, &flags),
			     "%s mapped", want[i].what);
		KTEST_EXPECT(t, phys == virt_to_phys((void *)want[i].addr),
			     "%s at phys %#lx, saw %#lx", want[i].what,
			     (unsigned long)virt_to_phys((void *)want[i].addr),
			     (unsigned long)phys);
		KTEST_EXPECT(t, flags == want[i].flags || !arch_mmu_has_nx(),
			     "%s flags %#x, saw %#x", want[i].what, want[i].flags,
			     flags);
		KTEST_ASSERT(t, !arch_query_page(dm, NULL, &flags),
			     "%s direct-map alias mapped", want[i].what);
		KTEST_EXPECT(t, (flags & MAP_WRITE) == (want[i].flags & MAP_WRITE) &&
			     !(flags & MAP_EXEC && arch_mmu_has_nx()),
			     "%s alias %s, not executable, saw %#x", want[i].what,
			     want[i].flags & MAP_WRITE ? "writable" : "read-only",
			     flags);
	}
	KTEST_EXPECT(t, arch_query_page(0, NULL, NULL) == -ENOENT, "page 0 unmapped");
	KTEST_EXPECT(t, arch_query_page(0x100000, NULL, NULL) == -ENOENT,
		     "no identity map of the kernel at 1 MiB");
	if (arch_mmu_has_nx())
		KTEST_EXPECT_EQ(t, arch_mmu_count_wx(), 0);
}

/* expect_protection_fault - c caught a #PF on a present page at addr,
 * with the access bit (write or instruction fetch) set. */
static void expect_protection_fault(struct ktest *t, const struct trap_catch *c,
				    u64 access_bit, volatile const void *addr)
{
	KTEST_EXPECT_EQ(t, c->vector, X86_TRAP_PF);
	KTEST_EXPECT(t, (c->error_code & (X86_PF_PROT | access_bit)) ==
			     (X86_PF_PROT | access_bit),
		     "error code bits %#lx set, saw %#lx",
		     (unsigned long)(X86_PF_PROT | access_bit),
		     (unsigned long)c->error_code);
	KTEST_EXPECT(t, c->cr2 == (u64)(uintptr_t)addr, "CR2 %p, saw %#lx",
		     addr, (unsigned long)c->cr2);
}

/* write_faults - write p's own byte back under a catch; true (with *c
 * filled in) when that faulted.  Harmless if the write goes through. */
static noinline bool write_faults(volatile u8 *p, struct trap_catch *c)
{
	if (trap_try(c)) {
		*p = *p;
		trap_catch_disarm(c);
		return false;
	}
	return true;
}

static void test_write_to_kernel_text_or_rodata_faults(struct ktest *t)
{
	static const char ro_string[] = "read-only";
	volatile u8 *targets[] = {
		(volatile u8 *)__text_start,
		(volatile u8 *)phys_to_virt(virt_to_phys(__text_start)),
		(volatile u8 *)ro_string,
	};

	for (size_t i = 0; i < ARRAY_SIZE(targets); i++) {
		struct trap_catch c;

		KTEST_ASSERT(t, write_faults(targets[i], &c),
			     "write to %p (target %zu) faults, it did not",
			     targets[i], i);
		expect_protection_fault(t, &c, X86_PF_WRITE, targets[i]);
	}
}

static u8 data_code[16] __aligned(16) = { 0xC3 };	/* ret */

/* call_faults - call the code at p under a catch; true (with *c filled
 * in) when that faulted.  p holds a RET, so a call that works returns. */
static noinline bool call_faults(u8 *p, struct trap_catch *c)
{
	void (*fn)(void) = (void (*)(void))(uintptr_t)p;

	if (trap_try(c)) {
		fn();
		trap_catch_disarm(c);
		return false;
	}
	return true;
}

static void test_call_into_data_faults_on_instruction_fetch(struct ktest *t)
{
	u8 *heap = kmalloc(64, GFP_KERNEL);
	u8 *targets[] = { data_code, heap };

	if (!arch_mmu_has_nx())
		ktest_skip(t, "CPU has no NX: data is executable");
	KTEST_ASSERT(t, heap, "kmalloc(64), got NULL");
	heap[0] = 0xC3;
	for (size_t i = 0; i < ARRAY_SIZE(targets); i++) {
		struct trap_catch c;

		if (!call_faults(targets[i], &c)) {
			KTEST_EXPECT(t, false, "call into %p faults, it returned",
				     targets[i]);
			continue;
		}
		expect_protection_fault(t, &c, X86_PF_INSTR, targets[i]);
	}
	kfree(heap);
}

static void test_kstack_has_mapped_stack_and_unmapped_guard(struct ktest *t)
{
	unsigned int n0 = kstack_nr_in_use(), flags = 0;
	u8 *s = kstack_alloc();
	unsigned long base = (unsigned long)s;

	KTEST_ASSERT(t, s, "kstack_alloc, got NULL");
	KTEST_EXPECT_EQ(t, kstack_nr_in_use(), n0 + 1);
	for (unsigned long off = 0; off < KSTACK_SIZE; off += PAGE_SIZE) {
		KTEST_EXPECT(t, !arch_query_page(base + off, NULL, &flags) &&
				     flags == (arch_mmu_has_nx() ? MAP_WRITE :
						MAP_WRITE | MAP_EXEC),
			     "stack page +%#lx mapped RW+NX, flags %#x", off, flags);
	}
	memset(s, 0x5c, KSTACK_SIZE);
	KTEST_EXPECT(t, arch_query_page(base - PAGE_SIZE, NULL, NULL) == -ENOENT,
		     "guard page below %p unmapped", s);
	KTEST_EXPECT(t, kstack_guard_hit(base - 8), "guard hit just below the stack");
	KTEST_EXPECT(t, kstack_guard_hit(base - KSTACK_GUARD_SIZE),
		     "guard hit at the guard's bottom");
	KTEST_EXPECT(t, !kstack_guard_hit(base), "stack itself is no guard hit");
	kstack_free(s);
	KTEST_EXPECT_EQ(t, kstack_nr_in_use(), n0);
	KTEST_EXPECT(t, arch_query_page(base, NULL, NULL) == -ENOENT,
		     "freed stack unmapped");
	KTEST_EXPECT(t, !kstack_guard_hit(base - 8), "no guard hit once freed");
}

/* recurse_deep - 256+ bytes of frame per level, not a tail call; deep
 * enough (2^20 levels) to run off any kernel stack. */
static noinline unsigned long recurse_deep(unsigned long depth)
{
	volatile char frame[256];

	frame[0] = (char)depth;
	if (depth == 0)
		return frame[0];
	return recurse_deep(depth - 1) + frame[0];
}

static void overflow_stack(void *arg)
{
	*(volatile unsigned long *)arg = recurse_deep(1UL << 20);
}

static void test_kstack_overflow_is_caught_in_guard_page(struct ktest *t)
{
	volatile unsigned long result = 0;
	struct trap_catch c;
	u8 *s = kstack_alloc();

	KTEST_ASSERT(t, s, "kstack_alloc, got NULL");
	if (trap_try(&c)) {
		arch_call_on_stack(kstack_top(s), overflow_stack, (void *)&result);
		trap_catch_disarm(&c);
		kstack_free(s);
		KTEST_ASSERT(t, false, "recursion returned %lu, no fault", result);
	}
	KTEST_EXPECT_EQ(t, c.vector, X86_TRAP_DF);
	KTEST_EXPECT(t, kstack_guard_hit(c.cr2), "CR2 in a guard page, saw %#lx",
		     (unsigned long)c.cr2);
	KTEST_EXPECT(t, c.cr2 < (u64)(uintptr_t)s &&
			     c.cr2 >= (u64)(uintptr_t)s - KSTACK_GUARD_SIZE,
		     "CR2 in the guard below %p, saw %#lx", s, (unsigned long)c.cr2);
	KTEST_EXPECT(t, !strcmp(c.sym, "recurse_deep"),
		     "fault in recurse_deep, saw \"%s\"", c.sym);
	kstack_free(s);
}

struct tlb_probe {
	volatile u64 *addr;		/* a word in the stack under test */
	struct completion cached;	/* probe read addr once */
	volatile bool freeing;		/* runner is in kstack_free() */
	volatile bool freed;		/* kstack_free() returned */
	volatile u64 first;		/* the first read's value */
	volatile int ran_on;		/* CPU of the first read */
	volatile bool early_fault;	/* faulted before the free began */
	volatile bool stale;		/* read worked after the free */
	struct trap_catch c;		/* what the faulting read raised */
};

/* read_faults - read *p under a catch; true (with *c filled in) when
 * that faulted. */
static noinline bool read_faults(volatile u64 *p, struct trap_catch *c)
{
	if (trap_try(c)) {
		(void)*p;
		trap_catch_disarm(c);
		return false;
	}
	return true;
}

/*
 * tlb_probe_fn - the probe thread: read addr over and over (each read
 * keeps its TLB entry hot, so an emulator's small TLB cannot evict it
 * and hide a missing shootdown) until a read faults or succeeds after
 * kstack_free() returned.  "freed" is sampled before each read: a read
 * that starts after it must fault; "freeing" is read after a fault,
 * which cannot come before the free began.
 */
static int tlb_probe_fn(void *arg)
{
	struct tlb_probe *pr = arg;

	pr->ran_on = raw_smp_processor_id();
	pr->first = *pr->addr;
	complete(&pr->cached);
	for (;;) {
		bool freed = READ_ONCE(pr->freed);

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (read_faults(pr->addr, &pr->c)) {
			/* the free began before its shootdown reached us */
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			pr->early_fault = !READ_ONCE(pr->freeing);
			break;
		}
		if (freed) {
			pr->stale = true;
			break;
		}
	}
	return 0;
}

/*
 * Scenario: runner on CPU A, probe thread bound to CPU B != A.
 * [1] probe reads a word of a fresh stack on B (B's TLB caches it) and
 *     keeps reading it; [2] runner frees the stack on A, which must
 *     shoot the translation down on B before returning; [3] runner says
 *     so; the probe's next read must #PF with CR2 = the word's address.
 *     A lost shootdown shows as a read that worked after [3] (the old
 *     value through B's stale entry).
 */
static void test_kstack_free_shoots_down_other_cpus_tlb(struct ktest *t)
{
	static struct tlb_probe pr;
	struct task_struct *p;
	unsigned long before;
	u64 *s;
	int cpu, here;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs two online CPUs");
	s = kstack_alloc();
	KTEST_ASSERT(t, s, "kstack_alloc, got NULL");
	memset(&pr, 0, sizeof(pr));
	pr.addr = s + 100;
	*pr.addr = 0x7b5c0ffee;
	init_completion(&pr.cached);
	here = raw_smp_processor_id();
	for_each_online_cpu (cpu)
		if (cpu != here)
			break;
	p = kthread_create(tlb_probe_fn, &pr, "tlbprobe/%d", cpu);
	if (!p) {
		kstack_free(s);
		KTEST_ASSERT(t, false, "kthread_create, got NULL");
	}
	kthread_bind(p, cpu);
	get_task_struct(p);
	wake_up_process(p);
	wait_for_completion(&pr.cached);			/* [1] */
	before = tlb_shootdowns_received(cpu);
	WRITE_ONCE(pr.freeing, true);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	kstack_free(s);						/* [2] */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	WRITE_ONCE(pr.freed, true);				/* [3] */
	KTEST_EXPECT(t, tlb_shootdowns_received(cpu) > before,
		     "CPU %d handled a shootdown, count stayed %lu", cpu,
		     before);
	kthread_stop(p);
	put_task_struct(p);
	KTEST_EXPECT_EQ(t, pr.ran_on, cpu);
	KTEST_EXPECT(t, pr.first == 0x7b5c0ffee,
		     "first read %#llx, saw %#llx", 0x7b5c0ffeeULL,
		     (unsigned long long)pr.first);
	KTEST_ASSERT(t, !pr.stale,
		     "read of the freed stack on CPU %d faults, it worked "
		     "(stale TLB entry)", cpu);
	KTEST_EXPECT(t, !pr.early_fault, "no fault before the free began");
	KTEST_EXPECT_EQ(t, pr.c.vector, X86_TRAP_PF);
	KTEST_EXPECT(t, pr.c.cr2 == (u64)(uintptr_t)pr.addr,
		     "CR2 %p, saw %#lx", pr.addr, (unsigned long)pr.c.cr2);
}

KTEST_SUITE(memory,
	    KTEST_CASE(test_alloc_pages_blocks_are_aligned_and_distinct),
	    KTEST_CASE(test_page_exhaustion_returns_null_and_recovers),
	    KTEST_CASE(test_bad_free_pages_warns_and_changes_nothing),
	    KTEST_CASE(test_kmalloc_many_sizes_aligned_without_overlap),
	    KTEST_CASE(test_kzalloc_returns_zeroed_memory),
	    KTEST_CASE(test_kfree_double_free_warns_and_does_not_corrupt),
	    KTEST_CASE(test_kfree_bad_pointer_warns_and_does_not_corrupt),
	    KTEST_CASE(test_kmem_cache_objects_aligned_and_reusable),
	    KTEST_CASE(test_kernel_mappings_follow_w_xor_x),
	    KTEST_CASE(test_write_to_kernel_text_or_rodata_faults),
	    KTEST_CASE(test_call_into_data_faults_on_instruction_fetch),
	    KTEST_CASE(test_kstack_has_mapped_stack_and_unmapped_guard),
	    KTEST_CASE(test_kstack_overflow_is_caught_in_guard_page),
	    KTEST_CASE(test_kstack_free_shoots_down_other_cpus_tlb));
