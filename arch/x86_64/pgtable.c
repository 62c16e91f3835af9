/*
 * arch/x86_64/pgtable.c - the walk down a 4-level page table: from a
 * PML4 to the entry for an address at a given level, making the missing
 * tables on the way.  One walk for both kinds of tables rtk edits: the
 * kernel's (mmu.c) and each process's user half (mmu_user.c).
 * Locking: none here; the caller serialises changes to the tables it
 * walks (mmu.c's mmu_lock, the mm's lock for a user pgd).
 * Spec: Intel SDM Vol. 3A 4.5 (4-level paging: the index bits of each
 * level, tables 4-14 to 4-20).
 * Linux counterpart: the pgd_offset/p4d_alloc/pud_alloc/pmd_alloc/
 * pte_alloc chain (include/linux/pgtable.h, mm/memory.c); rtk has four
 * fixed levels and one loop instead of one function per level.
 */
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/arch.h"
#include "kernel/mm/pmm.h"
#include "lib/string.h"

unsigned int pt_index(unsigned long virt, int level)
{
	return (virt >> (PAGE_SHIFT + 9 * (level - 1))) & 511;
}

/*
 * pt_entry - the entry for virt at level (4 = PML4 ... 1 = PT), making the
 * missing tables on the way when create is set.  NULL when a table is
 * missing (or could not be allocated) or a huge page maps the range.
 */
u64 *pt_entry(u64 *pml4, unsigned long virt, int level, bool create)
{
	u64 *table = pml4;

	for (int l = 4; l > level; l--) {
		u64 *e = &table[pt_index(virt, l)];

		if (!(*e & PTE_P)) {
			u64 *new;

			if (!create)
				return NULL;
			new = alloc_page();
			if (!new)
				return NULL;
			memset(new, 0, PAGE_SIZE);
			/* upper levels allow everything; the leaf decides */
			*e = virt_to_phys(new) | PTE_P | PTE_W;
		} else if (*e & PTE_PS) {
			return NULL;
		}
		table = phys_to_virt(*e & PTE_ADDR);
	}
	return &table[pt_index(virt, level)];
}
