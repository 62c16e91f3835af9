/*
 * arch/x86_64/signal_frame.c - the machine half of a signal: the frame a
 * handler runs on (Linux's struct rt_sigframe, uapi_sigcontext.h), its
 * undoing at rt_sigreturn, and the restart of an interrupted system
 * call.  The portable half (which signal, which action, the mask) is
 * kernel/user/signal_deliver.c.
 *
 * The frame, from high to low address (arch_setup_rt_frame):
 *	the interrupted stack, then its 128-byte red zone (the ABI lets a
 *	leaf function use it without moving RSP: the frame must not touch
 *	it); or the top of the alternate stack (sigaltstack)
 *	the FXSAVE image, 512 bytes, 64-byte aligned (sigcontext.fpstate)
 *	struct rt_sigframe: pretcode (= sa_restorer), ucontext, siginfo,
 *	its address == 8 mod 16: at the handler's first instruction
 *	(rsp + 8) % 16 == 0, as if pretcode had been pushed by a CALL
 *	(System V ABI 3.2.2).
 * The handler starts with rdi = sig, rsi = &info, rdx = &uc, rax = 0 and
 * the FPU in its reset state (Linux's fpu__clear_user_states).
 *
 * rt_sigreturn trusts nothing in the frame (every field was the
 * program's to write):
 *	CS, SS	the user selectors, always: a kernel CS would return to
 *		ring 0 on the program's terms;
 *	RFLAGS	only the flags a program may change (FIX_EFLAGS): IOPL
 *		would give it CLI and port I/O, NT makes IRET itself #GP,
 *		IF off would stop the tick for it;
 *	RIP	canonical, else SIGSEGV: IRET to a non-canonical RIP raises
 *		#GP in ring 0 on the IRET, and SYSRET to one the Intel
 *		hazard of syscall_entry.asm (CVE-2012-0217).  A canonical
 *		kernel-half RIP is let through as Linux does: IRET to ring 3
 *		there faults in ring 3 (#PF, SIGSEGV).  do_syscall_64 never
 *		SYSRETs to RIP >= USER_ADDR_END, and never when RCX/R11
 *		differ from RIP/RFLAGS, as after every rt_sigreturn;
 *	FXSAVE	MXCSR bits outside the CPU's MXCSR_MASK make FXRSTOR #GP in
 *		ring 0: refused (SIGSEGV), as Linux's failed restore is.
 * Spec: Intel SDM Vol. 1 10.5.1 (FXSAVE image, MXCSR_MASK), Vol. 2A
 * IRET (the canonical check), Vol. 3A 2.3 (RFLAGS).
 * Linux counterpart: arch/x86/kernel/signal.c, signal_64.c
 * (setup_rt_frame, get_sigframe, restore_sigcontext, handle_signal's
 * restart switch), fpu/signal.c.  rtk leaves out XSAVE state
 * (UC_FP_XSTATE: rtk's FPU state is FXSAVE's alone), 32-bit and x32
 * frames, and restart_syscall (-ERESTART_RESTARTBLOCK restarts as
 * -ERESTARTNOHAND does).
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/uapi_sigcontext.h"
#include "kernel/user/uaccess.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SYSCALL_VECTOR_MARK	0x100	/* = syscall.c */
#define RED_ZONE		128	/* System V ABI 3.2.2 */
#define FXSAVE_MXCSR		24	/* SDM Vol. 1 Table 10-2 */
#define FXSAVE_MXCSR_MASK	28
#define MXCSR_MASK_DEFAULT	0xFFBF	/* when the image says 0 (SDM 11.6.6) */

/* The arithmetic flags (SDM Vol. 1 3.4.3.1), which cpu.h has no use for. */
#define X86_EFLAGS_CF		(1UL << 0)
#define X86_EFLAGS_PF		(1UL << 2)
#define X86_EFLAGS_AF		(1UL << 4)
#define X86_EFLAGS_ZF		(1UL << 6)
#define X86_EFLAGS_SF		(1UL << 7)
#define X86_EFLAGS_OF		(1UL << 11)

/* The flags rt_sigreturn takes from the frame (Linux's FIX_EFLAGS). */
#define FIX_EFLAGS                                                         \
	(X86_EFLAGS_AC | X86_EFLAGS_OF | X86_EFLAGS_DF | X86_EFLAGS_TF |    \
	 X86_EFLAGS_SF | X86_EFLAGS_ZF | X86_EFLAGS_AF | X86_EFLAGS_PF |    \
	 X86_EFLAGS_CF | X86_EFLAGS_RF)

static bool is_canonical(u64 addr)
{
	return addr < 0x0000800000000000UL || addr >= 0xFFFF800000000000UL;
}

unsigned long arch_user_sp(const struct pt_regs *regs)
{
	return regs->rsp;
}

