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
 * Per-CPU caches (issue 3, SMP): a later struct kmem_cache gets an array
 * per CPU of free objects in front of the slab lists, popped and pushed
 * with only this CPU's local lock held (local_lock_t, once per-CPU data
 * exists); `lock` is then taken only to refill or drain the array in
 * batches.  The checks in cache_free_object() must then run before an
 * object enters the array, and an object in an array stays "allocated"
 * in its slab's bitmap.  Nothing else here changes.
 * Linux counterpart: mm/slab_common.c (kmalloc_caches, kmalloc_large),
 * mm/slub.c (slab lists, CONFIG_SLUB_DEBUG free checks); rtk has no
 * per-CPU slabs yet, no NUMA nodes, no cache merging or poisoning.
 */
#include "kernel/mm/slab.h"
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

#define SLAB_MAX_OBJS 256	/* 16-byte objects in one page: 251 */
#define SLAB_MAX_ORDER 3
#define NR_KMALLOC_CACHES 9	/* 16, 32, ..., 4096 */
#define LARGE_HEAD 0x1UL
#define LARGE_TAIL 0x2UL
#define GFP_KNOWN (__GFP_WAIT | __GFP_ATOMIC | __GFP_ZERO)

struct slab {
	struct list_head node;		/* in cache->partial, full or empty */
	struct kmem_cache *cache;	/* owner, constant */
	char *objs;			/* first object, constant */
	/* protected by cache->lock: */
	unsigned int inuse;		/* objects allocated */
	unsigned long free_map[BITS_TO_LONGS(SLAB_MAX_OBJS)]; /* set: free */
};

struct kmem_cache {
	char name[24];
	unsigned int size;		/* object size with padding */
	unsigned int order;		/* slab = 2^order pages */
	unsigned int nr_objs;		/* objects per slab */
	unsigned int offset;		/* header to first object */
	struct mm_lock lock;
	/* protected by lock: */
	struct list_head partial;	/* some objects free */
	struct list_head full;		/* no object free */
	struct list_head empty;		/* all free: at most one kept */
	unsigned long nr_slabs;
	unsigned long inuse;		/* objects allocated, all slabs */
	/* protected by cache_list_lock: */
	struct list_head list;		/* in cache_list */
};

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
	c->size = ALIGN_UP(max(size, (size_t)KMALLOC_MIN_SIZE), align);
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
	for (unsigned int i = 0; i < c->nr_objs; i++)
		__set_bit(i, s->free_map);
	set_pages_private(s, c->order, s, s);
	c->nr_slabs++;
	return s;
}

/*
 * cache_alloc - one object.  Steps: [1] a partial slab, else the spare
 * empty one, else a new slab; [2] take its lowest free object; [3] a
 * slab with nothing left free moves to the full list.
 * Locking: takes c->lock (and pmm_lock inside it for a new slab).
 */
static void *cache_alloc(struct kmem_cache *c, int flags)
{
	unsigned long irqf = mm_lock_irqsave(&c->lock), idx;
	struct slab *s;
	void *obj;

	WARN_ON_ONCE(flags & ~GFP_KNOWN);
	s = list_first_entry_or_null(&c->partial, struct slab, node);	/* [1] */
	if (!s) {
		s = list_first_entry_or_null(&c->empty, struct slab, node);
		if (s)
			list_del(&s->node);
		else
			s = new_slab(c);
		if (!s) {
			mm_unlock_irqrestore(&c->lock, irqf);
			return NULL;
		}
		list_add(&s->node, &c->partial);
	}
	idx = find_first_bit(s->free_map, c->nr_objs);			/* [2] */
	BUG_ON(idx >= c->nr_objs);	/* a partial slab has a free object */
	__clear_bit(idx, s->free_map);
	s->inuse++;
	c->inuse++;
	if (s->inuse == c->nr_objs)					/* [3] */
		list_move(&s->node, &c->full);
	mm_unlock_irqrestore(&c->lock, irqf);

	obj = s->objs + idx * c->size;
	if (flags & __GFP_ZERO)
		memset(obj, 0, c->size);
	return obj;
}

static void report_bad_free(const char *what, const void *ptr, void *caller,
			    const char *why)
{
	char sym[64];

	slab_warn_count++;
	ksym_snprint(sym, sizeof(sym), (unsigned long)caller);
	WARN(1, "%s(%p) called from %s: %s", what, ptr, sym, why);
}

/*
 * cache_free_object - return obj to its slab s, after checking that obj
 * is the start of one of its objects and that the object is allocated.
 * Steps: [1] check; [2] mark free; [3] a full slab becomes partial, an
 * empty one is kept as the spare or, when there is one already, given
 * back to the page allocator.  Returns NULL or what was wrong.
 * Locking: takes s->cache->lock; pmm_lock after dropping it.
 */
