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

struct pt_regs;
/* smp_stop_nmi - the NMI's panic stop: once arch_stop_other_cpus began,
 * report this CPU and halt (never returns); false otherwise.  do_nmi
 * (traps.c) calls it first.  Context: NMI. */
bool smp_stop_nmi(struct pt_regs *regs);

/* arch_cpus_stopped - CPUs halted by arch_stop_other_cpus() so far. */
int arch_cpus_stopped(void);

#endif /* ARCH_X86_64_IPI_H */
