/*
 * tests/kernel/test_smap.c - SMAP and SMEP: the kernel cannot read a
 * user page except through uaccess.asm, and cannot run one at all
 * (issue 28 item 5; arch/x86_64/smap.h).
 *
 * Scenario (one CPU, the test runner's thread, interrupts off so the
 * address space stays ours): a fresh user page table (arch_pgd_alloc)
 * maps a data page holding SMAP_MAGIC at USER_DATA and a page holding a
 * RET at USER_CODE (MAP_EXEC), and CR3 is pointed at it.  Then
 *   1. a plain load from USER_DATA, outside uaccess.asm, must #PF with
 *      P set and U/S clear (a protection fault in supervisor mode: the
 *      page is there, SMAP refuses it) - caught by a trap catch, the
 *      handler prints it as an "expected oops";
 *   2. arch_copy_from_user of the same address must return all bytes
 *      (uaccess.asm's STAC/CLAC window) and give SMAP_MAGIC;
 *   3. a call to USER_CODE must #PF with I/D and P set at RIP =
 *      USER_CODE (SMEP);
 *   4. after each, RFLAGS.AC is clear again: no path leaves the window
 *      open.
 * A CPU without the feature skips with the CPUID bit named (the default
 * QEMU model, -cpu max, has both under TCG).  Before the fix (no CR4
 * bits) 1 and 3 read and ran the page: "no fault".
 * Linux counterpart: lkdtm's ACCESS_USERSPACE and EXEC_USERSPACE
 * (drivers/misc/lkdtm/perms.c).
 */
#include "kernel/ktest.h"
#include "kernel/irqflags.h"
#include "kernel/mm/pmm.h"
#include "kernel/smp.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/smap.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/trap_catch.h"
#include "lib/string.h"

#define USER_DATA	0x10000000UL	/* 256 MiB: nothing else maps it */
#define USER_CODE	(USER_DATA + PAGE_SIZE)
#define SMAP_MAGIC	0x5a4d4150u	/* "SMAP" */

struct user_space {
	u64 pgd;
	u64 saved_cr3;
};

/* user_space_make - the two pages of the scenario in a new pgd; false
 * (test failed) when memory ran out. */
static bool user_space_make(struct ktest *t, struct user_space *us)
{
	u8 *data = alloc_page(), *code = alloc_page();
	u32 magic = SMAP_MAGIC;

	us->pgd = arch_pgd_alloc();
	if (!data || !code || !us->pgd) {
		KTEST_EXPECT(t, false, "out of memory");
		goto out_free;
	}
	memset(data, 0, PAGE_SIZE);
	memcpy(data, &magic, sizeof(magic));
	memset(code, 0xc3, PAGE_SIZE);	/* RET */
	if (arch_map_user_page(us->pgd, USER_DATA, virt_to_phys(data),
			       MAP_WRITE) ||
	    arch_map_user_page(us->pgd, USER_CODE, virt_to_phys(code),
			       MAP_EXEC)) {
		KTEST_EXPECT(t, false, "arch_map_user_page failed");
		goto out_free;
	}
	return true;
out_free:
	/* a page mapped already is freed by user_space_drop's unmap_all */
	if (us->pgd) {
		if (arch_query_user_page(us->pgd, USER_DATA, NULL, NULL))
			free_page(data);
		if (arch_query_user_page(us->pgd, USER_CODE, NULL, NULL))
			free_page(code);
		arch_user_unmap_all(us->pgd);
		arch_pgd_free(us->pgd);
	} else {
		free_page(data);
		free_page(code);
	}
	return false;
}

static void user_space_drop(struct user_space *us)
{
	arch_user_unmap_all(us->pgd);
	arch_pgd_free(us->pgd);
}

/* user_space_enter / _leave - CR3 on the test pgd and back.  Interrupts
 * stay off in between: a switch would put the kernel's CR3 back. */
static unsigned long user_space_enter(struct user_space *us)
{
	unsigned long flags = arch_local_irq_save();

	us->saved_cr3 = read_cr3();
	arch_switch_mm(us->pgd);
	return flags;
}

static void user_space_leave(struct user_space *us, unsigned long flags)
{
	arch_switch_mm(us->saved_cr3);
	arch_flush_user_range(USER_DATA, USER_CODE + PAGE_SIZE);
	arch_local_irq_restore(flags);
}

