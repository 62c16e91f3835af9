/*
 * arch/x86_64/ioremap.h - uncached kernel mappings of device registers.
 *
 * The LAPIC, IOAPIC and HPET register pages are mapped once at boot into
 * a window of their own (IOREMAP_BASE) with MAP_NOCACHE, so their reads
 * and writes reach the device whatever the MTRRs say about the direct
 * map's alias of the same physical page.
 * Linux counterpart: arch/x86/mm/ioremap.c ioremap_uc(); rtk never unmaps.
 */
#ifndef ARCH_X86_64_IOREMAP_H
#define ARCH_X86_64_IOREMAP_H

#include "lib/types.h"

/* 1 GiB below the kernel image, in the top PML4 slot: nothing else there. */
#define IOREMAP_BASE 0xFFFFFFFF40000000UL
#define IOREMAP_SIZE (64UL << 20)

/*
 * ioremap_nocache - map [phys, phys + len) uncached, writable, no-execute;
 * returns the virtual address of phys, or NULL (window full, no memory
 * for page tables).  Context: boot or task; never sleeps.
 * Locking: a window bump pointer advanced atomically.
 */
void *ioremap_nocache(u64 phys, size_t len);

#endif /* ARCH_X86_64_IOREMAP_H */
