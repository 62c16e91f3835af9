/*
 * arch/x86_64/uapi_sigcontext.h - the x86_64 signal frame as Linux lays
 * it out on the user stack: struct sigcontext (every general register,
 * RIP, RFLAGS, the selectors, the fault's error code, vector and CR2,
 * the old mask and a pointer to the FXSAVE image), struct ucontext
 * around it, and struct rt_sigframe (the restorer's address where a
 * return address would be, the ucontext, the siginfo).  Shared by the
 * kernel (signal_frame.c) and rtk's user programs (user/tests/
 * t_signal.c reads a handler's ucontext through it), so the two sides
 * use one layout.  glibc's ucontext_t has the same fields up to
 * uc_sigmask (its gregs[] are sigcontext's first 23 words).
 * Linux counterpart: arch/x86/include/uapi/asm/sigcontext.h (struct
 * sigcontext_64), include/uapi/asm-generic/ucontext.h,
 * arch/x86/include/asm/sigframe.h (struct rt_sigframe).
 */
#ifndef ARCH_X86_64_UAPI_SIGCONTEXT_H
#define ARCH_X86_64_UAPI_SIGCONTEXT_H

#include "lib/types.h"
#include "kernel/user/uapi_signal.h"

/* uc_flags (arch/x86/include/uapi/asm/ucontext.h): Linux sets both on a
 * 64-bit frame: the frame's SS is meaningful and restored */
#define UC_SIGCONTEXT_SS	0x2
#define UC_STRICT_RESTORE_SS	0x4

struct sigcontext {
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip;
	u64 eflags;			/* RFLAGS */
	u16 cs, gs, fs, ss;
	u64 err;			/* the fault's error code */
	u64 trapno;			/* its vector */
	u64 oldmask;			/* the mask before delivery */
	u64 cr2;			/* a #PF's address */
	u64 fpstate;			/* the FXSAVE image, 0 for none */
	u64 reserved1[8];
};

struct ucontext {
	unsigned long uc_flags;
	unsigned long uc_link;		/* 0 */
	struct sigaltstack_uapi uc_stack;
	struct sigcontext uc_mcontext;
	u64 uc_sigmask;			/* restored by rt_sigreturn */
};

struct rt_sigframe {
	unsigned long pretcode;		/* sa_restorer: the handler's return */
	struct ucontext uc;
	struct siginfo info;
	/* the FXSAVE image lies below, 64-byte aligned */
};

#define FXSAVE_SIZE		512

#endif /* ARCH_X86_64_UAPI_SIGCONTEXT_H */
