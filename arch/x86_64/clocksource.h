/*
 * arch/x86_64/clocksource.h - the reference clock the TSC is calibrated
 * against (HPET, else ACPI PM timer, else PIT), kept readable for tests.
 */
#ifndef ARCH_X86_64_CLOCKSOURCE_H
#define ARCH_X86_64_CLOCKSOURCE_H

#include "lib/types.h"

struct refclock {
	const char *name;	/* "HPET", "ACPI PM timer", "PIT" */
	u64 hz;			/* counter frequency */
	u64 mask;		/* counter width: differences are taken & mask */
	u64 (*read)(void);	/* NULL for the PIT (one-shot use only) */
};

/* refclock_get - the clock arch_time_init() calibrated against. */
const struct refclock *refclock_get(void);

#endif /* ARCH_X86_64_CLOCKSOURCE_H */
