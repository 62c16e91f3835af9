/*
 * arch/x86_64/gdt.h - the per-CPU GDT and TSS, and the IST stacks the
 * TSS points at.
 *
 * Every CPU has its own GDT (a TSS descriptor can be loaded by one CPU
 * only: LTR marks it busy) and its own TSS, whose Interrupt Stack Table
 * gives the three exceptions that can strike on a broken stack a known
 * good one: #DF (IST1), NMI (IST2), #MC (IST3), #DB (IST4).
 * Spec: Intel SDM Vol. 3A 3.4.5 (segment descriptors), 7.2.3 (TSS
 * descriptor in 64-bit mode), 7.7 (64-bit TSS), 6.14.5 (IST).
 * Linux counterpart: arch/x86/kernel/cpu/common.c (cpu_init, gdt_page),
 * asm/desc.h, asm/page_64_types.h (IST indices).
 */
#ifndef ARCH_X86_64_GDT_H
#define ARCH_X86_64_GDT_H

#include "lib/types.h"

/* Selectors; 0x08 and 0x10 are the same as boot/entry.asm's boot_gdt, so
 * code running before and after gdt_init_cpu() agrees on them. */
#define GDT_KERNEL_CS	0x08
#define GDT_KERNEL_DS	0x10
#define GDT_TSS		0x18	/* 16-byte descriptor: slots 3 and 4 */
/* User segments, in the order SYSRET needs (Intel SDM Vol. 2B SYSRET,
 * Vol. 3A 5.8.8): STAR[63:48] = GDT_USER_BASE; SYSRET to 64-bit code
 * loads SS = base + 8 and CS = base + 16, both with RPL 3.  The 32-bit
 * code slot at base itself is never loaded (no compat mode). */
#define GDT_USER_BASE	0x28	/* 32-bit user code: unused placeholder */
#define GDT_USER_DS	0x30	/* user data, DPL 3 */
#define GDT_USER_CS	0x38	/* user code, 64-bit, DPL 3 */

/* IST slots (1-based, as the IDT gate's IST field counts them). */
#define IST_DOUBLE_FAULT	1
#define IST_NMI			2
#define IST_MACHINE_CHECK	3
#define IST_DEBUG		4	/* #DB: paranoid, see trap_entry.asm */
#define IST_COUNT		4	/* slots rtk uses; the TSS has 7 */

#define IST_STACK_SIZE	(16 * 1024)

#define GDT_MAX_CPUS	64	/* = NR_CPUS in kernel/smp.h */

/*
 * struct cpu_stacks - the stacks one CPU's TSS points at.  The BSP's come
 * from static arrays in gdt.c; an AP's are allocated by its bring-up code
 * (ideally with guard pages) before it calls gdt_init_cpu().
 */
struct cpu_stacks {
	unsigned long ist_top[IST_COUNT];	/* [IST_x - 1]: top (exclusive),
						 * 16-byte aligned */
	unsigned long rsp0;	/* initial TSS.RSP0 (ring 3 -> 0 switch);
				 * the scheduler sets it per task with
				 * gdt_set_kernel_stack() */
};

/* gdt_bsp_stacks - the boot CPU's static IST stacks. */
const struct cpu_stacks *gdt_bsp_stacks(void);
/* gdt_ist_top - top of IST stack `ist` (IST_x) in CPU `cpu`'s TSS. */
unsigned long gdt_ist_top(int cpu, int ist);

/*
 * gdt_init_cpu - build CPU cpu's GDT and TSS from stacks, load them (LGDT,
 * reload CS by a far return and DS/ES/SS) and load the task register.
 * FS and GS are left alone: their bases hold per-CPU data (set by MSR).
 * Context: the CPU numbered cpu itself, early bring-up, interrupts off.
 */
void gdt_init_cpu(int cpu, const struct cpu_stacks *stacks);

/* gdt_set_kernel_stack - TSS.RSP0 of CPU cpu: the stack the CPU switches
 * to when an interrupt or exception arrives in ring 3.
 * Context: CPU cpu itself (the context switch), interrupts off. */
void gdt_set_kernel_stack(int cpu, unsigned long top);

#endif /* ARCH_X86_64_GDT_H */
