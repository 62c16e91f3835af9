/*
 * kernel/mm/slab_internal.h - what kernel/mm/slab.c (slab lists) and
 * kernel/mm/slab_cpu.c (per-CPU object arrays) share: struct slab,
 * struct kmem_cache, the per-object state and the locked slab
 * operations the arrays refill from and drain to.
 *
 * Per-object state, one byte per object in its slab header (s->state);
 * every change is a cmpxchg from the state the changer expects, so a
 * racing or repeated kfree can only ever succeed on an ALLOCATED object
 * and every other case is reported, whether the object is free in its
 * slab or sitting in some CPU's array:
 *
 *   state          free_map bit  where the object is  changes (by, locks)
 *   OBJ_FREE       1             free in its slab     ->ALLOCATED cache_alloc (c->lock)
 *                                                     ->IN_ARRAY  refill (cpu, c->lock)
 *   OBJ_ALLOCATED  0             with its user        ->FREE      slow kfree (c->lock)
 *                                                     ->IN_ARRAY  fast kfree (cpu)
 *   OBJ_IN_ARRAY   0             a per-CPU array      ->ALLOCATED fast kmalloc (cpu)
 *                                                     ->FREE      drain (cpu, c->lock)
 * "cpu" is that CPU's slab_cpu lock (kernel/mm/slab_cpu.c).  Objects in
 * arrays count as in use for the slab (s->inuse, c->inuse) and so keep
 * their slab alive; the `mem` figure subtracts them.
 * Linux counterpart: mm/slab.h (struct kmem_cache, struct slab).
 */
#ifndef KERNEL_MM_SLAB_INTERNAL_H
#define KERNEL_MM_SLAB_INTERNAL_H

#include "kernel/mm/slab.h"
#include "kernel/mm/mm_lock.h"
#include "lib/bitmap.h"
#include "lib/list.h"

#define SLAB_MAX_OBJS 256	/* 16-byte objects in one page: 235 */

enum { OBJ_ALLOCATED = 0, OBJ_IN_ARRAY = 1, OBJ_FREE = 2 };

struct slab {
	struct list_head node;		/* in cache->partial, full or empty */
	struct kmem_cache *cache;	/* owner, constant */
	char *objs;			/* first object, constant */
	/* protected by cache->lock: */
	unsigned int inuse;		/* objects not free here */
	unsigned long free_map[BITS_TO_LONGS(SLAB_MAX_OBJS)]; /* set: free */
	/* cmpxchg only (table above): */
	u8 state[SLAB_MAX_OBJS];	/* OBJ_* */
};

struct kmem_cache {
	char name[24];
	unsigned int size;		/* slot stride: object, padding and
					 * (SLAB_DEBUG) red zone and track */
	unsigned int obj_size;		/* bytes a user may use (ksize) */
	unsigned int order;		/* slab = 2^order pages */
	unsigned int nr_objs;		/* objects per slab */
	unsigned int offset;		/* header to first object */
	/* per-CPU arrays, constant while the cache lives: */
	int cpu_slot;			/* index in struct slab_cpu, -1: none */
	unsigned int cpu_limit;		/* objects one CPU's array holds */
	unsigned int cpu_batch;		/* objects moved per refill/drain */
	struct mm_lock lock;
	/* protected by lock: */
	struct list_head partial;	/* some objects free */
	struct list_head full;		/* no object free */
	struct list_head empty;		/* all free: at most one kept */
	unsigned long nr_slabs;
	unsigned long inuse;		/* objects not free, all slabs */
	/* protected by cache_list_lock: */
	struct list_head list;		/* in cache_list */
};

/* obj_move - cmpxchg the state of object idx from `from` to `to`; false
 * (and *seen = the state found) when it was not `from`. */
static inline bool obj_move(struct slab *s, unsigned long idx, u8 from,
			    u8 to, u8 *seen)
{
	u8 expected = from;
	bool ok = __atomic_compare_exchange_n(&s->state[idx], &expected, to,
					      false, __ATOMIC_ACQ_REL,
					      __ATOMIC_ACQUIRE);

	if (seen)
		*seen = expected;
	return ok;
}

/* obj_state_why - the report for a free that found state seen. */
static inline const char *obj_state_why(u8 seen)
{
	return seen == OBJ_IN_ARRAY ?
		"object already free (double free; it sits in a per-CPU "
		"array)" :
		"object already free (double free)";
}

static inline void *slab_obj(struct slab *s, unsigned long idx)
{
	return s->objs + idx * s->cache->size;
}

/* __cache_take - one free object out of the slabs, moved to state `to`
 * (ALLOCATED or IN_ARRAY); NULL when no memory for a new slab.
 * Locking: c->lock held (pmm_lock taken inside for a new slab). */
void *__cache_take(struct kmem_cache *c, u8 to);

/* __cache_put - object idx of s back to its slab from state `from`;
 * NULL, or what was wrong (the state was not `from`).  A slab left
 * empty beyond the spare goes on `release` (cache_release_slabs).
 * Locking: c->lock held. */
const char *__cache_put(struct kmem_cache *c, struct slab *s,
			unsigned long idx, u8 from, struct list_head *release);

/* cache_release_slabs - give the slabs on `release` to the page
 * allocator.  Locking: c->lock not held. */
void cache_release_slabs(struct kmem_cache *c, struct list_head *release);

/* kernel/mm/slab_cpu.c: the per-CPU arrays in front of the slabs */

/* slab_cpu_usable - may this call use the per-CPU arrays?  (the context
 * rule is in slab_cpu.c's header) */
bool slab_cpu_usable(const struct kmem_cache *c, int flags);
/* slab_cpu_cache_setup - give c a slot and its array sizes (or none). */
void slab_cpu_cache_setup(struct kmem_cache *c);
/* slab_cpu_alloc - an ALLOCATED object from this CPU's array of c,
 * refilled from the slabs when empty; NULL when they are out of memory.
 * Context: slab_cpu_usable() was true. */
void *slab_cpu_alloc(struct kmem_cache *c);
/* slab_cpu_free - object idx of s into this CPU's array of c; NULL or
 * what was wrong.  Context: slab_cpu_usable() was true. */
const char *slab_cpu_free(struct kmem_cache *c, struct slab *s,
			  unsigned long idx);
/* slab_cpu_cache_detach - destroy, step 1: close c's slot to drainers
 * and drain c from every CPU's array.  Context: task, may sleep (rt). */
void slab_cpu_cache_detach(struct kmem_cache *c);
/* slab_cpu_cache_finish - destroy, step 2: keep (the cache lives on, its
 * slot reopens) or free the slot. */
void slab_cpu_cache_finish(struct kmem_cache *c, bool keep);
/* slab_cpu_fill - objects in c's arrays, and per CPU in avail[NR_CPUS]
 * (may be NULL).  A racy snapshot, no locks: callable anywhere. */
unsigned long slab_cpu_fill(const struct kmem_cache *c,
			    unsigned short *avail);

#endif /* KERNEL_MM_SLAB_INTERNAL_H */
