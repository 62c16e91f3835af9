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
	/* the last fault from ring 3, for the signal frame's sigcontext
	 * (Linux's thread.trap_nr, error_code, cr2) */
	u64 trap_nr, error_code, cr2;
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
 * to user mode: signals (delivery into regs, the frame ring 3 resumes
 * from; NULL for a kernel thread's test call), TIF_NEED_RESCHED and
 * TIF_NEED_RESCHED_DELAYED.  Defined in kernel/user/entry.c.
 * Context: task, irqs off on entry and on return (may enable them
 * in between to schedule, deliver a signal or exit).
 */
void exit_to_user_mode_prepare(struct pt_regs *regs);
/* force_sig_fault - a fault in user mode: signal sig (si_code code,
 * si_addr addr) to the current thread, delivered on the way back to
 * ring 3; if the thread blocks or ignores it, the process dies of it
 * (Linux's force_sig_fault).  When it will die, print the one-line
 * report (current's name and pid, then what, the arch's description).
 * Defined in kernel/user/signal_deliver.c.  Context: task, irqs on. */
void force_sig_fault(int sig, int code, unsigned long addr, const char *what);
/* current_arch_thread - the arch part of current's user thread (NULL
 * for a kernel thread).  Defined in kernel/user/process.c. */
struct arch_thread *current_arch_thread(void);

/* ---- signal frames (signal_frame.c; the portable side is
 * kernel/user/signal_deliver.c) ---- */

struct siginfo;
struct kernel_sigaction;
struct sigaltstack_uapi;

/* arch_user_sp - the user stack pointer regs resumes with. */
unsigned long arch_user_sp(const struct pt_regs *regs);
/* arch_setup_rt_frame - build Linux's rt_sigframe for a handler of sig
 * (ka) on the user stack: below the red zone of regs' stack, or at the
 * top of the alternate stack stack_top when not 0; uc_stack for the
 * frame, oldmask the mask rt_sigreturn restores; then point regs at the
 * handler.  0, or -EFAULT when the frame cannot be written or the
 * handler is no user address (the caller kills: force_sigsegv).
 * Context: current's user thread, task, irqs on. */
int arch_setup_rt_frame(struct pt_regs *regs, struct arch_thread *t, int sig,
			const struct kernel_sigaction *ka,
			const struct siginfo *info, u64 oldmask,
			unsigned long stack_top,
			const struct sigaltstack_uapi *uc_stack);
/* arch_rt_sigreturn - restore regs and the FPU from the frame regs'
 * stack points at (the handler returned into sa_restorer), with
 * user selectors, user RFLAGS bits only; the frame's mask into *mask.
 * 0, or -EFAULT for a frame that cannot be read or would not be safe
 * (non-canonical RIP, reserved MXCSR bits): the caller kills with
 * SIGSEGV.  Context: the rt_sigreturn system call. */
int arch_rt_sigreturn(struct pt_regs *regs, u64 *mask);
/* arch_syscall_return_value - the RAX regs returns to user mode with. */
unsigned long arch_syscall_return_value(const struct pt_regs *regs);
/* arch_syscall_restart - regs returns from a system call interrupted
 * with -ERESTART*: make it -EINTR or a restart of the call (rip back
 * over SYSCALL, rax = orig_rax), as a handler (handler, with
 * SA_RESTART sa_restart) or none is about to run.  Nothing for any
 * other frame.  Context: the return to user, task. */
void arch_syscall_restart(struct pt_regs *regs, bool handler,
			  bool sa_restart);

#endif /* ARCH_X86_64_USER_MODE_H */
