/*
 * arch/x86_64/idt.h - the interrupt descriptor table and the per-vector
 * handler table for vectors 32..255.
 *
 * One IDT serves every CPU (it holds no per-CPU state); each CPU loads it
 * with idt_load().  Gate n points at the entry stub for vector n in
 * arch/x86_64/trap_entry.asm; all stubs end in trap_common, which builds
 * a struct pt_regs and calls trap_dispatch() (arch/x86_64/traps.c).
 * Vectors 0..31 are the CPU's exceptions (traps.c); 32..255 are external
 * interrupts and IPIs, dispatched to whatever arch_set_irq_handler()
 * registered.
 * Spec: Intel SDM Vol. 3A 6.10 (IDT), 6.14.1 (64-bit gate descriptors),
 * 6.14.5 (IST).  Linux counterpart: arch/x86/kernel/idt.c,
 * arch/x86/include/asm/idtentry.h.
 */
#ifndef ARCH_X86_64_IDT_H
#define ARCH_X86_64_IDT_H

#include "lib/types.h"
#include "arch/x86_64/ptrace.h"

#define IDT_ENTRIES		256
#define FIRST_EXTERNAL_VECTOR	32	/* 0..31 are reserved for exceptions */

/* Size of each entry stub in trap_entry.asm: stub n is at
 * trap_stubs + n * TRAP_STUB_SIZE (the assembler checks it fits). */
#define TRAP_STUB_SIZE		16

typedef void (*irq_vector_handler_t)(struct pt_regs *regs);

/* idt_init - fill all 256 gates (interrupt gates, DPL 0, with IST stacks
 * for NMI, #DF and #MC) and load the IDT on this CPU.
 * Context: boot CPU, once, interrupts off, after gdt_init_cpu(). */
void idt_init(void);

/* idt_load - load the (already built) IDT on this CPU; for APs.
 * Context: early AP bring-up, interrupts off. */
void idt_load(void);

/* irq_vector_dispatch - run the handler registered for regs->vector, or
 * warn "unexpected interrupt vector N", count it and, if the local APIC
 * delivered it (ISR bit set), write its EOI.
 * Context: hardirq (called from trap_dispatch only). */
void irq_vector_dispatch(struct pt_regs *regs);

/* irq_unexpected_count - interrupts that arrived on a vector with no
 * handler, since boot. */
u64 irq_unexpected_count(void);

#endif /* ARCH_X86_64_IDT_H */
