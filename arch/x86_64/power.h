/*
 * arch/x86_64/power.h - hooks the ACPI code fills for power off / reset.
 */
#ifndef ARCH_X86_64_POWER_H
#define ARCH_X86_64_POWER_H

/* pm_power_off - ACPI S5, when the FADT and DSDT gave us what it needs. */
extern void (*pm_power_off)(void);
/* pm_reset - the FADT reset register, when the FADT has one. */
extern void (*pm_reset)(void);

#endif /* ARCH_X86_64_POWER_H */
