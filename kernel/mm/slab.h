/*
 * kernel/mm/slab.h - kmalloc/kfree and fixed-size object caches.
 *
 * kmalloc serves 16..4096 bytes from one power-of-two size class each
 * (struct kmem_cache), and anything larger straight from the page
 * allocator.  Objects of a power-of-two class are aligned to their size.
 * kfree of a pointer kmalloc never returned, or of an already free
 * object, is reported (kernel/mm/mm_report.h: the pointer, the caller
 * and, with SLAB_DEBUG, the object's alloc and free sites) and
 * otherwise ignored.  Red zones and poison: kernel/mm/slab_debug.h;
 * injected failures: kernel/mm/fault_inject.h.
 * Each cache keeps per-CPU arrays of free objects (kernel/mm/slab_cpu.c):
 * from a preemptible task kmalloc/kfree take only that CPU's per-CPU
 * lock, which under PREEMPT_RT is a sleeping spinlock_t: the fast path
 * disables neither interrupts nor preemption there (article,
 * "Latency-reduction measures").
 * Linux counterpart: include/linux/slab.h, include/linux/gfp_types.h.
 */
#ifndef KERNEL_MM_SLAB_H
#define KERNEL_MM_SLAB_H

#include "lib/types.h"
#include "kernel/percpu.h"	/* NR_CPUS */

/*
 * Allocation flags (gfp_t in Linux, plain ints here):
 *   __GFP_WAIT    the caller may sleep.  rtk's allocators never sleep
 *                 yet (no reclaim); the flag says what the caller
 *                 allows, for when they do.  (Mainline: __GFP_DIRECT_RECLAIM.)
 *   __GFP_ATOMIC  the caller must not sleep: interrupts off, a raw lock
 *                 held, or hard-interrupt context.  (Mainline: __GFP_HIGH.)
 *   __GFP_ZERO    return zeroed memory.
 *   GFP_KERNEL    ordinary task-context allocation.
 *   GFP_ATOMIC    allocation where sleeping is not allowed.
 */
#define __GFP_WAIT 0x1
#define __GFP_ATOMIC 0x2
#define __GFP_ZERO 0x4
#define GFP_KERNEL __GFP_WAIT
#define GFP_ATOMIC __GFP_ATOMIC

#define KMALLOC_MIN_SIZE 16
#define KMALLOC_MAX_CACHE_SIZE 4096	/* larger: whole pages */

/* kmalloc(0) returns this: not NULL (that means out of memory), never
 * dereferenceable, accepted by kfree. */
#define ZERO_SIZE_PTR ((void *)16)

struct kmem_cache;

/* kmalloc - size bytes, or NULL when out of memory.
 * Context: any; never waits for memory (see GFP flags).  From a
 * preemptible task (and not __GFP_ATOMIC) it goes through this CPU's
 * array, whose lock under rt is a sleeping PI lock: it may block on it
 * briefly, never with interrupts or preemption disabled by the
 * allocator.  Atomic contexts use the slab lists directly.  kfree and
 * kmem_cache_alloc/free follow the same rule. */
void *kmalloc(size_t size, int flags);
static inline void *kzalloc(size_t size, int flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}
/* kfree - free a kmalloc()ed pointer; NULL and ZERO_SIZE_PTR are no-ops. */
void kfree(const void *ptr);
/* ksize - usable size of a kmalloc()ed object (its class size); 0 for a
 * pointer kmalloc did not return. */
size_t ksize(const void *ptr);

/*
 * kmem_cache_create - a cache of size-byte objects aligned to align (a
 * power of two, 0 for 8).  NULL when out of memory.  kmem_cache_destroy
 * refuses (WARN) while objects are still allocated.
 * Context: task.  create never sleeps; destroy drains the cache from
 * every CPU's array and may block on those locks under rt.
 */
struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align);
void kmem_cache_destroy(struct kmem_cache *cache);
void *kmem_cache_alloc(struct kmem_cache *cache, int flags);
void kmem_cache_free(struct kmem_cache *cache, void *obj);

/* A snapshot of one cache, for the `mem` command. */
struct kmem_cache_info {
	char name[24];
	unsigned int obj_size;		/* bytes per object, with padding */
	unsigned int slab_pages;	/* pages per slab */
	unsigned long objs_in_use;	/* handed out (not in arrays) */
	unsigned long objs_total;	/* in all slabs */
	unsigned long slabs;
	unsigned int cpu_limit;		/* per-CPU array size, 0: none */
	unsigned long objs_cached;	/* free objects in per-CPU arrays */
	unsigned short cpu_avail[NR_CPUS]; /* ... in each CPU's array */
};

/* kmem_cache_info_get - the n-th cache (0, 1, ...) or -ENOENT past the
 * last one. */
int kmem_cache_info_get(int n, struct kmem_cache_info *info);
/* kmem_cache_totals - objects in use and pages held by all caches
 * (see slab.c). */
void kmem_cache_totals(unsigned long *objs_in_use, unsigned long *slab_pages);
/* kmalloc_large_pages - pages held by kmalloc's page-sized allocations. */
unsigned long kmalloc_large_pages(void);

/* slab_init - set up the kmalloc caches.  Context: boot, after the MMU. */
void slab_init(void);

/* slab_warn_count - bad kfree()/kmem_cache_free() calls so far (tests). */
extern unsigned long slab_warn_count;

/*
 * slab_drain_cpu - give every object in CPU cpu's arrays back to its
 * slab (empty slabs beyond each cache's spare go back to the page
 * allocator); returns how many.  slab_drain_all does every CPU; kmalloc
 * calls it when the slabs run out of memory.
 * Context: task, preemptible (takes cpu's per-CPU lock, a sleeping lock
 * under rt); BUG otherwise.
 */
unsigned long slab_drain_cpu(int cpu);
/* slab_drain_window - test-only (kernel/debug/race_window.h): inside
 * slab_drain_cpu's locked section, before the lock-break point after a
 * slot (tests/kernel/test_lock_break.c). */
struct race_window;
extern struct race_window slab_drain_window;
unsigned long slab_drain_all(void);

/* Counters of one CPU's per-CPU arrays (tests, `mem`). */
struct slab_cpu_stats {
	unsigned long fast_allocs;	/* kmalloc served by the array */
	unsigned long fast_frees;	/* kfree into the array */
	unsigned long refills;		/* batches pulled from the slabs */
	unsigned long drains;		/* batches pushed back */
	unsigned long lock_breaks;	/* slab_drain_cpu dropped the lock
					 * mid-drain (cond_resched_lock) */
	unsigned long bypasses;		/* calls that had to use the slabs
					 * directly (context, GFP_ATOMIC) */
	/* seen inside the last fast-path section (under the per-CPU lock),
	 * for the latency claim: rt keeps both 0 */
	int section_preempt_count;
	bool section_irqs_off;		/* RFLAGS.IF clear */
};

/* slab_cpu_stats_get - cpu's counters; -EINVAL for a CPU without a
 * per-CPU copy.  Racy snapshot.  Context: any. */
int slab_cpu_stats_get(int cpu, struct slab_cpu_stats *st);

#endif /* KERNEL_MM_SLAB_H */
