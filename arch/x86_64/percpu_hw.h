/*
 * arch/x86_64/percpu_hw.h - per-CPU data through the GS segment base.
 *
 * The per-CPU variables are linked once, in .data.percpu between
 * __percpu_start and __percpu_end (linker.ld): that is the template.
 * Each CPU gets its own copy, and its GS base (MSR_GS_BASE) holds
 *
 *	offset = copy - __percpu_start
 *
 * so that `mov %gs:var, %reg` reads var's copy: linear address =
 * GS.base + &var = copy + (&var - __percpu_start).  The displacement is
 * var's address itself: -mcmodel=kernel puts it at 0xFFFFFFFF8xxxxxxx,
 * which a sign-extended disp32 (or a RIP-relative one) reaches, and the
 * addition wraps modulo 2^64, so a copy below the template works too.
 * With GS base 0 (from arch_cpu_init() until percpu_init_bsp()) the same
 * instructions hit the template itself, so the boot CPU can use per-CPU
 * variables from its first C instruction.
 *
 * Each accessor here is ONE instruction, so it is atomic against an
 * interrupt (and, later, against preemption and migration) on this CPU:
 * it cannot read CPU A's offset and then touch the copy after migrating.
 * Spec: Intel SDM Vol. 3A 3.4.4 (segment loading in IA-32e mode: FS/GS
 * bases from MSRs), Vol. 4 (IA32_GS_BASE).
 * Linux counterpart: arch/x86/include/asm/percpu.h (percpu_from_op,
 * percpu_to_op, this_cpu_off), arch/x86/kernel/setup_percpu.c.
 */
#ifndef ARCH_X86_64_PERCPU_HW_H
#define ARCH_X86_64_PERCPU_HW_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "arch/x86_64/cpu.h"

/* __percpu_size_bug - referenced only when a per-CPU accessor is used on
 * a variable that is not 1, 2, 4 or 8 bytes: the link then fails. */
extern void __percpu_size_bug(void);

/*
 * arch_this_cpu_read - this CPU's copy of the scalar per-CPU variable
 * var, read with one gs-relative MOV.
 */
#define arch_this_cpu_read(var)                             \
	({                                                  \
		union {                                     \
			__typeof__(var) v;                  \
			u8 b1;                              \
			u16 b2;                             \
			u32 b4;                             \
			u64 b8;                             \
		} __pu;                                     \
		switch (sizeof(var)) {                      \
		case 1:                                     \
			__asm__ volatile("movb %%gs:%1, %0" \
					 : "=q"(__pu.b1)    \
					 : "m"(var));       \
			break;                              \
		case 2:                                     \
			__asm__ volatile("movw %%gs:%1, %0" \
					 : "=r"(__pu.b2)    \
					 : "m"(var));       \
			break;                              \
		case 4:                                     \
			__asm__ volatile("movl %%gs:%1, %0" \
					 : "=r"(__pu.b4)    \
					 : "m"(var));       \
			break;                              \
		case 8:                                     \
			__asm__ volatile("movq %%gs:%1, %0" \
					 : "=r"(__pu.b8)    \
					 : "m"(var));       \
			break;                              \
		default:                                    \
			__percpu_size_bug();                \
		}                                           \
		__pu.v;                                     \
	})

/*
 * __arch_this_cpu_op - one read-modify-write or store instruction insn
 * ("mov", "add", "or", ...) with val as source and this CPU's copy of
 * var as destination.  "memory": later plain accesses (per_cpu() of
 * this CPU) must see the store.
 */
#define __arch_this_cpu_op(insn, var, val)                                 \
	do {                                                               \
		switch (sizeof(var)) {                                     \
		case 1:                                                    \
			__asm__ volatile(insn "b %1, %%gs:%0"              \
					 : "+m"(var)                       \
					 : "qi"((u8)(unsigned long)(val))  \
					 : "memory");                      \
			break;                                             \
		case 2:                                                    \
			__asm__ volatile(insn "w %1, %%gs:%0"              \
					 : "+m"(var)                       \
					 : "ri"((u16)(unsigned long)(val)) \
					 : "memory");                      \
			break;                                             \
		case 4:                                                    \
			__asm__ volatile(insn "l %1, %%gs:%0"              \
					 : "+m"(var)                       \
					 : "ri"((u32)(unsigned long)(val)) \
					 : "memory");                      \
			break;                                             \
		case 8:                                                    \
			__asm__ volatile(insn "q %1, %%gs:%0"              \
					 : "+m"(var)                       \
					 : "er"((u64)(unsigned long)(val)) \
					 : "memory");                      \
			break;                                             \
		default:                                                   \
			__percpu_size_bug();                               \
		}                                                          \
	} while (0)

#define arch_this_cpu_write(var, val) __arch_this_cpu_op("mov", var, val)
#define arch_this_cpu_add(var, val)   __arch_this_cpu_op("add", var, val)

/* arch_percpu_set_base - load this CPU's GS base (its per-CPU offset).
 * Context: the CPU itself, interrupts off (an interrupt in between would
 * run with the old base). */
static inline void arch_percpu_set_base(unsigned long offset)
{
	wrmsr(MSR_GS_BASE, offset);
}

/* arch_percpu_get_base - this CPU's GS base, straight from the MSR (for
 * checks; this_cpu_off is the fast way). */
static inline unsigned long arch_percpu_get_base(void)
{
	return rdmsr(MSR_GS_BASE);
}

#endif /* ARCH_X86_64_PERCPU_HW_H */
