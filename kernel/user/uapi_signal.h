/*
 * kernel/user/uapi_signal.h - Linux's x86_64 signal ABI: the numbers,
 * the kernel's struct sigaction (what rt_sigaction copies), its flags,
 * and rt_sigprocmask's `how`.  Values are Linux's (uapi/asm/signal.h,
 * uapi/asm-generic/signal-defs.h); included by uapi.h, so the kernel
 * and rtk's user library share one copy.
 */
#ifndef KERNEL_USER_UAPI_SIGNAL_H
#define KERNEL_USER_UAPI_SIGNAL_H

#include "lib/types.h"

#define SIGHUP			1
#define SIGINT			2
#define SIGQUIT			3
#define SIGILL			4
#define SIGTRAP			5
#define SIGABRT			6
#define SIGBUS			7
#define SIGFPE			8
#define SIGKILL			9
#define SIGUSR1			10
#define SIGSEGV			11
#define SIGUSR2			12
#define SIGPIPE			13
#define SIGALRM			14
#define SIGTERM			15
#define SIGSTKFLT		16
#define SIGCHLD			17
#define SIGCONT			18
#define SIGSTOP			19
#define SIGTSTP			20
#define SIGTTIN			21
#define SIGTTOU			22
#define SIGURG			23
#define SIGXCPU			24
#define SIGXFSZ			25
#define SIGVTALRM		26
#define SIGPROF			27
#define SIGWINCH		28
#define SIGIO			29
#define SIGPWR			30
#define SIGSYS			31
#define SIGRTMIN		32	/* glibc keeps 32 and 33 for itself */
#define _NSIG			64	/* signals 1.._NSIG; a sigset is a u64 */

/* sigmask - the bit of signal sig (1.._NSIG) in a sigset */
#define sigmask(sig)		(1ULL << ((sig) - 1))

/* sa_handler's two values that are not functions */
#define SIG_DFL			0UL
#define SIG_IGN			1UL

/* sa_flags */
#define SA_NOCLDSTOP		0x00000001
#define SA_NOCLDWAIT		0x00000002
#define SA_SIGINFO		0x00000004
#define SA_RESTORER		0x04000000
#define SA_ONSTACK		0x08000000
#define SA_RESTART		0x10000000
#define SA_NODEFER		0x40000000
#define SA_RESETHAND		0x80000000

/* sigaltstack (uapi/linux/signal.h, asm-generic/signal.h) */
#define SS_ONSTACK		1	/* ss_flags: running on it now */
#define SS_DISABLE		2	/* no alternate stack */
#define MINSIGSTKSZ		2048	/* smallest size sigaltstack takes */

/* stack_t - sigaltstack's argument and ucontext's uc_stack (24 bytes) */
struct sigaltstack_uapi {
	unsigned long ss_sp;		/* lowest address */
	int ss_flags;			/* SS_ONSTACK, SS_DISABLE */
	unsigned long ss_size;
};

/* si_code values (uapi/asm-generic/siginfo.h) */
#define SI_USER			0	/* kill */
#define SI_KERNEL		0x80	/* sent by the kernel */
#define SI_TKILL		(-6)	/* tkill, tgkill */
#define SEGV_MAPERR		1	/* address not mapped */
#define SEGV_ACCERR		2	/* no permission for the access */
#define BUS_ADRALN		1	/* misaligned (#AC) */
#define ILL_ILLOPN		2	/* illegal operand (#UD) */
#define FPE_INTDIV		1	/* integer divide by zero */
#define FPE_FLTINV		7	/* SIMD floating-point exception */
#define TRAP_BRKPT		1	/* int3, single step */

/*
 * struct siginfo - siginfo_t as Linux's x86_64 kernel writes it: 128
 * bytes, the three ints, then a union at offset 16 whose member
 * depends on si_code (kill: pid and uid; a fault: the address).
 */
struct siginfo {
	int si_signo;
	int si_errno;			/* always 0 in rtk */
	int si_code;			/* SI_USER, SI_TKILL, SI_KERNEL, SEGV_* */
	int __pad0;
	union {
		struct {
			int si_pid;	/* the sender's tgid */
			u32 si_uid;	/* its uid: 0 in rtk */
		} kill;
		struct {
			unsigned long si_addr;	/* the faulting address */
		} fault;
		u8 __pad[112];
	} fields;
};
#define si_pid			fields.kill.si_pid
#define si_uid			fields.kill.si_uid
#define si_addr			fields.fault.si_addr

/* rt_sigprocmask's how */
#define SIG_BLOCK		0
#define SIG_UNBLOCK		1
#define SIG_SETMASK		2

/*
 * struct kernel_sigaction - rt_sigaction's argument as the x86_64
 * kernel reads it (Linux's struct sigaction in the kernel, not libc's:
 * the mask is last and is one u64, sigsetsize must be 8).
 */
struct kernel_sigaction {
	unsigned long sa_handler;	/* SIG_DFL, SIG_IGN or a function */
	unsigned long sa_flags;
	unsigned long sa_restorer;	/* glibc's __restore_rt */
	u64 sa_mask;			/* blocked while the handler runs */
};

#endif /* KERNEL_USER_UAPI_SIGNAL_H */
