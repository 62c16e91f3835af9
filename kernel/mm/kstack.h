/*
 * kernel/mm/kstack.h - kernel stacks with an unmapped guard below them.
 *
 * Each stack lives in its own slot of the kernel-stack region
 * (KSTACK_REGION_BASE, arch/x86_64/mmu.h):
 *
 *	slot base                                   slot base + KSTACK_SLOT
 *	| guard: KSTACK_GUARD_SIZE, never mapped | stack: KSTACK_SIZE, RW+NX |
 *	                                         ^ kstack_alloc()           ^ top
 *
 * The stack grows down from the top; running off its bottom touches the
 * guard, and the resulting fault (a #DF, since the CPU cannot push the
 * #PF frame on the dead stack) is named "kernel stack overflow" by the
 * double-fault handler through kstack_guard_hit().
 * Linux counterpart: kernel/fork.c alloc_thread_stack_node() with
 * CONFIG_VMAP_STACK (vmalloc'd stacks with guard pages).
 */
#ifndef KERNEL_MM_KSTACK_H
#define KERNEL_MM_KSTACK_H

#include "lib/types.h"
#include "arch/x86_64/arch.h"	/* kstack_guard_hit */

#define KSTACK_SIZE (16 * 1024)
/* The guard is as large as the stack: a frame up to 16 KiB big (a large
 * local array) still lands in it rather than in the next stack. */
#define KSTACK_GUARD_SIZE KSTACK_SIZE
#define KSTACK_SLOT (KSTACK_GUARD_SIZE + KSTACK_SIZE)
#define KSTACK_MAX 1024		/* stacks at once: 64 CPUs' idle + tasks */

/* kstack_alloc - a fresh stack; returns its lowest address (the stack
 * pointer starts at kstack_top()), or NULL when out of memory or slots.
 * Context: task or boot; never sleeps. */
void *kstack_alloc(void);

/* kstack_free - unmap and free a stack kstack_alloc() returned; anything
 * else is reported with WARN and ignored.  Every CPU's TLB forgets the
 * stack before its pages are freed (a shootdown), so afterwards the
 * stack's addresses fault on every CPU.  Context: task, not hardirq;
 * never on the stack being freed. */
void kstack_free(void *stack);

static inline void *kstack_top(void *stack)
{
	return (char *)stack + KSTACK_SIZE;
}

/* kstack_guard_hit(addr) - is addr in the guard below a live kernel
 * stack?  Declared in arch/x86_64/arch.h (the machine's fault handler
 * calls it), defined in kstack.c. */

/* kstack_nr_in_use - stacks allocated now (the `mem` command, tests). */
unsigned int kstack_nr_in_use(void);

#endif /* KERNEL_MM_KSTACK_H */
