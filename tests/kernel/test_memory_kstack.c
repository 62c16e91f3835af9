/*
 * tests/kernel/test_memory_kstack.c - the memory_kstack suite: guarded
 * kernel stacks (kernel/mm/kstack.c): a stack is mapped RW+NX with an
 * unmapped guard below it, a recursion on a kstack_alloc() stack raises
 * #DF with CR2 in that stack's guard, and kstack_free() shoots the
 * mapping down on every CPU.
 *
 * The overflow runs under a trap catch (arch/x86_64/trap_catch.h).  The
 * shootdown test needs two CPUs: a thread bound to another CPU keeps
 * reading a stack word (its TLB caches the translation); the runner
 * frees the stack (kstack_free: unmap + TLB shootdown); the thread's
 * next read, under a catch, must see #PF at that address, not the old
 * value through a stale entry.  This file is built without -pg under
 * LATENCY_TRACE=1 (the Makefile's TRACE_NOTRACE): the overflow must
 * fault in recurse_deep, not in __fentry__'s register saves.
 * Linux counterpart: lkdtm's EXHAUST_STACK, CONFIG_VMAP_STACK's guard,
 * flush_tlb_kernel_range.
 * Spec: Intel SDM Vol. 3A 4.10.4 (invalidation of TLBs), 6.15
 * (interrupt 8, double fault).
 */
#include "kernel/ktest.h"
#include "kernel/mm/kstack.h"
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

KTEST_SUITE(memory_kstack,
	    KTEST_CASE(test_kstack_has_mapped_stack_and_unmapped_guard),
	    KTEST_CASE(test_kstack_overflow_is_caught_in_guard_page),
	    KTEST_CASE(test_kstack_free_shoots_down_other_cpus_tlb));
