/*
 * kernel/mm/file_mmap.c - a file mapped into a process (see
 * file_mmap.h).  Each page of a mapping is one of three kinds:
 *
 *	mapping			page				PTE
 *	MAP_SHARED		the file's own bytes (pinned)	MAP_PAGE_SHARED
 *	MAP_PRIVATE, no write	the page cache / zero page	MAP_PAGE_CACHE
 *	MAP_PRIVATE, write	a private copy (zero past EOF)	(counted)
 *
 * A private mapping of a file that has been written since boot (so not
 * cached) gets copies even without write.  PROT_NONE maps nothing at
 * all (sys_mmap does not come here).
 * Locking: mmap_lock held throughout; filemap.c and inode_read take the
 * fs tree lock inside it.
 * Linux counterpart: mm/mmap.c do_mmap, mm/filemap.c filemap_fault
 * (eager here), mm/memory.c do_cow_fault (done at mmap time here).
 */
#include "kernel/mm/file_mmap.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/user_mm.h"
#include "kernel/fs/inode.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

struct mm_file_ref {
	struct list_head node;		/* in mm->mapped_files, mmap_lock */
	struct inode *inode;		/* a reference */
};

int mm_hold_file(struct mm_struct *mm, struct inode *inode)
{
	struct mm_file_ref *ref;

	mmap_assert_locked(mm);
	list_for_each_entry(ref, &mm->mapped_files, node)
		if (ref->inode == inode)
			return 0;
	ref = kmalloc(sizeof(*ref), GFP_KERNEL);
	if (!ref)
		return -ENOMEM;
	ref->inode = iget(inode);
	list_add(&ref->node, &mm->mapped_files);
	return 0;
}

int mm_dup_files(struct mm_struct *mm, struct mm_struct *old)
{
	struct mm_file_ref *ref, *copy;

	mmap_assert_locked(old);
	list_for_each_entry(ref, &old->mapped_files, node) {
		copy = kmalloc(sizeof(*copy), GFP_KERNEL);
		if (!copy)
			return -ENOMEM;	/* the caller's mmput drops the rest */
		copy->inode = iget(ref->inode);
		list_add_tail(&copy->node, &mm->mapped_files);
	}
	return 0;
}

void mm_drop_files(struct mm_struct *mm)
{
	mmap_assert_locked(mm);
	while (!list_empty(&mm->mapped_files)) {
		struct mm_file_ref *ref = list_first_entry(
			&mm->mapped_files, struct mm_file_ref, node);

		list_del(&ref->node);
		iput(ref->inode);
		kfree(ref);
	}
}

/* private_copy - a new private page holding the file's bytes of page
 * index (zero past EOF); NULL without memory.  Context: task, sleeps
 * (inode_read takes the tree lock). */
static void *private_copy(struct inode *inode, unsigned long index)
{
	char *page;
	long n = 0;

	might_sleep();
	page = alloc_page();
	if (!page)
		return NULL;
	/* past any file's end (index * PAGE_SIZE could wrap): zeros */
	if (index < FS_MAX_FILE_SIZE / PAGE_SIZE)
		n = inode_read(inode, page, PAGE_SIZE, index * PAGE_SIZE);
	if (n < 0)
		n = 0;
	memset(page + n, 0, PAGE_SIZE - (size_t)n);
	return page;
}

/*
 * __do_mmap_file - see file_mmap.h.
 * [1] the mm holds the inode first, so a page mapped below can never
 *     outlive the file that owns it;
 * [2] MAP_SHARED: pin the file's bytes over the whole range and map them
 *     in place;
 * [3] MAP_PRIVATE without write: the cache page (or the zero page);
 *     a file no longer in the module (-ENOENT) falls through to [4];
 * [4] a private copy, counted against the cap (checked up front for the
 *     worst case);
 * [5] all or nothing: a failure unmaps what this call mapped.
 */
int __do_mmap_file(struct mm_struct *mm, unsigned long addr,
		   unsigned long npages, unsigned int map_flags,
		   struct inode *inode, unsigned long pgoff, bool shared)
{
	char *base = NULL;
	unsigned long i;
	int err;

	mmap_assert_locked(mm);
	/* a shared file is backed up to FS_MAX_FILE_SIZE only (no overflow:
	 * pgoff < 2^52, npages < 2^35) */
	if (shared && pgoff + npages > FS_MAX_FILE_SIZE / PAGE_SIZE)
		return -ENOMEM;
	if (!shared && (map_flags & MAP_WRITE) &&
	    npages > USER_MAX_PAGES - mm->nr_pages)
		return -ENOMEM;
	err = mm_hold_file(mm, inode);				/* [1] */
	if (err)
		return err;
	if (shared) {						/* [2] */
		err = filemap_pin_shared(inode, (pgoff + npages) * PAGE_SIZE,
					 &base);
		if (err)
			return err;
	}
	for (i = 0; i < npages; i++) {
		unsigned long va = addr + i * PAGE_SIZE;
		unsigned long index = pgoff + i;
		void *page;

		if (shared) {
			err = __user_map_page(mm, va, base + index * PAGE_SIZE,
					      map_flags | MAP_PAGE_SHARED);
			if (err)
				break;
			continue;
		}
		if (!(map_flags & MAP_WRITE)) {			/* [3] */
			err = filemap_read_page(inode, index, &page);
			if (!err) {
				err = __user_map_page(
					mm, va, page, map_flags | MAP_PAGE_CACHE);
				if (err)
					break;
				continue;
			}
			if (err != -ENOENT)
				break;
		}
		if (mm->nr_pages >= USER_MAX_PAGES) {		/* [4] */
			err = -ENOMEM;
			break;
		}
		page = private_copy(inode, index);
		if (!page) {
			err = -ENOMEM;
			break;
		}
		err = __user_map_page(mm, va, page, map_flags);
		if (err) {
			free_page(page);
			break;
		}
	}
	if (err && i)						/* [5] */
		__user_unmap(mm, addr, i);
	return err;
}
