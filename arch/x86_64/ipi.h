/*
 * arch/x86_64/ipi.h - the machine side of the cross-CPU calls: sending
 * the IPIs kernel/smp.c asks for, their vector handlers, and the NMI
 * that stops the other CPUs on panic.
 *
 * CPUs are logical numbers here (kernel/smp.h); ipi.c maps them to APIC
 * IDs with smp_cpu_apic_id().  Vectors: arch/x86_64/irq_vectors.h.
 * Linux counterpart: arch/x86/kernel/smp.c (native_smp_send_reschedule,
 * native_send_call_func_ipi, native_stop_other_cpus with the NMI
 * fallback), arch/x86/kernel/apic/ipi.c.
 */
#ifndef ARCH_X86_64_IPI_H
#define ARCH_X86_64_IPI_H

#include "lib/types.h"

/* arch_send_call_function_ipi / _single_ipi - kick cpu to run its
 * call-function queue (CALL_FUNCTION_VECTOR / CALL_FUNCTION_SINGLE_VECTOR).
 * Context: any. */
void arch_send_call_function_ipi(int cpu);
void arch_send_call_function_single_ipi(int cpu);

/* arch_send_reschedule - RESCHEDULE_VECTOR to cpu.  Context: any. */
void arch_send_reschedule(int cpu);

/*
 * arch_smp_init_ipis - install the IPI vector handlers.
 * Context: boot CPU, once, before the first AP starts.
 */
void arch_smp_init_ipis(void);

/*
 * arch_stop_other_cpus - NMI every other online CPU; each prints
 * "CPU n: stopped by panic" and its backtrace and halts with interrupts
 * off for good.  Waits (bounded) for their reports.  An NMI gets through
 * even to a CPU spinning with interrupts off.
 * Context: the panicking CPU, interrupts off.
 */
void arch_stop_other_cpus(void);

struct pt_regs;
/* smp_stop_nmi - the NMI's panic stop: once arch_stop_other_cpus began,
 * report this CPU and halt (never returns); false otherwise.  do_nmi
 * (traps.c) calls it first.  Context: NMI. */
bool smp_stop_nmi(struct pt_regs *regs);

/* arch_cpus_stopped - CPUs halted by arch_stop_other_cpus() so far. */
int arch_cpus_stopped(void);

#endif /* ARCH_X86_64_IPI_H */
