/*
 * kernel/mm/mm.h - bringing the memory manager up.
 *
 * The portable memory API is split by concept: kernel/mm/pmm.h (pages),
 * kernel/mm/slab.h (kmalloc, object caches), kernel/mm/kstack.h (guarded
 * kernel stacks); mapping is the machine's arch_map_page() (arch.h).
 */
#ifndef KERNEL_MM_MM_H
#define KERNEL_MM_MM_H

/* mm_init - page allocator, then the kernel page tables (W^X, no
 * identity map), then the slab allocator.  Context: boot CPU, once,
 * interrupts off, before anything allocates. */
void mm_init(void);

#endif /* KERNEL_MM_MM_H */
