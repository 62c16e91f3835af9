/*
 * arch/x86_64/stack_switch.h - run a function on another stack
 * (arch/x86_64/stack_switch.asm).
 */
#ifndef ARCH_X86_64_STACK_SWITCH_H
#define ARCH_X86_64_STACK_SWITCH_H

/* arch_call_on_stack - call fn(arg) with RSP at stack_top (rounded down
 * to 16 bytes), then return on the caller's stack.
 * Context: any; interrupts taken meanwhile run on the new stack. */
void arch_call_on_stack(void *stack_top, void (*fn)(void *arg), void *arg);

#endif /* ARCH_X86_64_STACK_SWITCH_H */