unsigned long arch_syscall_return_value(const struct pt_regs *regs)
{
	return regs->rax;
}

/* fxsave_live / fxrstor_live - the CPU's FPU registers, which are the
 * current user thread's while it is in the kernel (user_thread.c: the
 * kernel never uses the FPU), to and from a 16-byte aligned image. */
static void fxsave_live(u8 *image)
{
	__asm__ volatile("fxsave64 %0" : "=m"(*(u8(*)[FXSAVE_SIZE])image));
}

static void fxrstor_live(const u8 *image)
{
	__asm__ volatile("fxrstor64 %0" : : "m"(*(const u8(*)[FXSAVE_SIZE])image));
}

/* fpu_reset_live - the reset state a handler starts with: x87 control
 * word 0x037F, MXCSR 0x1F80 (all exceptions masked), registers 0. */
static void fpu_reset_live(void)
{
	static const u8 init[FXSAVE_SIZE] __aligned(16) = {
		[0] = 0x7F, [1] = 0x03, [24] = 0x80, [25] = 0x1F,
	};

	fxrstor_live(init);
}

/* mxcsr_mask - the MXCSR bits this CPU accepts: MXCSR_MASK of an FXSAVE
 * image (the same on every CPU; racing first callers store one value). */
static u32 mxcsr_mask(void)
{
	static u32 mask;
	u8 image[FXSAVE_SIZE] __aligned(16);
	u32 m = READ_ONCE(mask);

	if (m)
		return m;
	fxsave_live(image);
	memcpy(&m, &image[FXSAVE_MXCSR_MASK], sizeof(m));
	if (!m)
		m = MXCSR_MASK_DEFAULT;
	WRITE_ONCE(mask, m);
	return m;
}

/*
 * arch_setup_rt_frame - see user_mode.h and the header's picture.
 * [1] where: the alternate stack's top, or below the red zone;
 * [2] the FXSAVE image's place (64-byte aligned), the frame's below it
 *     at 8 mod 16;
 * [3] a handler that is no user address, or no restorer (x86_64 has no
 *     vDSO fallback in rtk; Linux too fails the frame without
 *     SA_RESTORER): -EFAULT;
 * [4] the frame and the FXSAVE image written;
 * [5] regs enter the handler; the FPU starts reset.
 * Context: current's user thread on its way to ring 3, irqs on (a fault
 * in the copy is an -EFAULT).  Locking: none.
 */
