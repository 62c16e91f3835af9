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

/* ---- user page tables (mmu_user.c).  The caller holds the mm's lock. */

/* arch_pgd_alloc - a new PML4 sharing the kernel half; 0 when out of
 * memory.  Context: task. */
u64 arch_pgd_alloc(void);
/* arch_pgd_free - free pgd and its user-half tables (not the pages they
 * map: arch_user_unmap_all first).  Nobody may run on it any more. */
void arch_pgd_free(u64 pgd);
/* arch_map_user_page - map phys at user address virt with MAP_WRITE /
 * MAP_EXEC (never both: -EACCES).  0, -EINVAL, -EEXIST or -ENOMEM. */
int arch_map_user_page(u64 pgd, unsigned long virt, u64 phys,
		       unsigned int flags);
/* arch_unmap_user_page - clear virt's entry; the page it mapped in *phys
 * (the caller flushes with arch_flush_user_range, then frees it).
 * -ENOENT when nothing was mapped. */
int arch_unmap_user_page(u64 pgd, unsigned long virt, u64 *phys);
/* arch_user_unmap_all - free every page the user half maps; returns how
 * many.  Only when no thread runs in it any more (exit_mmap). */
unsigned long arch_user_unmap_all(u64 pgd);
/* arch_query_user_page - is virt mapped?  0 with *phys, *flags, or
 * -ENOENT. */
int arch_query_user_page(u64 pgd, unsigned long virt, u64 *phys,
			 unsigned int *flags);
/* arch_flush_user_range - drop [start, end) from every CPU's TLB.
 * Context: task, not hardirq. */
void arch_flush_user_range(unsigned long start, unsigned long end);
/* arch_switch_mm - run on pgd from now on (CR3 load when it differs).
 * Context: the context switch, interrupts off. */
void arch_switch_mm(u64 pgd);

/* ---- user memory access (uaccess.asm).  The address range is checked
 * by the caller (kernel/user/uaccess.h access_ok); a page fault in here
 * is fixed up through the exception table (extable.c) and reported. */

/* arch_copy_from_user / arch_copy_to_user - return the bytes NOT copied
 * (0 = all), as Linux's raw_copy_*_user. */
unsigned long arch_copy_from_user(void *to, const void __user *from,
				  unsigned long n);
unsigned long arch_copy_to_user(void __user *to, const void *from,
				unsigned long n);
/* arch_get_user_u32 / arch_put_user_u32 - 0 or -EFAULT. */
int arch_get_user_u32(u32 *val, const u32 __user *uaddr);
int arch_put_user_u32(u32 val, u32 __user *uaddr);
/*
 * arch_futex_atomic_cmpxchg_inatomic - atomically: if *uaddr == oldval
 * store newval; the value found goes to *uval either way.  0 or -EFAULT.
 * Never sleeps (may run with preemption off).  Part of the futex code's
 * contract (kernel/futex/, see kernel/user/uaccess.h).
 * Linux counterpart: futex_atomic_cmpxchg_inatomic().
 */
int arch_futex_atomic_cmpxchg_inatomic(u32 *uval, u32 __user *uaddr,
				       u32 oldval, u32 newval);
/* arch_uaccess_fixups - faults fixed up so far (for tests). */
unsigned long arch_uaccess_fixups(void);

/* ---- a user thread's machine state (user_thread.c) ---- */

/*
 * struct arch_thread - what the CPU holds for a user thread beyond the
 * kernel's callee-saved frame: the FPU/SSE registers (FXSAVE image,
 * 16-byte aligned), the FS base (TLS), and the registers it enters user
 * mode with the first time.  Lives in the thread's kernel-side struct
 * (kernel/user/process.h), which must be 16-byte aligned.
 */
struct arch_thread {
	u8 fxsave[512] __aligned(16);	/* FXSAVE64 image, SDM Vol. 1 10.5 */
	u64 fs_base;			/* MSR_FS_BASE while it runs */
	struct pt_regs entry;		/* registers of its first entry */
};

/* arch_thread_init_exec - first entry at pc with stack sp, all other
 * registers 0, FPU in its reset state (FCW 0x37f, MXCSR 0x1f80). */
void arch_thread_init_exec(struct arch_thread *t, unsigned long pc,
			   unsigned long sp);
/* arch_thread_init_clone - a clone's child: the parent's registers from
 * the system call (regs) and its FPU state, return value 0, stack sp
 * (0: the parent's), FS base tls when set_tls.  Context: the parent. */
void arch_thread_init_clone(struct arch_thread *t, const struct pt_regs *regs,
			    unsigned long sp, bool set_tls, unsigned long tls);
/* arch_thread_switch - save prev's user state (if prev is a user thread)
 * and load next's (if next is).  Eager: every switch, see user_thread.c.
 * Context: the context switch, interrupts off. */
void arch_thread_switch(struct arch_thread *prev, struct arch_thread *next);
/* arch_thread_set_fs / arch_thread_get_fs - arch_prctl(ARCH_SET_FS). */
void arch_thread_set_fs(struct arch_thread *t, unsigned long base);
unsigned long arch_thread_get_fs(const struct arch_thread *t);
/* arch_thread_enter_user - leave the kernel into user mode with t's
 * first-entry registers (on this task's stack top; the kernel frames of
 * the caller are dropped).  Runs exit_to_user_mode_prepare() first.
 * Context: current's own user thread, task, irqs on. */
__noreturn void arch_thread_enter_user(struct arch_thread *t);
/* arch_set_kernel_stack - the stack a ring 3 -> 0 switch lands on (TSS
 * RSP0 and the SYSCALL entry's stack) for CPU cpu, this CPU.
 * Context: the context switch, interrupts off. */
void arch_set_kernel_stack(int cpu, unsigned long top);

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
