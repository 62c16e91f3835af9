/*
 * arch/x86_64/extable.h - the exception table's lookup (extable.c),
 * called by trap_dispatch for a kernel-mode fault.
 */
#ifndef ARCH_X86_64_EXTABLE_H
#define ARCH_X86_64_EXTABLE_H

#include "arch/x86_64/ptrace.h"

/* fixup_exception - if regs->rip is a listed user-access instruction,
 * point it at the fixup and return true.  Context: exception, irqs off. */
bool fixup_exception(struct pt_regs *regs);

#endif /* ARCH_X86_64_EXTABLE_H */
