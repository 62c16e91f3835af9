/*
 * arch/x86_64/smap.c - SMEP and SMAP: detection, turning them on on each
 * CPU, and the check that no entry runs C with the user's RFLAGS.AC
 * (see smap.h for the mechanism, smap.inc for CLAC/STAC).
 * Linux counterpart: arch/x86/kernel/cpu/common.c setup_smep(),
 * setup_smap().
 */
#include "arch/x86_64/smap.h"
#include "arch/x86_64/cpu.h"
#include "kernel/printk.h"
#include "lib/bug.h"
#include "lib/compiler.h"

#define CPUID_7_EBX_SMEP	(1U << 7)
#define CPUID_7_EBX_SMAP	(1U << 20)

static unsigned long ac_seen;	/* atomic: any CPU's entry adds */

/* Read by ASM_CLAC / ASM_STAC (smap.inc): CLAC and STAC exist.  Written
 * once by the boot CPU's setup_smap() before its CR4.SMAP and before any
 * AP or user program runs; a byte, for `test byte [rel ...]`. */
u8 x86_smap_on;

/* cpuid7_ebx - CPUID.(7,0):EBX, 0 when leaf 7 does not exist. */
static u32 cpuid7_ebx(void)
{
	struct cpuid_regs r;

	cpuid(0, &r);
	if (r.eax < 7)
		return 0;
	cpuid_count(7, 0, &r);
	return r.ebx;
}

bool cpu_has_smep(void)
{
	return cpuid7_ebx() & CPUID_7_EBX_SMEP;
}

bool cpu_has_smap(void)
{
	return cpuid7_ebx() & CPUID_7_EBX_SMAP;
}

bool smep_enabled(void)
{
	return read_cr4() & X86_CR4_SMEP;
}

bool smap_enabled(void)
{
	return read_cr4() & X86_CR4_SMAP;
}

/*
 * setup_smep - see smap.h.  Nothing in the kernel runs from a user page
 * (the AP trampoline and the boot code run from supervisor mappings), so
 * there is nothing to prepare.
 * Context: each CPU's bring-up, interrupts off.
 */
void setup_smep(void)
{
	BUG_ON(read_rflags() & X86_EFLAGS_IF);
	if (!cpu_has_smep())
		return;
	write_cr4(read_cr4() | X86_CR4_SMEP);
}

/*
 * setup_smap - see smap.h.  [1] AC must already be clear (the boot code
 * and the AP trampoline never set it): with SMAP on, a set AC would be
 * an open window from the first instruction; [2] x86_smap_on before
 * CR4.SMAP, so the first entry after it already closes the window;
 * [3] CR4.  The boot CPU says once what it turned on.
 * Context: each CPU's bring-up, interrupts off.
 */
void setup_smap(void)
{
	BUG_ON(read_rflags() & X86_EFLAGS_IF);
	BUG_ON(read_rflags() & X86_EFLAGS_AC);			/* [1] */
	if (!cpu_has_smap())
		return;
	WRITE_ONCE(x86_smap_on, 1);				/* [2] */
	write_cr4(read_cr4() | X86_CR4_SMAP);			/* [3] */
}

/* smep_smap_report - one boot line: what the CPU has and what is on. */
void smep_smap_report(void)
{
	pr_info("cpu: SMEP %s, SMAP %s\n",
		smep_enabled() ? "on" : "not supported",
		smap_enabled() ? "on" : "not supported");
}

unsigned long entry_ac_seen(void)
{
	return __atomic_load_n(&ac_seen, __ATOMIC_RELAXED);
}

/*
 * entry_check_ac - see smap.h.  A count, not a BUG and not a printk: it
 * runs for NMIs too (no printk there), the kernel is not yet hurt
 * (nothing has touched user memory), and the test that provokes it
 * (t_smap, run by test_user.c) reports the count.
 * Context: any entry, NMI included, irqs off.
 */
void entry_check_ac(void)
{
	if (unlikely(read_rflags() & X86_EFLAGS_AC))
		__atomic_fetch_add(&ac_seen, 1, __ATOMIC_RELAXED);
}
