/*
 * arch/x86_64/smpboot.h - starting the application processors: the
 * trampoline's parameter block and what the bring-up records per CPU.
 *
 * Logical CPU numbers: 0 is the boot CPU, then the other enabled MADT
 * entries in table order, up to NR_CPUS (64) or maxcpus=N.
 * Linux counterpart: arch/x86/include/asm/smp.h, realmode.h.
 */
#ifndef ARCH_X86_64_SMPBOOT_H
#define ARCH_X86_64_SMPBOOT_H

#include "lib/types.h"

#define TRAMPOLINE_PHYS 0x8000 /* = TRAMPOLINE_PHYS in trampoline.asm */

/* Layout of the parameter block at trampoline_params (trampoline.asm). */
struct trampoline_params {
	u64 cr3;       /* kernel PML4, physical, below 4 GiB */
	u64 cr4;       /* the boot CPU's CR4, loaded in long mode */
	u64 efer;      /* EFER bits the AP sets: LME, NXE */
	u64 stack_top; /* the AP's idle stack top, 16-byte aligned */
	u64 entry;     /* void entry(int cpu) */
	u64 gs_base;   /* the AP's per-CPU offset */
	u32 cpu;       /* logical CPU number */
	u32 stage;     /* AP progress: 1 real mode, 2 long mode */
	u32 apic_id;   /* the APIC ID of the AP these are for */
	u32 stray;     /* an AP with another APIC ID woke here: its ID */
	u32 stray_seen; /* ... and it set this to 1 (then parked) */
	u32 pad;
} __attribute__((aligned(8)));	/* no padding: the size check in smpboot.c */

/* What the bring-up knows about one logical CPU.  Written by the boot
 * CPU before the AP starts (and boot_us once it is up); read-only after
 * smp_boot_cpus(). */
struct smp_cpu_info {
	u32 apic_id;	  /* local (x2)APIC ID */
	bool present;	  /* an enabled MADT entry got this number */
	bool failed;	  /* did not come online in time */
	u64 boot_ns;	  /* INIT to online, nanoseconds */
	void *idle_stack; /* kstack_alloc() base of its idle stack */
};

extern struct smp_cpu_info smp_cpu_info[];

/* smp_cpu_apic_id - the APIC ID of logical CPU cpu (which must be
 * present).  Context: any. */
u32 smp_cpu_apic_id(int cpu);

/* smp_cpus_limit - CPUs the command line allows (nosmp: 1, maxcpus=N:
 * N), NR_CPUS without either.  Context: any. */
int smp_cpus_limit(void);

/*
 * smp_boot_cpus - number the MADT's enabled CPUs, start every AP within
 * the limit (INIT - SIPI - SIPI), wait for each to come online; an AP
 * that does not answer is reported and skipped.  Returns the number of
 * CPUs online.
 * Context: boot CPU, once, after lapic_init() and percpu_init_bsp();
 * interrupts may be on or off.
 */
int smp_boot_cpus(void);

#endif /* ARCH_X86_64_SMPBOOT_H */
