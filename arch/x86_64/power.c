/*
 * arch/x86_64/power.c - power off and reboot.
 *
 * Power off tries, in order: the ACPI S5 sleep state through the FADT
 * (pm_power_off, set by the ACPI code once it has found PM1a/PM1b control
 * and the DSDT's \_S5 values; ACPI spec 6.x, 7.4.2 and 4.8.3.2.1),
 * QEMU's isa-debug-exit device at port 0xF4 (when the harness adds it),
 * the fixed PM1a ports of QEMU's q35 (0x604) and pc/piix4 (0xB004)
 * chipsets, and Bochs's shutdown port 0x8900 ("Shutdown").  Writes to
 * absent ports are ignored by PC hardware, so trying all is harmless.
 * Reboot: the ACPI reset register if any, the 8042 pulse, then a triple
 * fault.  Linux counterpart: arch/x86/kernel/reboot.c, drivers/acpi/sleep.c.
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/power.h"

void (*pm_power_off)(void);
void (*pm_reset)(void);

#define QEMU_DEBUG_EXIT_PORT 0xF4
#define SLP_EN (1u << 13)

__noreturn void arch_poweroff(void)
{
	arch_local_irq_disable();
	if (pm_power_off)
		pm_power_off();
	/* isa-debug-exit: QEMU exits with status (value << 1) | 1. */
	outl(QEMU_DEBUG_EXIT_PORT, 0);
	/* QEMU q35 ICH9 PM1a_CNT at 0x604, piix4 at 0xB004: SLP_TYP 0 = S5. */
	outw(0x604, SLP_EN);
	outw(0xB004, SLP_EN);
	/* Bochs: the string "Shutdown" written to port 0x8900. */
	for (const char *s = "Shutdown"; *s; s++)
		outb(0x8900, (u8)*s);
	arch_halt_forever();
}

__noreturn void arch_reboot(void)
{
	static const struct {
		u16 limit;
		u64 base;
	} __packed null_idt = { 0, 0 };

	arch_local_irq_disable();
	if (pm_reset)
		pm_reset();
	/* 8042 keyboard controller: wait for its input buffer, pulse reset. */
	for (int i = 0; i < 100000 && (inb(0x64) & 0x02); i++)
		cpu_relax();
	outb(0x64, 0xFE);
	/* Triple fault: an empty IDT makes the next exception unhandleable. */
	__asm__ volatile("lidt %0; int3" : : "m"(null_idt));
	arch_halt_forever();
}
