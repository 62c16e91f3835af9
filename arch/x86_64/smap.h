/*
 * arch/x86_64/smap.h - Supervisor Mode Execution and Access Prevention
 * (SMEP, SMAP): the kernel may neither run user pages nor read or write
 * them, except inside arch/x86_64/uaccess.asm, which opens the access
 * with STAC around the one instruction and closes it with CLAC.
 *
 * SMEP (CR4 bit 20): an instruction fetch in ring 0 from a page with
 * U/S = 1 is a #PF (error code I/D and P set).  SMAP (CR4 bit 21): a
 * ring-0 data access to a U/S = 1 page is a #PF (P set, U/S clear)
 * unless RFLAGS.AC is 1.  So AC is the key, and the user owns it too
 * (POPF in ring 3 sets it): every entry clears it first (ASM_CLAC in
 * smap.inc at the top of trap_common; SFMASK clears it for SYSCALL).
 * CPUID leaf 7, subleaf 0, EBX bit 7 is SMEP and bit 20 SMAP.
 * Spec: Intel SDM Vol. 3A 2.5 (CR4), 4.6 (access rights), 4.6.1;
 * Vol. 2A CPUID leaf 07H; Vol. 2B STAC, CLAC.
 * Linux counterpart: arch/x86/kernel/cpu/common.c setup_smep(),
 * setup_smap(); arch/x86/include/asm/smap.h (ASM_CLAC, ASM_STAC).  rtk
 * leaves out the alternatives patching: the entry code tests a flag
 * (x86_smap_on) instead, and the nosmep / nosmap parameters.
 */
#ifndef ARCH_X86_64_SMAP_H
#define ARCH_X86_64_SMAP_H

#include "lib/types.h"

/* cpu_has_smep / cpu_has_smap - does CPUID.(7,0):EBX say so?
 * Context: any. */
bool cpu_has_smep(void);
bool cpu_has_smap(void);

/* smep_enabled / smap_enabled - is CR4.SMEP / CR4.SMAP set on this CPU?
 * Context: any. */
bool smep_enabled(void);
bool smap_enabled(void);

/* setup_smep / setup_smap - set CR4.SMEP / CR4.SMAP on this CPU when
 * CPUID has it (and, for SMAP, let ASM_CLAC/ASM_STAC execute CLAC/STAC).
 * Context: each CPU's bring-up (cpu_init.c, smpboot.c), irqs off,
 * before it runs any user program. */
void setup_smep(void);
void setup_smap(void);
/* smep_smap_report - print what this CPU turned on.  Context: boot. */
void smep_smap_report(void);

/* entry_ac_seen - how many kernel entries (trap_dispatch, do_syscall_64)
 * found RFLAGS.AC set: the user's AC leaking into the kernel, which with
 * SMAP on would open every user page.  Must stay 0 with SMAP (tests);
 * without it there is no CLAC and the count grows harmlessly. */
unsigned long entry_ac_seen(void);

/* entry_check_ac - count an entry that arrives with AC set; called first
 * thing in the C entries.  Context: exception or syscall entry, irqs off. */
void entry_check_ac(void);

#endif /* ARCH_X86_64_SMAP_H */
