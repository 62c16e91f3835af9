/*
 * kernel/mm/slab_debug.c - red zones, poison and alloc/free sites of
 * slab objects (layout and rules in slab_debug.h).
 *
 * Why the checks sit where they do:
 *	CPU0 kfree(p)                      CPU1 kmalloc()
 *	[1] check state, red zone
 *	[2] store free site, poison p
 *	[3] state ALLOCATED -> IN_ARRAY/FREE
 *	                                   pops p (-> ALLOCATED)
 *	                                   [4] check poison, store site
 * Everything CPU0 writes into p happens before [3] publishes p as free
 * (the cmpxchg is a release, the pop an acquire), so CPU1 never sees a
 * half-poisoned object; and after [3] CPU0 never touches p again.  Two
 * CPUs freeing the same live object at once both pass [1]; one loses the
 * cmpxchg at [3] and reports the double free, but its poison may land
 * on the object after its next owner got it: as in Linux, only a double
 * free that is not a race is reported exactly.
 * Linux counterpart: mm/slub.c (init_object, check_object,
 * check_bytes_and_report, set_track, free_debug_processing).
 */
#include "kernel/mm/slab_debug.h"

#ifdef CONFIG_SLAB_DEBUG

#include "kernel/mm/pmm.h"
#include "lib/string.h"

static struct slab_obj_debug *obj_debug(struct kmem_cache *c, void *obj)
{
	return (struct slab_obj_debug *)((char *)obj + c->obj_size +
					 SLAB_RED_ZONE_SIZE);
}

/* first_not - offset of the first byte of p[0..n) that is not v, or -1.
 * Word at a time: this runs on every kmalloc and kfree. */
static long first_not(const u8 *p, size_t n, u8 v)
{
	unsigned long word = 0x0101010101010101UL * v;
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		if (*(const unsigned long *)(p + i) != word)
			break;
	for (; i < n; i++)
		if (p[i] != v)
			return (long)i;
	return -1;
}

static void fill_free(struct kmem_cache *c, void *obj)
{
	memset(obj, SLAB_POISON_FREE, c->obj_size);
	memset((char *)obj + c->obj_size, SLAB_RED_ZONE, SLAB_RED_ZONE_SIZE);
}

void slab_debug_init_slab(struct kmem_cache *c, struct slab *s)
{
	struct slab_obj_debug *d;

	mm_lock_assert_held(&c->lock);
	for (unsigned int i = 0; i < c->nr_objs; i++) {
		fill_free(c, slab_obj(s, i));
		d = obj_debug(c, slab_obj(s, i));
		mm_track_clear(&d->alloc);
		mm_track_clear(&d->free);
		d->req = c->obj_size;
	}
}

/* report_bytes - a report about obj whose byte at off is not want. */
static void report_bytes(struct kmem_cache *c, void *obj,
			 enum mm_report_kind kind, long off, u8 want,
			 unsigned long fp)
{
	struct slab_obj_debug *d = obj_debug(c, obj);
	struct mm_report r = {
		.kind = kind, .addr = obj, .cache = c->name, .offset = off,
		.seen = ((u8 *)obj)[off], .want = want,
		.alloc = d->alloc, .free = d->free,
	};

	mm_track_save(&r.now, fp);
	mm_report(&r);
}

/* check_red_zone - the slack past the request and the red zone; a bad
 * byte is reported and the zone repaired, so one overrun is one report. */
static void check_red_zone(struct kmem_cache *c, void *obj, size_t req,
			   unsigned long fp)
{
	size_t len = c->obj_size + SLAB_RED_ZONE_SIZE - req;
	long off = first_not((u8 *)obj + req, len, SLAB_RED_ZONE);

	if (off < 0)
		return;
	report_bytes(c, obj, MM_REPORT_REDZONE, (long)req + off, SLAB_RED_ZONE,
		     fp);
	memset((char *)obj + req, SLAB_RED_ZONE, len);
}

void slab_debug_alloc(struct kmem_cache *c, void *obj, size_t req,
		      unsigned long fp)
{
	struct slab_obj_debug *d = obj_debug(c, obj);
	long off = first_not(obj, c->obj_size, SLAB_POISON_FREE);

	if (off >= 0)
		report_bytes(c, obj, MM_REPORT_POISON, off, SLAB_POISON_FREE,
			     fp);
	check_red_zone(c, obj, c->obj_size, fp);
	mm_track_save(&d->alloc, fp);
	d->req = req;
	memset((char *)obj + req, SLAB_RED_ZONE, c->obj_size - req);
}

const char *slab_debug_free(struct kmem_cache *c, struct slab *s,
			    unsigned long idx, unsigned long fp)
{
	void *obj = slab_obj(s, idx);
	struct slab_obj_debug *d = obj_debug(c, obj);
	u8 seen = __atomic_load_n(&s->state[idx], __ATOMIC_ACQUIRE);

	if (seen != OBJ_ALLOCATED)					/* [1] */
		return obj_state_why(seen);
	check_red_zone(c, obj, d->req, fp);
	mm_track_save(&d->free, fp);					/* [2] */
	fill_free(c, obj);
	return NULL;
}

void slab_debug_tracks(struct kmem_cache *c, struct slab *s,
		       unsigned long idx, struct mm_track *alloc,
		       struct mm_track *free)
{
	struct slab_obj_debug *d = obj_debug(c, slab_obj(s, idx));

	*alloc = d->alloc;
	*free = d->free;
}

/*
 * slab_debug_meet_again - kmalloc(size) until target (a freed object of
 * that size class) is handed out again, which runs its poison check;
 * the objects taken on the way are chained through their first word and
 * freed, and so is target.  The per-CPU arrays are drained first, so
 * target is back in its slab whatever CPU freed it.  Returns whether
 * target came back within max allocations.  For tests and the `fault
 * uaf` demo.  Context: task, may sleep (the per-CPU locks under rt).
 */
bool slab_debug_meet_again(size_t size, void *target, int max)
{
	void *chain = NULL, *p = NULL;
	bool met = false;

	slab_drain_all();
	for (int i = 0; i < max; i++) {
		p = kmalloc(size, GFP_KERNEL);
		if (!p || p == target) {
			met = p == target;
			break;
		}
		*(void **)p = chain;
		chain = p;
	}
	while (chain) {
		p = chain;
		chain = *(void **)p;
		kfree(p);
	}
	if (met)
		kfree(target);
	return met;
}

#endif /* CONFIG_SLAB_DEBUG */
