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

/* arch_mmu_init - build and load the kernel page tables (see above);
 * after it the boot identity map is gone.  Context: boot CPU, once,
 * after pmm_init. */
void arch_mmu_init(void);

/*
 * arch_map_page - map the 4 KiB page at virt (kernel half, outside the
 * direct map) to phys with MAP_* flags.  Returns 0, -EEXIST when virt is
 * already mapped, -EINVAL for a bad address, -ENOMEM when a page table
 * could not be allocated.
 * Context: any; never sleeps.
 */
int arch_map_page(unsigned long virt, u64 phys, unsigned int flags);

/* arch_unmap_page - remove the 4 KiB mapping at virt and flush it from
 * every online CPU's TLB (shootdown, arch/x86_64/tlb.h); once it returns
 * the page behind it may be reused.  -ENOENT when nothing was mapped,
 * -EINVAL for a bad address.  Context: task or boot, not hardirq (it
 * waits for the other CPUs). */
int arch_unmap_page(unsigned long virt);

/* arch_unmap_range - the same for the n pages from virt, with a single
 * shootdown; returns how many were mapped (and are now unmapped), or
 * -EINVAL.  Context: as arch_unmap_page(). */
int arch_unmap_range(unsigned long virt, unsigned int n);

/* arch_query_page - is virt mapped?  0 with *phys (of virt itself) and
 * *flags (MAP_*) filled in, or -ENOENT.  Either pointer may be NULL. */
int arch_query_page(unsigned long virt, u64 *phys, unsigned int *flags);

/* arch_mmu_count_wx - kernel-half pages both writable and executable
 * (W^X: 0 whenever the CPU has NX).  Walks every table: for tests. */
unsigned long arch_mmu_count_wx(void);

/* arch_mmu_has_nx - does the CPU enforce no-execute (EFER.NXE)? */
bool arch_mmu_has_nx(void);

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
