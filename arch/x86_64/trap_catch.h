/*
 * arch/x86_64/trap_catch.h - catch a CPU exception raised on purpose and
 * carry on, instead of panicking.
 *
 * For tests (tests/kernel/test_exceptions.c, the memory suite's guard-
 * page test) that must show an exception really happens and is reported:
 *
 *	struct trap_catch c;
 *
 *	if (trap_try(&c)) {
 *		... code that faults ...
 *		trap_catch_disarm(&c);	// reached only when nothing faulted
 *	} else {
 *		// c.vector, c.error_code, c.cr2, c.rip, c.sym are filled in
 *		// and the catch is already disarmed
 *	}
 *
 * How: trap_try() pushes c on this CPU's catch stack and takes an
 * arch_setjmp() in the caller's own frame (a macro, not a function: the
 * jump buffer must belong to a frame that is still live when the
 * exception comes).  The exception handler (arch/x86_64/traps.c) prints
 * the oops between the lines "-- expected oops begin --" and
 * "-- expected oops end --", fills c, pops it, and arch_longjmp()s back:
 * RSP returns to the value saved at arm time, so even a #DF raised by a
 * stack overflow (handled on the IST stack) lands on the good stack.
 * The trap frame is abandoned, not returned through; RFLAGS.IF is set
 * back to what the faulting code had.
 *
 * Rules: disarm on the success path before leaving the function that
 * armed (and before any KTEST_ASSERT, which longjmps elsewhere); catches
 * nest LIFO; variables changed inside the try block and read after a
 * catch must be volatile (setjmp semantics).  NMI and #BP are never
 * caught (#BP returns to the next instruction), neither are interrupts.
 * One catch stack per CPU: the arming task must stay on its CPU while
 * armed (bound, or preemption off).
 * Linux counterpart: the exception tables (extable.c, _ASM_EXTABLE) play
 * this role in Linux, keyed by faulting RIP instead of a jump buffer.
 */
#ifndef ARCH_X86_64_TRAP_CATCH_H
#define ARCH_X86_64_TRAP_CATCH_H

#include "lib/types.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/ptrace.h"

struct trap_catch {
	struct arch_jmp_buf jb;	/* where the handler longjmps to */
	int vector;		/* exception caught, -1 while armed */
	u64 error_code;		/* CPU's error code (0 if none) */
	u64 cr2;		/* faulting address, #PF and #DF only */
	u64 rip;		/* faulting instruction */
	char sym[64];		/* bare symbol name containing rip ("" if
				 * none: then use rip) */
	struct trap_catch *prev;	/* next older armed catch */
};

/* true on the first pass, false after an exception was caught */
#define trap_try(c) (trap_catch_arm(c), arch_setjmp(&(c)->jb) == 0)

/* trap_catch_arm - push c as this CPU's innermost catch.
 * Context: any; the caller's frame must outlive the catch. */
void trap_catch_arm(struct trap_catch *c);

/* trap_catch_disarm - pop c, which must be the innermost catch (BUG
 * otherwise).  Context: the one that armed it. */
void trap_catch_disarm(struct trap_catch *c);

/* trap_catch_exception - called by the exception handler after the oops
 * printed: when a catch is armed, fill it from regs/cr2, pop it and
 * longjmp there (never returns); otherwise return false.
 * Context: exception, interrupts off. */
bool trap_catch_exception(const struct pt_regs *regs, u64 cr2);

/* trap_catch_armed - is a catch armed on this CPU? */
bool trap_catch_armed(void);

#endif /* ARCH_X86_64_TRAP_CATCH_H */
