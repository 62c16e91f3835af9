/*
 * arch/x86_64/syscall.c - the C side of the SYSCALL entry
 * (syscall_entry.asm): the MSRs that route SYSCALL there, the per-CPU
 * slots the entry uses, and do_syscall_64().
 *
 * The ABI (Linux's x86_64 one, unchanged; docs/user.md): RAX = the
 * system call number (Linux's arch/x86/entry/syscalls/syscall_64.tbl),
 * arguments in RDI RSI RDX R10 R8 R9 (R10, not RCX: SYSCALL overwrites
 * RCX with the return RIP and R11 with RFLAGS), the result in RAX, a
 * failure as -errno in [-4095, -1].  Every other register is preserved.
 * Spec: Intel SDM Vol. 2B SYSCALL/SYSRET, Vol. 3A 5.8.8 (STAR, LSTAR,
 * FMASK).  Linux counterpart: arch/x86/kernel/cpu/common.c
 * syscall_init(), arch/x86/entry/common.c do_syscall_64().
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/smap.h"
#include "arch/x86_64/syscall.h"
#include "kernel/percpu.h"
#include "lib/bug.h"

/* The vector field of a SYSCALL's pt_regs (= syscall_entry.asm): above
 * every IDT vector, so nothing mistakes the frame for an interrupt's. */
#define SYSCALL_VECTOR_MARK 0x100

/* Written by the context switch (arch_set_kernel_stack), read by
 * entry_SYSCALL_64 through GS: this task's kernel stack top. */
DEFINE_PER_CPU(unsigned long, cpu_entry_rsp0);
/* entry_SYSCALL_64's one scratch word: the user RSP until it is pushed. */
DEFINE_PER_CPU(unsigned long, cpu_user_rsp_scratch);

extern char entry_SYSCALL_64[];

/*
 * syscall_init_cpu - see syscall.h.  SFMASK clears IF (the entry runs
 * on the user's stack until it has switched), TF (no single-step into
 * the kernel), DF (the C ABI), AC, NT and IOPL, as Linux does.
 */
void syscall_init_cpu(void)
{
	BUG_ON(read_rflags() & X86_EFLAGS_IF);
	wrmsr(MSR_STAR, ((u64)GDT_USER_BASE << 48) | ((u64)GDT_KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (u64)(uintptr_t)entry_SYSCALL_64);
	wrmsr(MSR_SYSCALL_MASK, X86_EFLAGS_IF | X86_EFLAGS_TF | X86_EFLAGS_DF |
				       X86_EFLAGS_AC | X86_EFLAGS_NT |
				       X86_EFLAGS_IOPL);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
}

void arch_set_kernel_stack(int cpu, unsigned long top)
{
	BUG_ON(!arch_irqs_disabled());
	gdt_set_kernel_stack(cpu, top);
	this_cpu_write(cpu_entry_rsp0, top);
}

unsigned long arch_syscall_user_pc(const struct pt_regs *regs)
{
	return regs->rip;
}

/*
 * do_syscall_64 - see syscall.h.
 * [1] interrupts on: a system call is ordinary task context (the
 *     PREEMPT_RT point: the user's request runs preemptibly);
 * [2] the call, its result into the user's RAX;
 * [3] interrupts off, the return-to-user work (kill, reschedule);
 * [4] SYSRET only when it is safe: RIP canonical (the Intel hazard, see
 *     syscall_entry.asm), CS/SS the SYSRET values, and no TF/RF, which
 *     SYSRET would treat differently from IRET; and only when RCX and R11
 *     hold RIP and RFLAGS, as SYSRET would leave them: after
 *     rt_sigreturn or a signal frame they hold the program's own values,
 *     which only IRET restores (Linux's opportunistic-SYSRET checks).
 * Context: entry_SYSCALL_64 only, irqs off, on the task's kernel stack.
 */
bool do_syscall_64(struct pt_regs *regs)
{
	unsigned long args[6] = { regs->rdi, regs->rsi, regs->rdx,
				  regs->r10, regs->r8,  regs->r9 };
	unsigned long nr = regs->rax;

	BUG_ON(regs->vector != SYSCALL_VECTOR_MARK);
	entry_check_ac();	/* SFMASK cleared it (syscall_init_cpu) */
	arch_local_irq_enable();				/* [1] */
	regs->rax = (u64)syscall_dispatch(regs, nr, args);	/* [2] */
	arch_local_irq_disable();				/* [3] */
	exit_to_user_mode_prepare(regs);
	return regs->rip < USER_ADDR_END &&			/* [4] */
	       regs->rcx == regs->rip && regs->r11 == regs->rflags &&
	       regs->cs == (GDT_USER_CS | 3) && regs->ss == (GDT_USER_DS | 3) &&
	       !(regs->rflags & (X86_EFLAGS_TF | X86_EFLAGS_RF));
}
