/*
 * kernel/mm/slab.c - the slab allocator: kmalloc size classes and
 * fixed-size object caches.
 *
 * A slab is a naturally aligned block of 2^order pages from the page
 * allocator: a struct slab header at its start, then nr_objs objects.
 * The header's free bitmap is the slab's free list (bit set = object
 * free; allocation takes the lowest set bit), and it makes kfree's
 * checks exact: a pointer that is not the start of an object, or whose
 * bit is already set, is reported and ignored.  Most classes fit in one
 * page; 1024..4096-byte objects use 2, 4 and 8 pages so the header does
 * not waste more than 1/8 of a slab.
 *
 * kfree finds the slab from the pointer alone through the page
 * allocator's per-page private word:
 *	private word                  meaning
 *	NULL                          not a slab or kmalloc page
 *	struct slab * (page aligned)  page of that slab
 *	order << 2 | LARGE_HEAD       first page of a kmalloc of 2^order pages
 *	LARGE_TAIL | LARGE_HEAD       later page of such a block
 * Requests above 4096 bytes take whole pages, so they need no header and
 * stay page aligned.
 *
 * Per-CPU arrays (kernel/mm/slab_cpu.c, article "Latency-reduction
 * measures"): each cache has, on every CPU, an array of free objects in
 * front of the slab lists, guarded by that CPU's DEFINE_PER_CPU_LOCKED
 * lock; kmalloc/kfree from a preemptible task pop and push there and
 * take `lock` (raw, irqs off) only to refill or drain a batch.  Other
 * contexts use the slab lists directly.  An object in an array stays
 * "allocated" in its slab's bitmap; the per-object state byte
 * (kernel/mm/slab_internal.h) keeps kfree's checks exact anyway, double
 * frees of an object in an array included.
 * Linux counterpart: mm/slab_common.c (kmalloc_caches, kmalloc_large),
 * mm/slub.c (slab lists, CONFIG_SLUB_DEBUG free checks), mm/slab.c of
 * 2.6 (array_cache, batchcount; the -rt patch's slab_irq_locks).  rtk
 * has no NUMA nodes and no cache merging.  Red zones, poison and the
 * alloc/free sites of each object (CONFIG_SLAB_DEBUG) are in
 * kernel/mm/slab_debug.c; this file calls its hooks where an object
 * changes hands.
 */
#include "kernel/mm/slab.h"
#include "kernel/mm/slab_internal.h"
#include "kernel/mm/slab_debug.h"
#include "kernel/mm/mm_report.h"
#include "kernel/mm/fault_inject.h"
#include "kernel/mm/mm_lock.h"
#include "kernel/mm/pmm.h"
#include "kernel/ksyms.h"
#include "arch/x86_64/arch.h"
#include "lib/bitmap.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/list.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

#define SLAB_MAX_ORDER 3
#define NR_KMALLOC_CACHES 9	/* 16, 32, ..., 4096 */
#define LARGE_HEAD 0x1UL
#define LARGE_TAIL 0x2UL
#define GFP_KNOWN (__GFP_WAIT | __GFP_ATOMIC | __GFP_ZERO)

static struct kmem_cache kmalloc_caches[NR_KMALLOC_CACHES];
static LIST_HEAD(cache_list);
static struct mm_lock cache_list_lock;	/* order: cache_list -> cache -> pmm */
static unsigned long large_pages;	/* atomic */

unsigned long slab_warn_count;

/*
 * cache_setup - pick the smallest slab order (up to 8 pages) whose
 * header, alignment padding and tail waste at most 1/8 of it.  Objects
 * start at a multiple of align from the slab's aligned start.
 */
static void cache_setup(struct kmem_cache *c, const char *name, size_t size,
			size_t align)
{
	unsigned long bytes;

	strscpy(c->name, name, sizeof(c->name));
	c->obj_size = ALIGN_UP(max(size, (size_t)KMALLOC_MIN_SIZE), align);
	c->size = ALIGN_UP(c->obj_size + SLAB_DEBUG_EXTRA, align);
	c->offset = ALIGN_UP(sizeof(struct slab), align);
	for (c->order = 0;; c->order++) {
		bytes = PAGE_SIZE << c->order;
		c->nr_objs = bytes > c->offset ? (bytes - c->offset) / c->size : 0;
		if (c->order == SLAB_MAX_ORDER ||
		    (c->nr_objs && bytes - c->nr_objs * c->size <= bytes / 8))
			break;
	}
	c->nr_objs = min(c->nr_objs, (unsigned int)SLAB_MAX_OBJS);
	BUG_ON(c->nr_objs == 0);
	INIT_LIST_HEAD(&c->partial);
	INIT_LIST_HEAD(&c->full);
	INIT_LIST_HEAD(&c->empty);
	c->nr_slabs = c->inuse = 0;
	slab_cpu_cache_setup(c);
}

