/*
 * kernel/shell/cmd_smp.c - the `smp` command: the CPUs the bring-up
 * found, their APIC IDs, whether they are online, how long each took to
 * start and the IPIs each has handled.
 *
 *	smp		the table
 *	smp panic-test	make the last other CPU spin with interrupts off,
 *			then panic: the report must end with that CPU's
 *			"CPU n: stopped by panic" and its backtrace (the
 *			manual check of the NMI stop; the machine halts)
 * Linux counterpart: /proc/interrupts' RES/CAL/NMI rows, and the
 * sysrq-c crash for the panic path.
 */
#include "kernel/shell/shell.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "arch/x86_64/arch.h"
#include "lib/string.h"

static void show_cpus(void)
{
	console_printf("%-4s %-8s %-7s %-10s", "CPU", "APIC ID", "online",
		       "boot (us)");
	for (int type = 0; type < NR_IPI_TYPES; type++)
		console_printf(" %10s", ipi_type_name(type));
	console_printf("\n");
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct smp_cpu_info *ci = &smp_cpu_info[cpu];

		if (!ci->present)
			continue;
		console_printf(
			"%-4d %-8u %-7s %-10llu", cpu, ci->apic_id,
			cpu_online(cpu) ? "yes"
			: ci->failed	? "FAILED"
					: "no",
			(unsigned long long)(ci->boot_ns / NSEC_PER_USEC));
		for (int type = 0; type < NR_IPI_TYPES; type++)
			console_printf(" %10llu",
				       (unsigned long long)READ_ONCE(per_cpu(
					       ipi_received[type], cpu)));
		console_printf("\n");
	}
	console_printf("%d of %d CPUs online, limit %d, %lu bytes of per-CPU "
		       "data each\n",
		       num_online_cpus(), nr_cpu_ids, smp_cpus_limit(),
		       percpu_area_size());
}

static int spinner_running;

/* spin_with_irqs_off - runs in the call-function IPI handler (interrupts
 * off) and never returns: only an NMI can get this CPU's attention. */
static void spin_with_irqs_off(void *info)
{
	__atomic_store_n(&spinner_running, 1, __ATOMIC_RELEASE);
	for (;;)
		cpu_relax();
}

static int panic_test(void)
{
	int self = smp_processor_id(), victim = -1, cpu;
	ktime_t deadline;

	for_each_online_cpu (cpu) {
		if (cpu != self)
			victim = cpu;
	}
	if (victim < 0) {
		console_printf("smp panic-test: needs a second online CPU\n");
		return 1;
	}
	smp_call_function_single(victim, spin_with_irqs_off, NULL, false);
	deadline = ktime_get() + NSEC_PER_SEC;
	while (!__atomic_load_n(&spinner_running, __ATOMIC_ACQUIRE)) {
		if (ktime_get() > deadline) {
			console_printf("smp panic-test: CPU %d did not start "
				       "spinning\n",
				       victim);
			return 1;
		}
		cpu_relax();
	}
	panic("smp panic-test: CPU %d spins with interrupts off", victim);
}

static int cmd_smp(int argc, char **argv)
{
	if (argc == 1) {
		show_cpus();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "panic-test"))
		return panic_test();
	console_printf("usage: smp [panic-test]\n");
	return 1;
}
SHELL_COMMAND(smp, "CPUs, APIC IDs, IPI counts; 'smp panic-test' panics",
	      cmd_smp);
