/*
 * kernel/mm/filemap.c - a file's pages for mmap (see filemap.h): the
 * page cache of an initramfs file, the zero page, the pinned bytes of a
 * MAP_SHARED file and the blocks it outgrew.
 * Locking: everything here is under the fs tree lock held for writing
 * (kernel/fs/tree_lock.h), the lock that already protects i_data,
 * i_size and i_capacity: a page is copied from the bytes it caches, and
 * the bytes are moved, under the same lock.  Callers hold their mm's
 * mmap_lock outside it (order: mmap_lock, tree lock).
 * Linux counterpart: mm/filemap.c, mm/truncate.c, the zero page of
 * mm/memory.c.
 */
#include "kernel/mm/filemap.h"
#include "kernel/fs/inode.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/arch.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

/* A block a pinned file outgrew: still mapped by somebody, so it lives
 * as long as the inode. */
struct retired_block {
	struct retired_block *next;
	const char *data;		/* kmalloc'd, the file's old i_data */
};

struct page_cache {
	/* under the tree lock, for writing */
	bool shared;			/* i_data pinned: page-aligned, mapped
					 * MAP_SHARED, never freed while the
					 * inode lives */
	struct retired_block *retired;	/* blocks the pinned data outgrew */
	unsigned long nr_pages;		/* slots in pages[]: the file's pages
					 * when the cache was made (0 for a
					 * file no longer in the module) */
	void *pages[];			/* page-aligned copies, NULL until
					 * first read */
};

static void *zero_page;			/* tree lock (write); allocated once,
					 * never freed */
static unsigned long cache_pages;	/* atomic: pages in every cache's
					 * pages[] (iput may run under the
					 * tree lock or without it) */

/* get_page_cache - inode's cache, made at its first mmap.
 * Locking: the tree lock held for writing. */
static struct page_cache *get_page_cache(struct inode *inode)
{
	struct page_cache *cache;
	unsigned long n = 0;

	fs_tree_assert_write_held();
	if (inode->i_pages)
		return inode->i_pages;
	if (inode_data_in_module(inode))
		n = DIV_ROUND_UP(inode->i_size, PAGE_SIZE);
	cache = kzalloc(sizeof(*cache) + n * sizeof(void *), GFP_KERNEL);
	if (!cache)
		return NULL;
	cache->nr_pages = n;
	inode->i_pages = cache;
	return cache;
}

/* get_zero_page - the page every mapping past EOF shares.
 * Locking: the tree lock held for writing. */
static void *get_zero_page(void)
{
	fs_tree_assert_write_held();
	if (!zero_page) {
		zero_page = alloc_page();
		if (zero_page)
			memset(zero_page, 0, PAGE_SIZE);
	}
	return zero_page;
}

/*
 * filemap_read_page - see filemap.h.
 * [1] a file written since boot has its bytes in kmalloc'd memory, which
 *     may move: no cache, the caller copies (-ENOENT);
 * [2] at or past EOF: the zero page;
 * [3] the cached copy, made now if this is the page's first mapping.
 */
int filemap_read_page(struct inode *inode, unsigned long index, void **page)
{
	struct page_cache *cache;
	size_t off;
	int err = 0;

	might_sleep();
	fs_tree_write_lock();
	if (!inode_data_in_module(inode)) {			/* [1] */
		err = -ENOENT;
		goto out_unlock;
	}
	cache = get_page_cache(inode);
	if (!cache) {
		err = -ENOMEM;
		goto out_unlock;
	}
	off = index * PAGE_SIZE;	/* used only once index < nr_pages */
	if (index >= cache->nr_pages || off >= inode->i_size) {	/* [2] */
		*page = get_zero_page();
		err = *page ? 0 : -ENOMEM;
		goto out_unlock;
	}
	if (!cache->pages[index]) {				/* [3] */
		size_t len = min(PAGE_SIZE, inode->i_size - off);
		char *p = alloc_page();

		if (!p) {
			err = -ENOMEM;
			goto out_unlock;
		}
		memcpy(p, inode->i_data + off, len);
		memset(p + len, 0, PAGE_SIZE - len);
		cache->pages[index] = p;
		__atomic_fetch_add(&cache_pages, 1, __ATOMIC_RELAXED);
	}
	*page = cache->pages[index];
out_unlock:
	fs_tree_write_unlock();
	return err;
}