static void set_pages_private(void *start, unsigned int order, void *val,
			      void *tail_val)
{
	for (unsigned long i = 0; i < (1UL << order); i++)
		*pmm_page_private((char *)start + i * PAGE_SIZE) = i ? tail_val : val;
}

/* new_slab - a slab with every object free.  Locking: c->lock held. */
static struct slab *new_slab(struct kmem_cache *c)
{
	struct slab *s = alloc_pages(c->order);

	mm_lock_assert_held(&c->lock);
	if (!s)
		return NULL;
	s->cache = c;
	s->objs = (char *)s + c->offset;
	s->inuse = 0;
	memset(s->free_map, 0, sizeof(s->free_map));
	memset(s->state, OBJ_FREE, sizeof(s->state));
	for (unsigned int i = 0; i < c->nr_objs; i++)
		__set_bit(i, s->free_map);
	set_pages_private(s, c->order, s, s);
	slab_debug_init_slab(c, s);
	c->nr_slabs++;
	return s;
}

/*
 * __cache_take - see slab_internal.h.  Steps: [1] a partial slab, else
 * the spare empty one, else a new slab; [2] take its lowest free object
 * (FREE -> to); [3] a slab with nothing left free moves to the full list.
 */
void *__cache_take(struct kmem_cache *c, u8 to)
{
	struct slab *s;
	unsigned long idx;

	mm_lock_assert_held(&c->lock);
	s = list_first_entry_or_null(&c->partial, struct slab, node);	/* [1] */
	if (!s) {
		s = list_first_entry_or_null(&c->empty, struct slab, node);
		if (s)
			list_del(&s->node);
		else
			s = new_slab(c);
		if (!s)
			return NULL;
		list_add(&s->node, &c->partial);
	}
	idx = find_first_bit(s->free_map, c->nr_objs);			/* [2] */
	BUG_ON(idx >= c->nr_objs);	/* a partial slab has a free object */
	BUG_ON(!obj_move(s, idx, OBJ_FREE, to, NULL));
	__clear_bit(idx, s->free_map);
	s->inuse++;
	c->inuse++;
	if (s->inuse == c->nr_objs)					/* [3] */
		list_move(&s->node, &c->full);
	return slab_obj(s, idx);
}

/*
 * __cache_put - see slab_internal.h.  Steps: [1] state from -> FREE, or
 * report what it was; [2] mark free; [3] a full slab becomes partial, an
 * empty one is kept as the spare or, when there is one already, goes on
 * `release` for the page allocator.
 */
const char *__cache_put(struct kmem_cache *c, struct slab *s,
			unsigned long idx, u8 from, struct list_head *release)
{
	u8 seen;

	mm_lock_assert_held(&c->lock);
	if (!obj_move(s, idx, from, OBJ_FREE, &seen))			/* [1] */
		return obj_state_why(seen);
	__set_bit(idx, s->free_map);					/* [2] */
	c->inuse--;
	if (s->inuse-- == c->nr_objs)					/* [3] */
		list_move(&s->node, &c->partial);
	if (s->inuse == 0) {
		if (list_empty(&c->empty)) {
			list_move(&s->node, &c->empty);
		} else {
			/* unowned before the lock drops: a late kfree of one
			 * of its objects is then "not a kmalloc pointer" */
			list_move(&s->node, release);
			set_pages_private(s, c->order, NULL, NULL);
			c->nr_slabs--;
		}
	}
	return NULL;
}

void cache_release_slabs(struct kmem_cache *c, struct list_head *release)
{
	struct slab *s, *n;

	list_for_each_entry_safe(s, n, release, node) {
		list_del(&s->node);
		free_pages(s, c->order);
	}
}

/* cache_alloc - one object straight from the slabs (no per-CPU array).
 * Context: any.  Locking: takes c->lock. */
