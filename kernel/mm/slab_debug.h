/*
 * kernel/mm/slab_debug.h - slab object debugging (CONFIG_SLAB_DEBUG,
 * `make SLAB_DEBUG=0` turns it off): red zones, poison on free, and the
 * allocation and free sites of every object.
 *
 * With it on, every slot of a cache is laid out as
 *
 *	| object: obj_size | red zone: 8 bytes | struct slab_obj_debug |
 *	^ what kmalloc returns                  alloc/free track, request
 *
 * and the slot stride (kmem_cache.size) is that rounded up to the
 * cache's alignment, so kmalloc objects stay aligned to their size.
 *   - free:  the object must be ALLOCATED (else double free, reported
 *            with both sites), its red zone and the bytes between the
 *            requested size and obj_size intact (else "red zone
 *            overwritten"); the free site is stored and the object is
 *            filled with SLAB_POISON_FREE (0x6b, as Linux);
 *   - alloc: the object must still be all poison and its red zone
 *            intact (else "use-after-free write": someone wrote it
 *            while it was free; reported with the last alloc and free
 *            sites); the alloc site and request size are stored and the
 *            slack past the request becomes red zone.
 * Checks run outside every allocator lock except at slab creation
 * (new_slab poisons the fresh slab under the cache lock).  Reports go
 * through kernel/mm/mm_report.h and the kernel carries on.
 * Without CONFIG_SLAB_DEBUG the hooks below are empty inlines.
 * Linux counterpart: mm/slub.c CONFIG_SLUB_DEBUG (SLAB_RED_ZONE,
 * SLAB_POISON, SLAB_STORE_USER; check_object, set_track), with KASAN's
 * "allocated by / freed by" report.
 */
#ifndef KERNEL_MM_SLAB_DEBUG_H
#define KERNEL_MM_SLAB_DEBUG_H

#include "kernel/mm/slab_internal.h"
#include "kernel/mm/mm_report.h"

#define SLAB_POISON_FREE 0x6b	/* Linux POISON_FREE */
#define SLAB_RED_ZONE 0xcc	/* Linux SLUB_RED_ACTIVE */
#define SLAB_RED_ZONE_SIZE 8

/* The debug tail after each object's red zone. */
struct slab_obj_debug {
	struct mm_track alloc;		/* last allocation */
	struct mm_track free;		/* last free */
	unsigned long req;		/* bytes the last kmalloc asked for */
};

#ifdef CONFIG_SLAB_DEBUG

/* Bytes each slot needs beyond the object. */
#define SLAB_DEBUG_EXTRA (SLAB_RED_ZONE_SIZE + sizeof(struct slab_obj_debug))

/* slab_debug_init_slab - poison every object of the new slab s and
 * clear its tracks.  Locking: c->lock held (new_slab). */
void slab_debug_init_slab(struct kmem_cache *c, struct slab *s);

/* slab_debug_alloc - obj (ALLOCATED, ours now) was free: check its
 * poison and red zone, then store the alloc site (stack from fp, the
 * allocator entry's frame) and red-zone the bytes past req.
 * Context: any.  Locking: none held. */
void slab_debug_alloc(struct kmem_cache *c, void *obj, size_t req,
		      unsigned long fp);

/* slab_debug_free - object idx of s is about to be freed: NULL when it
 * is ALLOCATED (red zone checked, free site stored, object poisoned),
 * else what is wrong (a double free: the caller reports it and frees
 * nothing).  Context: any.  Locking: none held. */
const char *slab_debug_free(struct kmem_cache *c, struct slab *s,
			    unsigned long idx, unsigned long fp);

/* slab_debug_tracks - object idx's stored alloc and free sites. */
void slab_debug_tracks(struct kmem_cache *c, struct slab *s,
		       unsigned long idx, struct mm_track *alloc,
		       struct mm_track *free);

/* slab_debug_meet_again - see slab_debug.c. */
bool slab_debug_meet_again(size_t size, void *target, int max);

#else /* !CONFIG_SLAB_DEBUG */

static inline bool slab_debug_meet_again(size_t size, void *target, int max)
{
	return false;
}

#define SLAB_DEBUG_EXTRA 0

static inline void slab_debug_init_slab(struct kmem_cache *c, struct slab *s)
{
}

static inline void slab_debug_alloc(struct kmem_cache *c, void *obj,
				    size_t req, unsigned long fp)
{
}

static inline const char *slab_debug_free(struct kmem_cache *c,
					  struct slab *s, unsigned long idx,
					  unsigned long fp)
{
	return NULL;
}

static inline void slab_debug_tracks(struct kmem_cache *c, struct slab *s,
				     unsigned long idx, struct mm_track *alloc,
				     struct mm_track *free)
{
}

#endif /* CONFIG_SLAB_DEBUG */

#endif /* KERNEL_MM_SLAB_DEBUG_H */