static const char *cache_free_object(struct slab *s, const void *obj)
{
	struct kmem_cache *c = s->cache;
	unsigned long irqf = mm_lock_irqsave(&c->lock), off, idx;
	struct slab *release = NULL;
	const char *why = NULL;

	off = (const char *)obj - s->objs;				/* [1] */
	idx = off / c->size;
	if ((const char *)obj < s->objs || off % c->size || idx >= c->nr_objs)
		why = "not the start of an object";
	else if (test_bit(idx, s->free_map))
		why = "object already free (double free)";
	if (why)
		goto out_unlock;

	__set_bit(idx, s->free_map);					/* [2] */
	c->inuse--;
	if (s->inuse-- == c->nr_objs)					/* [3] */
		list_move(&s->node, &c->partial);
	if (s->inuse == 0) {
		if (list_empty(&c->empty)) {
			list_move(&s->node, &c->empty);
		} else {
			list_del(&s->node);
			/* unowned before the lock drops: a late kfree of one
			 * of its objects is then "not a kmalloc pointer" */
			set_pages_private(s, c->order, NULL, NULL);
			c->nr_slabs--;
			release = s;
		}
	}
out_unlock:
	mm_unlock_irqrestore(&c->lock, irqf);
	if (release)
		free_pages(release, c->order);
	return why;
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

void *kmalloc(size_t size, int flags)
{
	int order;
	void *p;

	if (size == 0)
		return ZERO_SIZE_PTR;
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return cache_alloc(&kmalloc_caches[kmalloc_index(size)], flags);
	order = large_order(size);
	if (order > PMM_MAX_ORDER)
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
	void *caller = __builtin_return_address(0);
	unsigned long owner;
	const char *why;
	unsigned int order;

	if (!ptr || ptr == ZERO_SIZE_PTR)
		return;
	owner = lookup_owner(ptr);
	if (!owner) {
		report_bad_free("kfree", ptr, caller,
				"not a pointer kmalloc returned (or already freed)");
		return;
	}
	if (!(owner & LARGE_HEAD)) {
		why = cache_free_object((struct slab *)owner, ptr);
		if (why)
			report_bad_free("kfree", ptr, caller, why);
		return;
	}
	if ((owner & LARGE_TAIL) || !IS_ALIGNED((uintptr_t)ptr, PAGE_SIZE)) {
		report_bad_free("kfree", ptr, caller,
				"inside a kmalloc block, not its start");
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
		return ((struct slab *)owner)->cache->size;
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
 * kmem_cache_destroy - see slab.h.
 * Locking: takes cache_list_lock, then the cache's lock.
 */
void kmem_cache_destroy(struct kmem_cache *c)
{
	unsigned long irqf = mm_lock_irqsave(&cache_list_lock), irqc;
	struct slab *spare;
	bool busy;

	irqc = mm_lock_irqsave(&c->lock);
	busy = c->inuse != 0;
	spare = list_first_entry_or_null(&c->empty, struct slab, node);
	if (!busy)
		list_del(&c->list);
	mm_unlock_irqrestore(&c->lock, irqc);
	mm_unlock_irqrestore(&cache_list_lock, irqf);
	if (WARN(busy, "kmem_cache_destroy(%s): %lu objects still allocated",
		 c->name, c->inuse))
		return;
	if (spare) {
		set_pages_private(spare, c->order, NULL, NULL);
		free_pages(spare, c->order);
	}
	kfree(c);
}

void *kmem_cache_alloc(struct kmem_cache *cache, int flags)
{
	return cache_alloc(cache, flags);
}

noinline void kmem_cache_free(struct kmem_cache *cache, void *obj)
{
	void *caller = __builtin_return_address(0);
	unsigned long owner = lookup_owner(obj);
	const char *why;

	if (!owner || (owner & LARGE_HEAD))
		why = "not an object of any cache (or already freed)";
	else if (((struct slab *)owner)->cache != cache)
		why = "object of another cache";
	else
		why = cache_free_object((struct slab *)owner, obj);
	if (why)
		report_bad_free("kmem_cache_free", obj, caller, why);
}

/* Locking: takes cache_list_lock, then each cache's lock in turn. */
int kmem_cache_info_get(int n, struct kmem_cache_info *info)
{
	unsigned long irqf = mm_lock_irqsave(&cache_list_lock), irqc;
	struct kmem_cache *c;
	int err = -ENOENT;

	list_for_each_entry(c, &cache_list, list) {
		if (n-- > 0)
			continue;
		irqc = mm_lock_irqsave(&c->lock);
		strscpy(info->name, c->name, sizeof(info->name));
		info->obj_size = c->size;
		info->slab_pages = 1U << c->order;
		info->objs_in_use = c->inuse;
		info->objs_total = c->nr_slabs * c->nr_objs;
		info->slabs = c->nr_slabs;
		mm_unlock_irqrestore(&c->lock, irqc);
		err = 0;
		break;
	}
	mm_unlock_irqrestore(&cache_list_lock, irqf);
	return err;
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
