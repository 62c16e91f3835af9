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
#include "lib/bug.h"
#include "lib/string.h"

unsigned int pt_index(unsigned long virt, int level)
{
	return (virt >> (PAGE_SHIFT + 9 * (level - 1))) & 511;
}

/*
 * pt_entry - the entry for virt at level (4 = PML4 ... 1 = PT) under
 * pml4.  With create, a missing table on the way is made (zeroed) and
 * its entry in the level above gets table_bits: PTE_P | PTE_W for the
 * kernel's, PTE_P | PTE_W | PTE_U for a user half; the upper levels
 * allow everything and the leaf decides (SDM Vol. 3A 4.6: the access
 * rights are the AND over the levels).  NULL when a table is missing
 * (or could not be allocated) or a huge page maps the range (only the
 * kernel's direct map has those).
 * Context: task or boot, irqs on or off (mmu.c holds its irq-off
 * mmu_lock); with create it allocates from the page allocator.
 * Locking: the caller's lock over the tables under pml4 (none taken).
 */
u64 *pt_entry(u64 *pml4, unsigned long virt, int level, bool create,
	      u64 table_bits)
{
	u64 *table = pml4;

	BUG_ON(level < 1 || level > 4);
	BUG_ON(create && !(table_bits & PTE_P));
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
			*e = virt_to_phys(new) | table_bits;
		} else if (*e & PTE_PS) {
			return NULL;
		}
		table = phys_to_virt(*e & PTE_ADDR);
	}
	return &table[pt_index(virt, level)];
}
