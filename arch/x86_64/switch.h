/*
 * arch/x86_64/switch.h - the context switch the scheduler calls
 * (arch/x86_64/switch.asm), and the two kernel functions a new task's
 * first run calls back.
 */
#ifndef ARCH_X86_64_SWITCH_H
#define ARCH_X86_64_SWITCH_H

#include "lib/compiler.h"

/*
 * arch_switched_frame_pointer - the frame pointer (rbp) of a task that
 * arch_context_switch switched out, from the stack pointer it saved:
 * rbp was pushed first, under rbx r12 r13 r14 r15 (switch.asm), so it
 * sits 5 slots above sp.  For a sleeping task's backtrace (lock reports).
 * Context: any; the task must stay switched out while the caller reads.
 */
static inline unsigned long arch_switched_frame_pointer(unsigned long sp)
{
	return sp ? ((const unsigned long *)sp)[5] : 0;
}

/* Provided by kernel/sched: finish the switch into a new task (run-queue
 * lock released, interrupts and preemption on), and end the task. */
void schedule_tail(void *prev);
__noreturn void task_exit(int code);

#endif /* ARCH_X86_64_SWITCH_H */
