/*
 * arch/x86_64/ipi.c - inter-processor interrupts: sending the ones
 * kernel/smp.c asks for, their vector handlers, and stopping the other
 * CPUs when one panics.
 *
 * Every IPI handler acknowledges its local APIC first (EOI), then runs
 * the portable part; an IPI of the same vector arriving meanwhile stays
 * pending in the IRR and is delivered after the handler returns, so
 * none is lost (the portable part is written for that, kernel/smp.c).
 * The stop is an NMI, not a fixed-vector IPI: it reaches a CPU spinning
 * with interrupts off too, which is exactly the CPU a panic may need to
 * see the backtrace of.  The panicking CPU stops the others one by one
 * and waits for each report, so the backtraces do not interleave.
 * Spec: Intel SDM Vol. 3A 10.6 (issuing IPIs), 10.8.5 (EOI), 6.7.1
 * (NMI handling: further NMIs are held off until IRET).
 * Linux counterpart: arch/x86/kernel/smp.c (sysvec_call_function,
 * sysvec_reschedule_ipi, native_stop_other_cpus, smp_stop_nmi_callback).
 */
#include "arch/x86_64/ipi.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/irq_vectors.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/smpboot.h"
#include "arch/x86_64/stacktrace.h"
#include "arch/x86_64/traps.h"
#include "kernel/ksyms.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/bug.h"

/* How long the panicking CPU waits for one CPU's stop report.  A report
 * is a few dozen lines at 115200 baud: ~100 ms on a real UART. */
#define STOP_REPORT_TIMEOUT_NS (2 * NSEC_PER_SEC)

static bool stop_requested;   /* set once, by the panicking CPU */
static u64 cpus_stopped_mask; /* bit n: CPU n has halted */

void arch_send_call_function_ipi(int cpu)
{
	lapic_send_ipi(smp_cpu_apic_id(cpu), CALL_FUNCTION_VECTOR);
}

void arch_send_call_function_single_ipi(int cpu)
{
	lapic_send_ipi(smp_cpu_apic_id(cpu), CALL_FUNCTION_SINGLE_VECTOR);
}

void arch_send_reschedule(int cpu)
{
	lapic_send_ipi(smp_cpu_apic_id(cpu), RESCHEDULE_VECTOR);
}

/* Vector handlers.  Context: hardirq, interrupts off. */
static void call_function_ipi(struct pt_regs *regs)
{
	lapic_eoi();
	generic_smp_call_function_interrupt(IPI_CALL_FUNC);
}

static void call_function_single_ipi(struct pt_regs *regs)
{
	lapic_eoi();
	generic_smp_call_function_interrupt(IPI_CALL_FUNC_SINGLE);
}

static void reschedule_ipi(struct pt_regs *regs)
{
	lapic_eoi();
	generic_smp_reschedule_interrupt();
}

/*
 * smp_stop_nmi - see ipi.h: after arch_stop_other_cpus() began, report
 * and halt for good (NMIs stay blocked: there is no IRET); otherwise
 * the NMI is not ours and the caller (do_nmi) reports it.
 * Context: NMI, on the NMI IST stack, interrupts off.
 */
bool smp_stop_nmi(struct pt_regs *regs)
{
	int cpu = raw_smp_processor_id();
	char sym[96];

	if (!__atomic_load_n(&stop_requested, __ATOMIC_ACQUIRE))
		return false;
	this_cpu_inc(ipi_received[IPI_STOP]);
	ksym_snprint(sym, sizeof(sym), regs->rip);
	printk(KERN_EMERG "CPU %d: stopped by panic at %s%s\n", cpu, sym,
	       regs->rflags & X86_EFLAGS_IF ? "" : " (interrupts were off)");
	arch_show_backtrace(regs->rbp);
	__atomic_fetch_or(&cpus_stopped_mask, 1ULL << cpu, __ATOMIC_RELEASE);
	arch_halt_forever();
}

int arch_cpus_stopped(void)
{
	return hweight_long(
		__atomic_load_n(&cpus_stopped_mask, __ATOMIC_ACQUIRE));
}

/*
 * arch_stop_other_cpus - see ipi.h.
 * Context: the panicking CPU, interrupts off, oops_in_progress set.
 */
void arch_stop_other_cpus(void)
{
	int self = raw_smp_processor_id();
	int cpu, missing = 0;

	BUG_ON(!arch_irqs_disabled());
	__atomic_store_n(&stop_requested, true, __ATOMIC_RELEASE);
	for_each_online_cpu (cpu) {
		ktime_t deadline = ktime_get() + STOP_REPORT_TIMEOUT_NS;

		if (cpu == self)
			continue;
		lapic_send_nmi(smp_cpu_apic_id(cpu));
		while (!((__atomic_load_n(&cpus_stopped_mask,
					  __ATOMIC_ACQUIRE) >>
			  cpu) &
			 1)) {
			if (ktime_get() > deadline) {
				printk(KERN_EMERG
				       "CPU %d: no answer to the stop NMI\n",
				       cpu);
				missing++;
				break;
			}
			cpu_relax();
		}
	}
	printk(KERN_EMERG "smp: %d other CPU(s) stopped%s\n",
	       arch_cpus_stopped(), missing ? ", some did not answer" : "");
}

/*
 * arch_smp_init_ipis - see ipi.h.
 * Context: boot CPU, once, interrupts off or on (the handlers are
 * installed before any CPU can send these vectors).
 */
void __init arch_smp_init_ipis(void)
{
	static const struct {
		int vector;
		irq_vector_handler_t fn;
	} handlers[] = {
		{CALL_FUNCTION_VECTOR, call_function_ipi},
		{CALL_FUNCTION_SINGLE_VECTOR, call_function_single_ipi},
		{RESCHEDULE_VECTOR, reschedule_ipi},
	};

	for (size_t i = 0; i < ARRAY_SIZE(handlers); i++) {
		int err = arch_set_irq_handler(handlers[i].vector,
					       handlers[i].fn);

		if (err)
			panic("smp: vector %#x is taken (%d)",
			      handlers[i].vector, err);
	}
}
