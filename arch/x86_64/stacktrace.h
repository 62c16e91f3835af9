/*
 * arch/x86_64/stacktrace.h - frame-pointer backtraces and register dumps.
 */
#ifndef ARCH_X86_64_STACKTRACE_H
#define ARCH_X86_64_STACKTRACE_H

#include "lib/types.h"

#endif /* ARCH_X86_64_STACKTRACE_H */
