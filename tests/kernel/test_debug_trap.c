/*
 * tests/kernel/test_debug_trap.c - #DB (vector 1) runs on its own IST
 * stack and decides SWAPGS by the GS base, not by CS (issue 28 item 5;
 * arch/x86_64/trap_entry.asm, traps.c do_debug_kernel).
 *
 * Why it matters (CVE-2018-8897, "POP SS"): a #DB whose delivery is
 * delayed past MOV SS / POP SS lands on the first instruction of
 * whatever the user ran next - SYSCALL's entry_SYSCALL_64, before its
 * SWAPGS - in ring 0 with the user's GS base and the user's RSP.  An
 * entry that trusts CS's RPL then skips SWAPGS and runs C on a GS the
 * user chose; one that uses the interrupted stack runs on the user's
 * RSP.  rtk cannot reach that state today (no ptrace, no debug
 * registers armed, SFMASK clears TF), so these tests make the two
 * halves of it happen in the kernel on purpose:
 *   1. single step in kernel mode: TF set by POPF in a controlled spot;
 *      the #DB after the next instruction is counted, its pt_regs are on
 *      this CPU's #DB IST stack, the handler clears TF in the frame and
 *      IRETQ resumes here with TF clear;
 *   2. the same with the user's GS: KERNEL_GS_BASE = 0 (a user base),
 *      SWAPGS, TF on, one instruction, SWAPGS back - the #DB arrives in
 *      ring 0 with GS base 0, the handler must still see the kernel's
 *      GS base (debug_last_gs_base), and GS must be the kernel's after.
 * Interrupts are off throughout (nothing may run between the SWAPGSes;
 * the catch and the per-CPU stack belong to this CPU).  Ring-3 #DBs
 * (icebp, TF from user) are t_fault's in test_user.c: SIGTRAP.
 * Before the fix, 1 oopsed (a kernel #DB was fatal, caught here), and 2
 * panicked: the handler ran with GS base 0 and could not even find the
 * catch.
 * Linux counterpart: tools/testing/selftests/x86/mov_ss_trap.c,
 * single_step_syscall.c.
 */
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/trap_catch.h"

/* single_step_one - TF on, one NOP (the #DB comes after it), TF off
 * again (reached with TF already clear when the handler did its job). */
static inline void single_step_one(void)
{
	__asm__ volatile("pushfq\n\t"
			 "orq $0x100, (%%rsp)\n\t"
			 "popfq\n\t"
			 "nop\n\t"
			 "pushfq\n\t"
			 "andq $~0x100, (%%rsp)\n\t"
			 "popfq"
			 ::: "memory", "cc");
}

static void test_db_single_step_in_kernel_runs_on_ist_and_returns(struct ktest *t)
{
	u64 before = trap_count(X86_TRAP_DB);
	unsigned long flags, seen, top;
	struct trap_catch c;
	int cpu;

	flags = arch_local_irq_save();
	cpu = raw_smp_processor_id();
	debug_last_regs[cpu] = 0;
	if (trap_try(&c)) {
		single_step_one();				/* [1] */
		trap_catch_disarm(&c);
	}
	seen = debug_last_regs[cpu];
	arch_local_irq_restore(flags);

	KTEST_ASSERT(t, c.vector < 0, "kernel single step oopsed (vector %d at "
		     "%s)", c.vector, c.sym);
	KTEST_EXPECT_EQ(t, trap_count(X86_TRAP_DB) - before, 1);
	top = gdt_ist_top(cpu, IST_DEBUG);
	KTEST_EXPECT(t, seen < top && seen >= top - IST_STACK_SIZE,
		     "pt_regs on the #DB stack [%#lx, %#lx), saw %#lx",
		     top - IST_STACK_SIZE, top, seen);
	KTEST_EXPECT(t, !(read_rflags() & X86_EFLAGS_TF), "TF still set");
}

static void test_db_with_user_gs_in_kernel_mode_swaps_by_gs_base(struct ktest *t)
{
	u64 before = trap_count(X86_TRAP_DB);
	u64 kernel_gs, gs_after, saved_shadow;
	unsigned long flags;

	flags = arch_local_irq_save();
	kernel_gs = rdmsr(MSR_GS_BASE);
	saved_shadow = rdmsr(MSR_KERNEL_GS_BASE);
	wrmsr(MSR_KERNEL_GS_BASE, 0);		/* a user's GS base */
	debug_last_gs_base = 0;
	__asm__ volatile("swapgs" ::: "memory");	/* [2] user GS now */
	single_step_one();
	__asm__ volatile("swapgs" ::: "memory");
	gs_after = rdmsr(MSR_GS_BASE);
	wrmsr(MSR_KERNEL_GS_BASE, saved_shadow);
	arch_local_irq_restore(flags);

	KTEST_EXPECT_EQ(t, trap_count(X86_TRAP_DB) - before, 1);
	KTEST_EXPECT(t, debug_last_gs_base == kernel_gs, "the #DB handler ran "
		     "with GS base %#lx, the kernel's is %#lx",
		     (unsigned long)debug_last_gs_base, (unsigned long)kernel_gs);
	KTEST_EXPECT(t, gs_after == kernel_gs, "GS base %#lx after, expected "
		     "%#lx", (unsigned long)gs_after, (unsigned long)kernel_gs);
}

KTEST_SUITE(debug_trap,
	    KTEST_CASE(test_db_single_step_in_kernel_runs_on_ist_and_returns),
	    KTEST_CASE(test_db_with_user_gs_in_kernel_mode_swaps_by_gs_base));