static void *cache_alloc(struct kmem_cache *c)
{
	unsigned long irqf = mm_lock_irqsave(&c->lock);
	void *obj = __cache_take(c, OBJ_ALLOCATED);

	mm_unlock_irqrestore(&c->lock, irqf);
	return obj;
}

/* cache_free_object - object idx back to its slab s directly.  Returns
 * NULL or what was wrong.  Context: any.  Locking: takes s->cache->lock;
 * pmm_lock after dropping it. */
static const char *cache_free_object(struct slab *s, unsigned long idx)
{
	struct kmem_cache *c = s->cache;
	unsigned long irqf = mm_lock_irqsave(&c->lock);
	LIST_HEAD(release);
	const char *why = __cache_put(c, s, idx, OBJ_ALLOCATED, &release);

	mm_unlock_irqrestore(&c->lock, irqf);
	cache_release_slabs(c, &release);
	return why;
}

/*
 * slab_alloc - one object of c for a request of req bytes: through this
 * CPU's array when the context allows it (slab_cpu_usable), else from
 * the slabs.  When the array path finds no memory, every CPU's arrays
 * are drained back into their slabs (empty slabs go back to the page
 * allocator) and the slabs are tried once more.  fp is the allocator
 * entry's frame (the alloc site, kernel/mm/slab_debug.h).
 * Context: any; never sleeps except on the per-CPU lock under rt.
 */
static void *slab_alloc(struct kmem_cache *c, int flags, size_t req,
			unsigned long fp)
{
	void *obj = NULL;

	WARN_ON_ONCE(flags & ~GFP_KNOWN);
	if (should_failslab(c->obj_size, flags))
		return NULL;
	if (slab_cpu_usable(c, flags)) {
		obj = slab_cpu_alloc(c);
		if (!obj)
			slab_drain_all();
	}
	if (!obj)
		obj = cache_alloc(c);
	if (!obj)
		return NULL;
	slab_debug_alloc(c, obj, req, fp);
	if (flags & __GFP_ZERO)
		memset(obj, 0, req);
	return obj;
}

/*
 * report_bad_free - a kfree/kmem_cache_free of ptr that frees nothing:
 * why says what is wrong; s (NULL: no slab) and idx name the object
 * whose stored sites the report shows (a double free).  fp is the
 * entry's frame (the site of this bad call).  Context: any.
 */
static void report_bad_free(const void *ptr, unsigned long fp,
			    const char *why, struct slab *s, unsigned long idx)
{
	struct mm_report r = {
		.kind = s ? MM_REPORT_DOUBLE_FREE : MM_REPORT_BAD_FREE,
		.addr = ptr, .cache = s ? s->cache->name : "kmalloc",
		.offset = -1, .why = why,
	};

	__atomic_fetch_add(&slab_warn_count, 1, __ATOMIC_RELAXED);
	mm_track_clear(&r.alloc);
	mm_track_clear(&r.free);
	if (s)
		slab_debug_tracks(s->cache, s, idx, &r.alloc, &r.free);
	mm_track_save(&r.now, fp);
	mm_report(&r);
}

/*
 * slab_free - give obj back to its slab s: [1] check that obj is the
 * start of one of s's objects (constant fields, no lock); [2] the debug
 * checks (state, red zone; poison); [3] this CPU's array when the
 * context allows it, else the slab.  The state byte (ALLOCATED
 * expected) catches double frees on either path.  A bad free is
 * reported here.  Context: any.
 */
static void slab_free(struct slab *s, const void *obj, unsigned long fp)
{
	struct kmem_cache *c = s->cache;
	unsigned long off = (const char *)obj - s->objs, idx = off / c->size;
	const char *why;

	if ((const char *)obj < s->objs || off % c->size ||		/* [1] */
	    idx >= c->nr_objs) {
		report_bad_free(obj, fp, "not the start of an object", NULL,
				0);
		return;
	}
	why = slab_debug_free(c, s, idx, fp);				/* [2] */
	if (!why && slab_cpu_usable(c, 0))				/* [3] */
		why = slab_cpu_free(c, s, idx);
	else if (!why)
		why = cache_free_object(s, idx);
	if (why)
		report_bad_free(obj, fp, why, s, idx);
}

/* lookup_owner - the private word of ptr's page, 0 when there is none. */
static unsigned long lookup_owner(const void *ptr)
{
	void **priv = pmm_page_private(ptr);

	return priv ? (unsigned long)READ_ONCE(*priv) : 0;
}

