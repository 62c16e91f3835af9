/*
 * arch/x86_64/stacktrace.h - frame-pointer backtraces and register dumps.
 */
#ifndef ARCH_X86_64_STACKTRACE_H
#define ARCH_X86_64_STACKTRACE_H

#include "lib/types.h"

/* arch_show_backtrace - print "Call Trace:" and one symbolised line per
 * frame, walking the RBP chain from rbp (frame pointers are kept in every
 * rtk build).  Context: any; reads only addresses that look like kernel
 * stack and stops at the first implausible frame. */
void arch_show_backtrace(unsigned long rbp);

/* arch_save_stack_trace - store up to max return addresses walking the
 * frame chain from rbp; returns the count (the rest of trace is 0).
 * Context: any. */
int arch_save_stack_trace(unsigned long rbp, unsigned long *trace, int max);

/* arch_show_current_regs - print this CPU's registers as the caller sees
 * them (for panic(), which has no trap frame). */
void arch_show_current_regs(void);

#endif /* ARCH_X86_64_STACKTRACE_H */
