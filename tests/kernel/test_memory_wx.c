/*
 * tests/kernel/test_memory_wx.c - the memory_wx suite: the kernel's page
 * tables follow W^X (arch/x86_64/mmu.c): text executable and read-only,
 * rodata read-only, data and bss writable and not executable, and every
 * direct-map alias no more permissive than the image mapping.
 *
 * The fault tests arm a trap catch (arch/x86_64/trap_catch.h): a write
 * to text or rodata must raise #PF with the protection and write bits,
 * a call into data #PF with the instruction-fetch bit.  One CPU, the
 * test runner's thread.
 * Linux counterpart: lkdtm's WRITE_RO / WRITE_KERN / EXEC_DATA, and
 * CONFIG_DEBUG_WX's check (ptdump_check_wx).
 * Spec: Intel SDM Vol. 3A 4.6 (access rights: R/W, NX) and 4.7
 * (page-fault error code: P, W/R, I/D bits).
 */
#include "kernel/ktest.h"
#include "kernel/mm/slab.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/trap_catch.h"
#include "arch/x86_64/traps.h"
#include "lib/errno.h"

extern char __text_start[], __rodata_start[], __data_start[], __bss_start[];

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
		{ "bss", (unsigned long)__bss_start, MAP_WRITE },
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

KTEST_SUITE(memory_wx,
	    KTEST_CASE(test_kernel_mappings_follow_w_xor_x),
	    KTEST_CASE(test_write_to_kernel_text_or_rodata_faults),
	    KTEST_CASE(test_call_into_data_faults_on_instruction_fetch));
