/*
 * arch/x86_64/ptrace.h - struct pt_regs, the register frame every trap
 * and interrupt entry builds on the stack (arch/x86_64/trap_entry.asm).
 *
 * From low to high address: the 15 general-purpose registers pushed by
 * trap_common, the vector and error code pushed by the per-vector stub
 * (a dummy 0 where the CPU pushes no error code), then the five words
 * the CPU pushes itself (Intel SDM Vol. 3A 6.14.1 "64-Bit Mode Stack
 * Frame").  The assembly (PUSH_REGS in arch/x86_64/pt_regs.inc) and this
 * struct must stay in the same order;
 * traps.c checks the size with BUILD_BUG_ON.
 * Linux counterpart: arch/x86/include/asm/ptrace.h (orig_ax shares the
 * error code's slot there too).
 */
#ifndef ARCH_X86_64_PTRACE_H
#define ARCH_X86_64_PTRACE_H

#include "lib/types.h"

struct pt_regs {
	/* pushed by trap_common, last push first */
	u64 r15;
	u64 r14;
	u64 r13;
	u64 r12;
	u64 r11;
	u64 r10;
	u64 r9;
	u64 r8;
	u64 rbp;
	u64 rdi;
	u64 rsi;
	u64 rdx;
	u64 rcx;
	u64 rbx;
	u64 rax;
	/* pushed by the per-vector stub */
	u64 vector;		/* 0..255 */
	union {
		u64 error_code;	/* CPU's error code, or 0 */
		u64 orig_rax;	/* a SYSCALL frame: the call's number, for a
				 * restart (rip -= 2, rax = orig_rax); -1
				 * once it may not restart (Linux's orig_ax,
				 * which shares the slot the same way) */
	};
	/* pushed by the CPU */
	u64 rip;		/* faulting insn (fault) or next insn (trap) */
	u64 cs;
	u64 rflags;
	u64 rsp;		/* interrupted RSP (always pushed in 64-bit) */
	u64 ss;
};

#define PT_REGS_SIZE (22 * 8)	/* trap_entry.asm: 15 GPRs + 2 + 5 */

/* user_mode - did the trap come from ring 3?  (rtk has no user mode yet;
 * kept so the dispatcher reads like Linux's.) */
static inline bool user_mode(const struct pt_regs *regs)
{
	return (regs->cs & 3) != 0;
}

#endif /* ARCH_X86_64_PTRACE_H */
