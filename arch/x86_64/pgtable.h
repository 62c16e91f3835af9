/*
 * arch/x86_64/pgtable.h - page-table entry bits and the address-space
 * split, and the table walk (pgtable.c), shared by the kernel's tables
 * (mmu.c) and the user halves (mmu_user.c).
 * Spec: Intel SDM Vol. 3A 4.5 (tables 4-14 to 4-20).
 * Linux counterpart: arch/x86/include/asm/pgtable_types.h.
 */
#ifndef ARCH_X86_64_PGTABLE_H
#define ARCH_X86_64_PGTABLE_H

#include "lib/types.h"

/* Page-table entry bits (SDM Vol. 3A, tables 4-14 to 4-20). */
#define PTE_P		(1UL << 0)	/* present */
#define PTE_W		(1UL << 1)	/* writable */
#define PTE_U		(1UL << 2)	/* user accessible */
#define PTE_PWT		(1UL << 3)	/* write-through */
#define PTE_PCD		(1UL << 4)	/* cache disable */
#define PTE_PS		(1UL << 7)	/* 2 MiB / 1 GiB page (levels 2, 3) */
#define PTE_G		(1UL << 8)	/* global: survives a CR3 load */
#define PTE_SW_CACHE	(1UL << 9)	/* software: MAP_PAGE_CACHE */
#define PTE_SW_SHARED	(1UL << 10)	/* software: MAP_PAGE_SHARED */
#define PTE_SW_NOWRITE	(1UL << 11)	/* software: MAP_PAGE_NOWRITE */
#define PTE_NX		(1UL << 63)	/* no execute, if EFER.NXE */
#define PTE_ADDR	0x000FFFFFFFFFF000UL

#define HUGE_SIZE	(2UL << 20)
#define LOWER_HALF_END	0x0000800000000000UL


/* pt_index - virt's index into its table at level (4 = PML4 ... 1 = PT). */
unsigned int pt_index(unsigned long virt, int level);
u64 *pt_entry(u64 *pml4, unsigned long virt, int level, bool create,
	      u64 table_bits);

#endif /* ARCH_X86_64_PGTABLE_H */