/* retire_block - keep old until the inode goes; false without memory.
 * Locking: the tree lock held for writing. */
static bool retire_block(struct page_cache *cache, const char *old)
{
	struct retired_block *r = kmalloc(sizeof(*r), GFP_KERNEL);

	fs_tree_assert_write_held();
	if (!r)
		return false;
	r->data = old;
	r->next = cache->retired;
	cache->retired = r;
	return true;
}

/*
 * mapping_retire_data - see filemap.h.  The race it closes (t_mmap's
 * "grow the file" check makes it happen, in one process):
 *
 *	CPU0 (process A)			CPU1 (process B)
 *	mmap(fd, MAP_SHARED): PTEs point
 *	  at the file's block (pinned)
 *						write(fd) past the block:
 *						  __inode_move_data copies it
 *						  to a larger one, and would
 *						  kfree the old block
 *	*p = 1: a write into freed memory
 *
 * So a pinned file's old block is kept (A's mapping reads and writes it,
 * stale but valid) until the inode is freed, which waits for A's exit
 * (A's mm holds the inode: file_mmap.c).
 */
bool mapping_retire_data(struct inode *inode, const char *old)
{
	fs_tree_assert_write_held();
	if (!inode->i_pages || !inode->i_pages->shared)
		return false;
	/* Out of memory for the note: leak the block rather than free it
	 * under a mapping. */
	WARN_ON(!retire_block(inode->i_pages, old));
	return true;
}

/*
 * filemap_pin_shared - see filemap.h.
 * [1] the size: at least end and i_size, in whole pages, and above
 *     kmalloc's largest slab size, so that kmalloc hands out whole
 *     pages (page-aligned: kernel/mm/slab.c's large allocations);
 * [2] already pinned and big enough: nothing to move;
 * [3] else move the bytes (from the module, or from a smaller block,
 *     retired if it was pinned already: somebody maps it).
 */
int filemap_pin_shared(struct inode *inode, size_t end, char **base)
{
	struct page_cache *cache;
	size_t need;
	int err = 0;

	might_sleep();
	if (end > FS_MAX_FILE_SIZE)
		return -ENOMEM;
	fs_tree_write_lock();
	cache = get_page_cache(inode);
	if (!cache) {
		err = -ENOMEM;
		goto out_unlock;
	}
	need = ALIGN_UP(max(end, inode->i_size), PAGE_SIZE);	/* [1] */
	need = max(need,
		   ALIGN_UP((size_t)KMALLOC_MAX_CACHE_SIZE + 1, PAGE_SIZE));
	if (cache->shared && inode->i_capacity >= need)		/* [2] */
		goto out_done;
	err = __inode_move_data(inode, need);			/* [3] */
	if (err)
		goto out_unlock;
	BUG_ON(!IS_ALIGNED((unsigned long)inode->i_data, PAGE_SIZE));
	cache->shared = true;
out_done:
	*base = (char *)inode->i_data;
out_unlock:
	fs_tree_write_unlock();
	return err;
}

/* truncate_inode_pages_final - see filemap.h.  Context: task (iput's
 * last reference, with or without the tree lock: nobody else can reach
 * the inode). */
void truncate_inode_pages_final(struct inode *inode)
{
	struct page_cache *cache = inode->i_pages;
	unsigned long n = 0;

	BUG_ON(__atomic_load_n(&inode->i_count, __ATOMIC_RELAXED) != 0);
	if (!cache)
		return;
	for (unsigned long i = 0; i < cache->nr_pages; i++) {
		if (cache->pages[i]) {
			free_page(cache->pages[i]);
			n++;
		}
	}
	while (cache->retired) {
		struct retired_block *r = cache->retired;

		cache->retired = r->next;
		kfree(r->data);
		kfree(r);
	}
	__atomic_fetch_sub(&cache_pages, n, __ATOMIC_RELAXED);
	kfree(cache);
	inode->i_pages = NULL;
}

unsigned long filemap_cache_pages(void)
{
	return __atomic_load_n(&cache_pages, __ATOMIC_RELAXED);
}
