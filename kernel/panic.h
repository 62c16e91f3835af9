/*
 * kernel/panic.h - panic(), dump_stack() and the oops helpers.
 */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include "lib/compiler.h"

/* panic - print the message, the registers and a symbolised backtrace of
 * the caller, stop the other CPUs and halt this one.
 * Context: any. */
void panic(const char *fmt, ...) __noreturn __printf(1, 2);

/* dump_stack - print a symbolised backtrace of the caller. */
void dump_stack(void);

/* warn_count - WARN()s reported so far (__warn; the soak compares it
 * before and after).  Linux: warn_count, /sys/kernel/warn_count. */
extern unsigned long warn_count;

#endif /* KERNEL_PANIC_H */