int arch_setup_rt_frame(struct pt_regs *regs, struct arch_thread *t, int sig,
			const struct kernel_sigaction *ka,
			const struct siginfo *info, u64 oldmask,
			unsigned long stack_top,
			const struct sigaltstack_uapi *uc_stack)
{
	u8 image[FXSAVE_SIZE] __aligned(16);
	struct rt_sigframe f;
	struct sigcontext *sc = &f.uc.uc_mcontext;
	unsigned long sp, fp, frame;

	BUG_ON(arch_irqs_disabled());
	sp = stack_top ? stack_top : regs->rsp - RED_ZONE;		/* [1] */
	fp = (sp - FXSAVE_SIZE) & ~63UL;				/* [2] */
	frame = ((fp - sizeof(f)) & ~15UL) - 8;
	if (fp > sp || frame > fp ||
	    !access_ok((void __user *)frame, fp + FXSAVE_SIZE - frame))
		return -EFAULT;
	if (!(ka->sa_flags & SA_RESTORER) ||				/* [3] */
	    ka->sa_handler >= USER_ADDR_END)
		return -EFAULT;

	memset(&f, 0, sizeof(f));					/* [4] */
	f.pretcode = ka->sa_restorer;
	f.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	f.uc.uc_stack = *uc_stack;
	sc->r8 = regs->r8;
	sc->r9 = regs->r9;
	sc->r10 = regs->r10;
	sc->r11 = regs->r11;
	sc->r12 = regs->r12;
	sc->r13 = regs->r13;
	sc->r14 = regs->r14;
	sc->r15 = regs->r15;
	sc->rdi = regs->rdi;
	sc->rsi = regs->rsi;
	sc->rbp = regs->rbp;
	sc->rbx = regs->rbx;
	sc->rdx = regs->rdx;
	sc->rax = regs->rax;
	sc->rcx = regs->rcx;
	sc->rsp = regs->rsp;
	sc->rip = regs->rip;
	sc->eflags = regs->rflags;
	sc->cs = (u16)regs->cs;
	sc->ss = (u16)regs->ss;		/* gs, fs: 0, as Linux writes them */
	sc->err = t->error_code;
	sc->trapno = t->trap_nr;
	sc->oldmask = oldmask;
	sc->cr2 = t->cr2;
	sc->fpstate = fp;
	f.uc.uc_sigmask = oldmask;
	f.info = *info;
	fxsave_live(image);
	if (copy_to_user((void __user *)fp, image, sizeof(image)) ||
	    copy_to_user((void __user *)frame, &f, sizeof(f)))
		return -EFAULT;

	regs->rdi = (u64)sig;						/* [5] */
	regs->rsi = frame + offsetof(struct rt_sigframe, info);
	regs->rdx = frame + offsetof(struct rt_sigframe, uc);
	regs->rax = 0;
	regs->rip = ka->sa_handler;
	regs->rsp = frame;
	regs->cs = GDT_USER_CS | 3;
	regs->ss = GDT_USER_DS | 3;
	regs->rflags &= ~(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	regs->orig_rax = (u64)-1;	/* the handler's entry restarts nothing */
	fpu_reset_live();
	return 0;
}

/*
 * arch_rt_sigreturn - see user_mode.h.  The handler's RET popped
 * pretcode, so the frame starts 8 bytes below the stack pointer.
 * [1] the frame and its FXSAVE image, into kernel memory (a check on
 *     user memory would race with another thread rewriting it);
 * [2] refuse what would fault in ring 0: RIP, MXCSR (the header);
 * [3] the registers, with user CS/SS and the user-changeable flags;
 *     orig_rax -1: the restored RAX is a value, never a restart code;
 * [4] the FPU (none in the frame: the reset state, as Linux).
 * Context: the rt_sigreturn system call, irqs on.
 */
int arch_rt_sigreturn(struct pt_regs *regs, u64 *mask)
{
	u8 image[FXSAVE_SIZE] __aligned(16);
	struct rt_sigframe f;
	const struct sigcontext *sc = &f.uc.uc_mcontext;
	unsigned long frame = regs->rsp - 8;
	u32 mxcsr;

	BUG_ON(arch_irqs_disabled());
	if (copy_from_user(&f, (const void __user *)frame, sizeof(f)))	/* [1] */
		return -EFAULT;
	if (sc->fpstate &&
	    copy_from_user(image, (const void __user *)sc->fpstate, sizeof(image)))
		return -EFAULT;
	memcpy(&mxcsr, &image[FXSAVE_MXCSR], sizeof(mxcsr));
	if (!is_canonical(sc->rip) ||					/* [2] */
	    (sc->fpstate && (mxcsr & ~mxcsr_mask())))
		return -EFAULT;

	regs->r8 = sc->r8;						/* [3] */
	regs->r9 = sc->r9;
	regs->r10 = sc->r10;
	regs->r11 = sc->r11;
	regs->r12 = sc->r12;
	regs->r13 = sc->r13;
	regs->r14 = sc->r14;
	regs->r15 = sc->r15;
	regs->rdi = sc->rdi;
	regs->rsi = sc->rsi;
	regs->rbp = sc->rbp;
	regs->rbx = sc->rbx;
	regs->rdx = sc->rdx;
	regs->rax = sc->rax;
	regs->rcx = sc->rcx;
	regs->rsp = sc->rsp;
	regs->rip = sc->rip;
	regs->rflags = (regs->rflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS);
	regs->rflags |= X86_EFLAGS_IF;
	regs->cs = GDT_USER_CS | 3;
	regs->ss = GDT_USER_DS | 3;
	regs->orig_rax = (u64)-1;
	*mask = f.uc.uc_sigmask;

	if (sc->fpstate)						/* [4] */
		fxrstor_live(image);
	else
		fpu_reset_live();
	return 0;
}

/*
 * arch_syscall_restart - see user_mode.h.  Linux's table:
 *	-ERESTARTNOHAND, -ERESTART_RESTARTBLOCK: -EINTR under a handler;
 *	-ERESTARTSYS: -EINTR under a handler without SA_RESTART;
 *	-ERESTARTNOINTR: always restarted;
 *	otherwise (no handler, or SA_RESTART): restarted.
 * A restart re-executes the SYSCALL (2 bytes, 0F 05) with the number
 * back in RAX; the argument registers were never changed.
 * Context: the return to user, task.
 */
void arch_syscall_restart(struct pt_regs *regs, bool handler, bool sa_restart)
{
	long ret = (long)regs->rax;

	if (regs->vector != SYSCALL_VECTOR_MARK || regs->orig_rax == (u64)-1)
		return;
	switch (ret) {
	case -ERESTARTNOHAND:
	case -ERESTART_RESTARTBLOCK:
		if (handler) {
			regs->rax = (u64)-EINTR;
			break;
		}
		goto restart;
	case -ERESTARTSYS:
		if (handler && !sa_restart) {
			regs->rax = (u64)-EINTR;
			break;
		}
		goto restart;
	case -ERESTARTNOINTR:
		goto restart;
	default:
		break;
	}
	regs->orig_rax = (u64)-1;
	return;
restart:
	regs->rax = regs->orig_rax;
	regs->rip -= 2;
	regs->orig_rax = (u64)-1;	/* once: the next pass must not redo it */
}
