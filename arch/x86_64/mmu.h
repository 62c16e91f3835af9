/*
 * arch/x86_64/mmu.h - the kernel's page tables: the portable mapping
 * calls (arch_map_page and friends, included by arch.h) and the few
 * x86-only ones the SMP bring-up needs.
 *
 * Virtual layout of the kernel half (4-level paging, 48-bit addresses):
 *   0xFFFF800000000000  direct map of physical memory (DIRECT_MAP_BASE):
 *                       0..4 GiB (RAM and the MMIO below 4 GiB) plus all
 *                       RAM above, 2 MiB pages, RW+NX (the image's text
 *                       and rodata alias is read-only)
 *   0xFFFFFF0000000000  kernel stacks (KSTACK_REGION_BASE, kernel/mm/kstack.c)
 *   0xFFFFFFFF80000000  kernel image (KERNEL_VMA), 4 KiB pages:
 *                       .text RX, .rodata R+NX, .data/.bss RW+NX
 * The lower half is empty except for what mmu_identity_map() adds.
 * Linux counterpart: arch/x86/mm/init_64.c, pgtable.h, set_memory.c.
 */
#ifndef ARCH_X86_64_MMU_H
#define ARCH_X86_64_MMU_H

#include "lib/types.h"

#define KSTACK_REGION_BASE 0xFFFFFF0000000000UL	/* PML4 slot 510 */
#define KSTACK_REGION_SIZE (1UL << 39)		/* the whole slot */

/* Portable mapping flags: a mapping is always readable; without
 * MAP_WRITE it is read-only, without MAP_EXEC it is no-execute. */
#define MAP_WRITE 0x1
#define MAP_EXEC 0x2
#define MAP_NOCACHE 0x4	/* PCD+PWT: uncached (MMIO), arch/x86_64/ioremap.c */
/* User pages that belong to a file, not to the mapping (kernel/mm/
 * filemap.c): unmapping them never frees them.  MAP_PAGE_CACHE: a page of
 * a file's read-only page cache (private: made writable, it is copied
 * first); MAP_PAGE_SHARED: a MAP_SHARED file's own page.  Kept in PTE
 * software bits 9 and 10 (SDM Vol. 3A 4.5, table 4-19: ignored). */
#define MAP_PAGE_CACHE 0x8
#define MAP_PAGE_SHARED 0x10
#define MAP_PAGE_BORROWED (MAP_PAGE_CACHE | MAP_PAGE_SHARED)
/* MAP_PAGE_NOWRITE: a MAP_SHARED page of a file opened read-only, which
 * mprotect may not make writable (Linux: no VM_MAYWRITE).  PTE bit 11. */
#define MAP_PAGE_NOWRITE 0x20

/* arch_unmap_page - remove the 4 KiB mapping at virt and flush it from
 * every online CPU's TLB (shootdown, arch/x86_64/tlb.h); once it returns
 * the page behind it may be reused.  -ENOENT when nothing was mapped,
 * -EINVAL for a bad address.  Context: task or boot, not hardirq (it
 * waits for the other CPUs). */
int arch_unmap_page(unsigned long virt);

/* ---- x86 only: the AP trampoline ---- */

/* mmu_identity_map - map [phys, phys + len) at the same virtual address,
 * writable and executable (the real-mode trampoline runs and keeps its
 * data there), not global.  Returns 0 or a negative errno. */
int mmu_identity_map(u64 phys, u64 len);
/* mmu_identity_unmap - undo mmu_identity_map once the APs are up. */
void mmu_identity_unmap(u64 phys, u64 len);
/* mmu_kernel_cr3 - physical address of the kernel PML4; below 4 GiB, so
 * a CPU still in 32-bit mode can load it. */
u64 mmu_kernel_cr3(void);

#endif /* ARCH_X86_64_MMU_H */
