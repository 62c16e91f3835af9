/*
 * arch/x86_64/cpu_init.c - per-CPU descriptor-table bring-up: the first
 * thing kmain() asks of the machine after the console works, so that
 * from then on every exception prints an oops instead of triple-faulting.
 *
 * Order matters: the GDT/TSS first (the IDT's IST gates name TSS slots),
 * then the IDT; SMEP and SMAP last (smap.c), once the entries that
 * clear AC are in place.  APs will do the same with their own stacks through
 * gdt_init_cpu(cpu, stacks) and idt_load().
 * Linux counterpart: arch/x86/kernel/cpu/common.c cpu_init(),
 * arch/x86/kernel/idt.c idt_setup_early_traps().
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/smap.h"
#include "arch/x86_64/syscall.h"
#include "lib/bug.h"

/*
 * arch_cpu_init - see arch.h.
 * Context: boot CPU, once, interrupts off, boot stack.
 */
void __init arch_cpu_init(void)
{
	BUG_ON(!arch_irqs_disabled());
	arch_percpu_set_base(0);	/* per-CPU vars: the template, until
					 * percpu_init_bsp() */
	gdt_init_cpu(0, gdt_bsp_stacks());
	idt_init();
	syscall_init_cpu();
	fpu_init_cpu();
	setup_smep();
	setup_smap();
	smep_smap_report();
}
