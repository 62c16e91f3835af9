/*
 * arch/x86_64/mmu_user.c - the user half of an address space: a PML4 of
 * its own whose slots 256..511 are copies of the kernel's (every one
 * filled at boot, mmu.c preallocate_kernel_half, so they never go
 * stale), and 4 KiB user pages below USER_ADDR_END.
 *
 * Rules kept here: a user leaf has PTE_U; W^X (a writable user page is
 * never executable, MAP_WRITE|MAP_EXEC is refused); data and stack are
 * NX.  The tables above a user leaf are U+W, the leaf decides (SDM Vol.
 * 3A 4.6: the access rights are the AND over the levels).  User entries
 * are never global, so a CR3 load drops them.
 * Locking: the caller serialises changes to one pgd (the mm's lock,
 * kernel/mm/user_mm.c); the page-table pages come from the page
 * allocator (may take pmm's lock).
 * Spec: Intel SDM Vol. 3A 4.5, 4.6 (U/S, R/W, XD), 4.10.4.
 * Linux counterpart: arch/x86/mm/pgtable.c (pgd_alloc, pgd_ctor copying
 * the kernel half), mm/memory.c (zap_pte_range, free_pgtables).
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/tlb.h"
#include "kernel/mm/pmm.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

#define USER_PML4_SLOTS	256		/* the lower half */

/* The entries above a user leaf: U+W, the leaf decides (see the header). */
#define USER_TABLE_BITS	(PTE_P | PTE_W | PTE_U)

u64 arch_pgd_alloc(void)
{
	u64 *pml4 = alloc_page();
	const u64 *kernel = phys_to_virt(mmu_kernel_cr3());

	if (!pml4)
		return 0;
	memset(pml4, 0, USER_PML4_SLOTS * sizeof(u64));
	memcpy(&pml4[USER_PML4_SLOTS], &kernel[USER_PML4_SLOTS],
	       USER_PML4_SLOTS * sizeof(u64));
	return virt_to_phys(pml4);
}

/* free_user_table - free the tables below table (level > 1), and, when
 * leaves is set, clear the level-1 entries and free the pages they map,
 * except a file's (PTE_SW_CACHE, PTE_SW_SHARED); returns how many leaf
 * pages were freed. */
static unsigned long free_user_table(u64 *table, int level, bool leaves)
{
	unsigned long n = 0;

	for (int i = 0; i < 512; i++) {
		u64 e = table[i];

		if (!(e & PTE_P))
			continue;
		if (level == 1) {
			if (leaves) {
				/* a file's page is the file's to free */
				if (!(e & (PTE_SW_CACHE | PTE_SW_SHARED))) {
					free_page(phys_to_virt(e & PTE_ADDR));
					n++;
				}
				table[i] = 0;
			}
			continue;
		}
		n += free_user_table(phys_to_virt(e & PTE_ADDR), level - 1,
				     leaves);
		if (!leaves) {
			free_page(phys_to_virt(e & PTE_ADDR));
			table[i] = 0;
		}
	}
	return n;
}

unsigned long arch_user_unmap_all(u64 pgd)
{
	u64 *pml4 = phys_to_virt(pgd);
	unsigned long n = 0;

	for (int i = 0; i < USER_PML4_SLOTS; i++)
		if (pml4[i] & PTE_P)
			n += free_user_table(phys_to_virt(pml4[i] & PTE_ADDR),
					     3, true);
	return n;
}

void arch_pgd_free(u64 pgd)
{
	u64 *pml4 = phys_to_virt(pgd);

	BUG_ON(pgd == mmu_kernel_cr3());
	BUG_ON(read_cr3() == pgd);	/* nobody may still run on it */
	for (int i = 0; i < USER_PML4_SLOTS; i++) {
		if (!(pml4[i] & PTE_P))
			continue;
		free_user_table(phys_to_virt(pml4[i] & PTE_ADDR), 3, false);
		free_page(phys_to_virt(pml4[i] & PTE_ADDR));
		pml4[i] = 0;
	}
	free_page(pml4);
}

/* user_leaf_bits - the leaf bits for MAP_* flags, beyond P and U. */
static u64 user_leaf_bits(unsigned int flags)
{
	u64 bits = 0;

	if (flags & MAP_WRITE)
		bits |= PTE_W;
	if (!(flags & MAP_EXEC) && arch_mmu_has_nx())
		bits |= PTE_NX;
	if (flags & MAP_PAGE_CACHE)
		bits |= PTE_SW_CACHE;
	if (flags & MAP_PAGE_SHARED)
		bits |= PTE_SW_SHARED;
	if (flags & MAP_PAGE_NOWRITE)
		bits |= PTE_SW_NOWRITE;
	return bits;
}