static void test_smap_kernel_read_of_user_page_faults_outside_uaccess(struct ktest *t)
{
	volatile u32 *p = (volatile u32 *)USER_DATA;
	struct user_space us;
	struct trap_catch c;
	unsigned long flags;
	volatile u32 seen = 0;
	u32 copied = 0;
	unsigned long left;

	if (!cpu_has_smap())
		ktest_skip(t, "CPU has no SMAP (CPUID.(7,0):EBX bit 20)");
	if (!user_space_make(t, &us))
		return;
	flags = user_space_enter(&us);
	if (trap_try(&c)) {
		seen = *p;				/* [1] */
		trap_catch_disarm(&c);
	}
	left = arch_copy_from_user(&copied, (const void __user *)USER_DATA,
				   sizeof(copied));	/* [2] */
	user_space_leave(&us, flags);
	user_space_drop(&us);

	KTEST_EXPECT(t, c.vector == X86_TRAP_PF,
		     "plain read of user %#lx: expected #PF, saw %s (read %#x)",
		     USER_DATA, c.vector < 0 ? "no fault" : "another vector",
		     (unsigned)seen);
	KTEST_EXPECT(t, c.vector != X86_TRAP_PF ||
			(c.error_code & (X86_PF_PROT | X86_PF_USER |
					 X86_PF_WRITE)) == X86_PF_PROT,
		     "error code protection|read|supervisor (0x1), saw %#lx",
		     (unsigned long)c.error_code);
	KTEST_EXPECT(t, c.vector != X86_TRAP_PF || c.cr2 == USER_DATA,
		     "CR2 %#lx, saw %#lx", USER_DATA, (unsigned long)c.cr2);
	KTEST_EXPECT_EQ(t, left, 0);				/* [2] */
	KTEST_EXPECT_EQ(t, copied, SMAP_MAGIC);
	KTEST_EXPECT(t, !(read_rflags() & X86_EFLAGS_AC), "AC left set");	/* [4] */
}

static void test_smep_kernel_call_into_user_page_faults(struct ktest *t)
{
	void (*volatile fn)(void) = (void (*)(void))USER_CODE;
	struct user_space us;
	struct trap_catch c;
	unsigned long flags;

	if (!cpu_has_smep())
		ktest_skip(t, "CPU has no SMEP (CPUID.(7,0):EBX bit 7)");
	if (!user_space_make(t, &us))
		return;
	flags = user_space_enter(&us);
	if (trap_try(&c)) {
		fn();					/* [3] */
		trap_catch_disarm(&c);
	}
	user_space_leave(&us, flags);
	user_space_drop(&us);

	KTEST_EXPECT(t, c.vector == X86_TRAP_PF,
		     "call to user %#lx: expected #PF, saw %s", USER_CODE,
		     c.vector < 0 ? "no fault (the RET ran)" : "another vector");
	KTEST_EXPECT(t, c.vector != X86_TRAP_PF ||
			(c.error_code & (X86_PF_PROT | X86_PF_INSTR |
					 X86_PF_USER)) ==
				(X86_PF_PROT | X86_PF_INSTR),
		     "error code protection|fetch|supervisor (0x11), saw %#lx",
		     (unsigned long)c.error_code);
	KTEST_EXPECT(t, c.vector != X86_TRAP_PF || c.rip == USER_CODE,
		     "RIP %#lx, saw %#lx", USER_CODE, (unsigned long)c.rip);
	KTEST_EXPECT(t, !(read_rflags() & X86_EFLAGS_AC), "AC left set");
}

/* check_cr4_bits - on_each_cpu callback: record whether this CPU has both
 * bits its CPUID promises.  Context: IPI (or the caller), irqs off. */
static void check_cr4_bits(void *info)
{
	unsigned long *wrong = info;

	if (smap_enabled() != cpu_has_smap() || smep_enabled() != cpu_has_smep())
		__atomic_fetch_add(wrong, 1, __ATOMIC_RELAXED);
}

/* The bits are on on every CPU, not only the one that runs the test:
 * each CPU's bring-up sets its own CR4 (cpu_init.c, smpboot.c). */
static void test_smap_smep_on_every_cpu_that_has_them(struct ktest *t)
{
	unsigned long wrong = 0;

	if (!cpu_has_smap() && !cpu_has_smep())
		ktest_skip(t, "CPU has neither SMEP nor SMAP (CPUID.(7,0):EBX)");
	on_each_cpu(check_cr4_bits, &wrong, true);
	KTEST_EXPECT(t, wrong == 0, "%lu CPU(s) without CR4.SMEP/SMAP although "
		     "CPUID has them", wrong);
}

KTEST_SUITE(smap,
	    KTEST_CASE(test_smap_smep_on_every_cpu_that_has_them),
	    KTEST_CASE(test_smap_kernel_read_of_user_page_faults_outside_uaccess),
	    KTEST_CASE(test_smep_kernel_call_into_user_page_faults));