static int large_order(size_t size)
{
	unsigned long pages = DIV_ROUND_UP(size, PAGE_SIZE);

	return pages <= 1 ? 0 : (int)__fls(pages - 1) + 1;
}

/* kmalloc_index - size class for size (16 -> 0, ..., 4096 -> 8). */
static unsigned int kmalloc_index(size_t size)
{
	if (size <= KMALLOC_MIN_SIZE)
		return 0;
	return __fls(size - 1) + 1 - 4;
}

/* kmalloc - see slab.h.  noinline: its frame starts the alloc site. */
noinline void *kmalloc(size_t size, int flags)
{
	int order;
	void *p;

	if (size == 0)
		return ZERO_SIZE_PTR;
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return slab_alloc(&kmalloc_caches[kmalloc_index(size)], flags,
				  size, arch_frame_pointer());
	order = large_order(size);
	if (order > PMM_MAX_ORDER || should_failslab(size, flags))
		return NULL;
	p = alloc_pages(order);
	if (!p)
		return NULL;
	set_pages_private(p, order, (void *)(((unsigned long)order << 2) | LARGE_HEAD),
			  (void *)(LARGE_HEAD | LARGE_TAIL));
	__atomic_fetch_add(&large_pages, 1UL << order, __ATOMIC_RELAXED);
	if (flags & __GFP_ZERO)
		memset(p, 0, PAGE_SIZE << order);
	return p;
}

/* kfree - see slab.h.  noinline: the caller's address is reported. */
noinline void kfree(const void *ptr)
{
	unsigned long fp = arch_frame_pointer();
	unsigned long owner;
	unsigned int order;

	if (!ptr || ptr == ZERO_SIZE_PTR)
		return;
	owner = lookup_owner(ptr);
	if (!owner) {
		report_bad_free(ptr, fp, "kfree: not a pointer kmalloc "
				"returned (or already freed)", NULL, 0);
		return;
	}
	if (!(owner & LARGE_HEAD)) {
		slab_free((struct slab *)owner, ptr, fp);
		return;
	}
	if ((owner & LARGE_TAIL) || !IS_ALIGNED((uintptr_t)ptr, PAGE_SIZE)) {
		report_bad_free(ptr, fp, "kfree: inside a kmalloc block, "
				"not its start", NULL, 0);
		return;
	}
	order = owner >> 2;
	__atomic_fetch_sub(&large_pages, 1UL << order, __ATOMIC_RELAXED);
	free_pages((void *)ptr, order);	/* clears the private words */
}

size_t ksize(const void *ptr)
{
	unsigned long owner = lookup_owner(ptr);

	if (!owner || ptr == ZERO_SIZE_PTR)
		return 0;
	if (!(owner & LARGE_HEAD))
		return ((struct slab *)owner)->cache->obj_size;
	return (owner & LARGE_TAIL) ? 0 : PAGE_SIZE << (owner >> 2);
}

static void cache_list_add(struct kmem_cache *c)
{
	unsigned long irqf = mm_lock_irqsave(&cache_list_lock);

	list_add_tail(&c->list, &cache_list);
	mm_unlock_irqrestore(&cache_list_lock, irqf);
}

struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align)
{
	struct kmem_cache *c;

	align = align ? align : 8;
	if (WARN(size == 0 || size > KMALLOC_MAX_CACHE_SIZE ||
		 (align & (align - 1)) || align > PAGE_SIZE,
		 "kmem_cache_create(%s, %zu, %zu): bad size or alignment", name,
		 size, align))
		return NULL;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	cache_setup(c, name, size, align);
	cache_list_add(c);
	return c;
}

/*
 * kmem_cache_destroy - see slab.h.  Steps: [1] drain c out of every
 * CPU's array (slab_cpu_cache_detach); [2] refuse while objects are
 * still allocated, else unlink it; [3] reopen or free its per-CPU slot;
 * [4] free the spare slab and the cache.
 * Context: task, may sleep (the per-CPU locks under rt).
 * Locking: takes each CPU's slab_cpu lock in turn, then cache_list_lock,
 * then the cache's lock.
 */