int arch_map_user_page(u64 pgd, unsigned long virt, u64 phys,
		       unsigned int flags)
{
	u64 *pte, bits = PTE_P | PTE_U;

	if (virt >= USER_ADDR_END || !IS_ALIGNED(virt, PAGE_SIZE) ||
	    !IS_ALIGNED(phys, PAGE_SIZE))
		return -EINVAL;
	if ((flags & MAP_WRITE) && (flags & MAP_EXEC))
		return -EACCES;		/* W^X */
	bits |= user_leaf_bits(flags);
	pte = pt_entry(phys_to_virt(pgd), virt, 1, true, USER_TABLE_BITS);
	if (!pte)
		return -ENOMEM;
	if (*pte & PTE_P)
		return -EEXIST;
	*pte = phys | bits;
	return 0;
}

int arch_unmap_user_page(u64 pgd, unsigned long virt, u64 *phys)
{
	u64 *pte;

	if (virt >= USER_ADDR_END || !IS_ALIGNED(virt, PAGE_SIZE))
		return -EINVAL;
	pte = pt_entry(phys_to_virt(pgd), virt, 1, false, USER_TABLE_BITS);
	if (!pte || !(*pte & PTE_P))
		return -ENOENT;
	if (phys)
		*phys = *pte & PTE_ADDR;
	*pte = 0;
	return 0;
}

unsigned long arch_user_next_mapped(u64 pgd, unsigned long start,
				   unsigned long end)
{
	unsigned long va = ALIGN_DOWN(start, PAGE_SIZE);

	while (va < end && va < USER_ADDR_END) {
		const u64 *table = phys_to_virt(pgd);
		int level;

		for (level = 4; level >= 1; level--) {
			u64 e = table[pt_index(va, level)];

			if (!(e & PTE_P))
				break;
			if (level == 1)
				return va;
			table = phys_to_virt(e & PTE_ADDR);
		}
		/* nothing below this entry: on to the next one of its level
		 * (user tables have no large pages: PTE_PS never set) */
		va = ALIGN_DOWN(va, 1UL << (PAGE_SHIFT + 9 * (level - 1))) +
		     (1UL << (PAGE_SHIFT + 9 * (level - 1)));
	}
	return end;
}

int arch_protect_user_page(u64 pgd, unsigned long virt, unsigned int flags)
{
	u64 *pte;

	if (virt >= USER_ADDR_END || !IS_ALIGNED(virt, PAGE_SIZE))
		return -EINVAL;
	if ((flags & MAP_WRITE) && (flags & MAP_EXEC))
		return -EACCES;		/* W^X */
	pte = pt_entry(phys_to_virt(pgd), virt, 1, false, USER_TABLE_BITS);
	if (!pte || !(*pte & PTE_P))
		return -ENOENT;
	*pte = (*pte & PTE_ADDR) | PTE_P | PTE_U | user_leaf_bits(flags);
	return 0;
}

void arch_flush_user_range(unsigned long start, unsigned long end)
{
	flush_tlb_kernel_range(start, end);	/* INVLPG drops user entries too */
}

int arch_query_user_page(u64 pgd, unsigned long virt, u64 *phys,
			 unsigned int *flags)
{
	u64 *pte;

	if (virt >= USER_ADDR_END)
		return -EINVAL;
	pte = pt_entry(phys_to_virt(pgd), virt & PAGE_MASK, 1, false,
		       USER_TABLE_BITS);
	if (!pte || !(*pte & PTE_P))
		return -ENOENT;
	if (phys)
		*phys = (*pte & PTE_ADDR) | (virt & ~PAGE_MASK);
	if (flags)
		*flags = ((*pte & PTE_W) ? MAP_WRITE : 0) |
			 ((*pte & PTE_NX) ? 0 : MAP_EXEC) |
			 ((*pte & PTE_SW_CACHE) ? MAP_PAGE_CACHE : 0) |
			 ((*pte & PTE_SW_SHARED) ? MAP_PAGE_SHARED : 0) |
			 ((*pte & PTE_SW_NOWRITE) ? MAP_PAGE_NOWRITE : 0);
	return 0;
}

void arch_switch_mm(u64 pgd)
{
	BUG_ON(!arch_irqs_disabled());
	if (read_cr3() != pgd)
		write_cr3(pgd);
}
