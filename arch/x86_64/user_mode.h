/*
 * arch/x86_64/user_mode.h - the machine side of user mode (ring 3), as
 * the portable kernel (kernel/user/, kernel/sched/) sees it; included by
 * arch.h.
 *
 *   user page tables      mmu_user.c      arch_pgd_alloc, arch_map_user_page ...
 *   user memory access    uaccess.asm     arch_copy_from_user ... (exception
 *                         extable.c       table: a fault returns -EFAULT)
 *   a user thread's CPU   user_thread.c   FPU (FXSAVE), FS base, first entry
 *   state
 *   entry and exit        syscall_entry.asm, syscall.c, trap_entry.asm
 *
 * The ABI is Linux's x86_64 one, unchanged (docs/user.md): SYSCALL with
 * the number in RAX, arguments in RDI RSI RDX R10 R8 R9, the result (or
 * -errno) in RAX, RCX and R11 clobbered.
 * Linux counterpart: arch/x86/include/asm/ uaccess.h, processor.h,
 * fpu/types.h, pgalloc.h.
 */
#ifndef ARCH_X86_64_USER_MODE_H
#define ARCH_X86_64_USER_MODE_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "arch/x86_64/ptrace.h"

/* User addresses are [0, USER_ADDR_END): the lower half minus its last
 * page, so no user object ends at the non-canonical boundary (Linux's
 * TASK_SIZE_MAX; a SYSRET to RIP >= it is the Intel hazard, see
 * syscall.c). */
#define USER_ADDR_END 0x00007FFFFFFFF000UL

#ifndef __user
#define __user	/* a user-space pointer: never dereferenced directly */
#endif

/* The user page tables (mmu_user.c) and user memory access
 * (uaccess.asm) are declared in arch.h. */

/* ---- a user thread's machine state (user_thread.c) ---- */

/*
 * struct arch_thread - what the CPU holds for a user thread beyond the
 * kernel's callee-saved frame: the FPU/SSE registers (FXSAVE image,
 * 16-byte aligned), the FS base (TLS), the data segment selectors and
 * GS base it may load in ring 3 (MOV to %ds..%gs is unprivileged), and
 * the registers it enters user mode with the first time.  Lives in the
 * thread's kernel-side struct (kernel/user/process.h), which must be
 * 16-byte aligned.  Written by the thread's own CPU only: at its clone
 * or exec, when it is switched out, at arch_prctl.
 */
struct arch_thread {
	u8 fxsave[512] __aligned(16);	/* FXSAVE64 image, SDM Vol. 1 10.5 */
	u64 fs_base;			/* MSR_FS_BASE while it runs */
	u64 gs_base;			/* the user's GS base: MSR_KERNEL_GS_BASE
					 * while it is in the kernel */
	u16 ds, es;			/* selectors, as Linux's thread.ds/.es */
	u16 fsindex, gsindex;		/* %fs, %gs (Linux's names) */
	struct pt_regs entry;		/* registers of its first entry */
};

/* arch_syscall_user_pc - where the user resumes after the system call
 * regs describes (for reports).  */
unsigned long arch_syscall_user_pc(const struct pt_regs *regs);

/* ---- the other direction: kernel/user functions the entry code calls */

/* syscall_dispatch - run system call nr with args[0..5]; returns the
 * value for the user's RAX.  regs only for clone (the child's registers).
 * Defined in kernel/user/syscall.c.  Context: task, irqs on. */
long syscall_dispatch(struct pt_regs *regs, unsigned long nr,
		      const unsigned long args[6]);
/*
 * exit_to_user_mode_prepare - the last kernel code before every return
 * to user mode: the kill flag, TIF_NEED_RESCHED and
 * TIF_NEED_RESCHED_DELAYED.  Defined in kernel/user/entry.c.
 * Context: task, irqs off on entry and on return (may enable them
 * in between to schedule or exit).
 */
void exit_to_user_mode_prepare(void);
/* user_fault_exit - a fault in user mode: print the one-line report
 * (current's name and pid, then what, the arch's description) and end
 * the whole process as killed by signal sig.  Defined in
 * kernel/user/exit.c.  Context: task, irqs on. */
__noreturn void user_fault_exit(int sig, const char *what);

#endif /* ARCH_X86_64_USER_MODE_H */