void kmem_cache_destroy(struct kmem_cache *c)
{
	unsigned long irqf, irqc;
	struct slab *spare;
	bool busy;

	slab_cpu_cache_detach(c);					/* [1] */
	irqf = mm_lock_irqsave(&cache_list_lock);			/* [2] */
	irqc = mm_lock_irqsave(&c->lock);
	busy = c->inuse != 0;
	spare = list_first_entry_or_null(&c->empty, struct slab, node);
	if (!busy)
		list_del(&c->list);
	mm_unlock_irqrestore(&c->lock, irqc);
	mm_unlock_irqrestore(&cache_list_lock, irqf);
	slab_cpu_cache_finish(c, busy);					/* [3] */
	if (WARN(busy, "kmem_cache_destroy(%s): %lu objects still allocated",
		 c->name, c->inuse))
		return;
	if (spare) {							/* [4] */
		set_pages_private(spare, c->order, NULL, NULL);
		free_pages(spare, c->order);
	}
	kfree(c);
}

noinline void *kmem_cache_alloc(struct kmem_cache *cache, int flags)
{
	return slab_alloc(cache, flags, cache->obj_size, arch_frame_pointer());
}

noinline void kmem_cache_free(struct kmem_cache *cache, void *obj)
{
	unsigned long fp = arch_frame_pointer();
	unsigned long owner = lookup_owner(obj);

	if (!owner || (owner & LARGE_HEAD))
		report_bad_free(obj, fp, "kmem_cache_free: not an object of "
				"any cache (or already freed)", NULL, 0);
	else if (((struct slab *)owner)->cache != cache)
		report_bad_free(obj, fp, "kmem_cache_free: object of another "
				"cache", NULL, 0);
	else
		slab_free((struct slab *)owner, obj, fp);
}

/*
 * kmem_cache_info_get - see slab.h.  objs_in_use counts the objects
 * handed out: those sitting in per-CPU arrays are subtracted (a racy
 * snapshot of the arrays, exact when nothing allocates meanwhile).
 * Locking: takes cache_list_lock, then each cache's lock in turn.
 */
int kmem_cache_info_get(int n, struct kmem_cache_info *info)
{
	unsigned long irqf = mm_lock_irqsave(&cache_list_lock), irqc, inuse;
	struct kmem_cache *c;
	int err = -ENOENT;

	list_for_each_entry(c, &cache_list, list) {
		if (n-- > 0)
			continue;
		irqc = mm_lock_irqsave(&c->lock);
		strscpy(info->name, c->name, sizeof(info->name));
		info->obj_size = c->size;
		info->slab_pages = 1U << c->order;
		inuse = c->inuse;
		info->objs_total = c->nr_slabs * c->nr_objs;
		info->slabs = c->nr_slabs;
		mm_unlock_irqrestore(&c->lock, irqc);
		info->cpu_limit = c->cpu_slot < 0 ? 0 : c->cpu_limit;
		info->objs_cached = slab_cpu_fill(c, info->cpu_avail);
		info->objs_in_use = inuse > info->objs_cached ?
			inuse - info->objs_cached : 0;
		err = 0;
		break;
	}
	mm_unlock_irqrestore(&cache_list_lock, irqf);
	return err;
}

/*
 * kmem_cache_totals - objects handed out and pages held, over every
 * cache (the sums of kmem_cache_info_get).  With the per-CPU arrays
 * drained first (slab_drain_all), "free pages + slab pages" and the
 * object count are what a test compares against a baseline.
 * Context: task or any (takes the list and cache locks, raw).
 */
void kmem_cache_totals(unsigned long *objs_in_use, unsigned long *slab_pages)
{
	struct kmem_cache_info ci;

	*objs_in_use = *slab_pages = 0;
	for (int i = 0; kmem_cache_info_get(i, &ci) == 0; i++) {
		*objs_in_use += ci.objs_in_use;
		*slab_pages += ci.slabs * ci.slab_pages;
	}
}

unsigned long kmalloc_large_pages(void)
{
	return __atomic_load_n(&large_pages, __ATOMIC_RELAXED);
}

void __init slab_init(void)
{
	for (unsigned int i = 0; i < NR_KMALLOC_CACHES; i++) {
		char name[24];
		size_t size = (size_t)KMALLOC_MIN_SIZE << i;

		snprintf(name, sizeof(name), "kmalloc-%zu", size);
		cache_setup(&kmalloc_caches[i], name, size, size);
		cache_list_add(&kmalloc_caches[i]);
	}
}
