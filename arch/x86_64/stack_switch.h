/*
 * arch/x86_64/stack_switch.h - run a function on another stack
 * (arch/x86_64/stack_switch.asm).
 */
#ifndef ARCH_X86_64_STACK_SWITCH_H
#define ARCH_X86_64_STACK_SWITCH_H

#endif /* ARCH_X86_64_STACK_SWITCH_H */
