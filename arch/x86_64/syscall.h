/*
 * arch/x86_64/syscall.h - the SYSCALL entry's set-up and C side
 * (syscall.c, syscall_entry.asm); the portable side of a system call is
 * kernel/user/syscall.c.
 */
#ifndef ARCH_X86_64_SYSCALL_H
#define ARCH_X86_64_SYSCALL_H

#include "arch/x86_64/ptrace.h"

/* syscall_init_cpu - point this CPU's SYSCALL at entry_SYSCALL_64 (STAR,
 * LSTAR, SFMASK, EFER.SCE).  Context: each CPU's bring-up, irqs off. */
void syscall_init_cpu(void);

/* do_syscall_64 - run the system call regs holds, then the
 * return-to-user work; true when SYSRET may return, false for IRET.
 * Context: entry_SYSCALL_64, irqs off (on and off again inside). */
bool do_syscall_64(struct pt_regs *regs);

/* user_enter_regs - syscall_entry.asm: copy regs to stack_top's frame
 * and IRETQ to ring 3.  Context: irqs off, kernel GS. */
__attribute__((noreturn)) void user_enter_regs(const struct pt_regs *regs,
					       unsigned long stack_top);

/* fpu_init_cpu - this CPU's x87/SSE on for user tasks (user_thread.c).
 * Context: each CPU's bring-up, irqs off. */
void fpu_init_cpu(void);

#endif /* ARCH_X86_64_SYSCALL_H */
