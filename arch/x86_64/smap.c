/*
 * arch/x86_64/smap.c - SMEP and SMAP: detection, the check that no entry
 * runs C with the user's RFLAGS.AC (see smap.h for the mechanism).
 * Linux counterpart: arch/x86/kernel/cpu/common.c setup_smep(),
 * setup_smap().
 */
#include "arch/x86_64/smap.h"
#include "arch/x86_64/cpu.h"
#include "lib/compiler.h"

#define CPUID_7_EBX_SMEP	(1U << 7)
#define CPUID_7_EBX_SMAP	(1U << 20)

static unsigned long ac_seen;	/* atomic: any CPU's entry adds */

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
