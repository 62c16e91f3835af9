/*
 * kernel/mm/mprotect.c - mprotect(2) without VMAs: the page tables are
 * the only record, so each page of the range is looked at on its own.
 * What glibc does with it: RELRO made read-only after relocation, the
 * part of an 8 MiB PROT_NONE thread-stack reservation above its guard
 * page made read-write, 132 KiB of a 128 MiB malloc-arena reservation
 * made read-write.
 * Left out, against Linux: a present page made PROT_NONE is unmapped (its
 * bytes are gone when it is made accessible again: Linux keeps them);
 * absent pages outside the mmap region are -ENOMEM even where Linux has a
 * VMA without pages (there is none: rtk maps eagerly everywhere else).
 * Linux counterpart: mm/mprotect.c (do_mprotect_pkey, change_protection).
 */
#include "kernel/mm/user_mm.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/pmm.h"
#include "kernel/sched/sched.h"
#include "kernel/user/uapi.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

static unsigned int prot_to_map_flags(unsigned long prot)
{
	return ((prot & PROT_WRITE) ? MAP_WRITE : 0) |
	       ((prot & PROT_EXEC) ? MAP_EXEC : 0);
}

/* copy_cache_page - replace the page-cache page at va by a private,
 * writable copy (the cache stays immutable).  0 or -ENOMEM.
 * Locking: mmap_lock held. */
static int copy_cache_page(struct mm_struct *mm, unsigned long va, u64 phys,
			   unsigned int flags)
{
	void *copy = alloc_page();
	int err;

	mmap_assert_locked(mm);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, phys_to_virt(phys & PAGE_MASK), PAGE_SIZE);
	BUG_ON(arch_unmap_user_page(mm->pgd, va, NULL));
	arch_flush_user_range(va, va + PAGE_SIZE);
	err = __user_map_page(mm, va, copy, flags);
	BUG_ON(err);	/* the entry was just cleared: cannot be -EEXIST */
	return 0;
}

/*
 * user_mprotect - give npages at start the protection prot.
 * [1] first pass, nothing changed yet: an absent page that is to become
 *     accessible must lie in the mmap region (else -ENOMEM, Linux's "no
 *     VMA there"), a shared page of a read-only fd may not become
 *     writable (-EACCES), and the pages to allocate (absent ones, cache
 *     pages made writable) must fit under the cap;
 * [2] PROT_NONE: unmap the range (private pages freed);
 * [3] a present private or shared page: new flags in place, the
 *     borrowed bits kept;
 * [4] a page-cache page made writable: a private copy first;
 * [5] an absent page: a zeroed one (eager, like every mapping);
 * [6] one TLB flush for the flags changed in [3].
 * Context: task, sleeps.  Locking: takes mmap_lock.
 */
int user_mprotect(struct mm_struct *mm, unsigned long start,
		  unsigned long npages, unsigned long prot)
{
	unsigned int map = prot_to_map_flags(prot), flags;
	unsigned long i, need = 0;
	bool changed = false;
	u64 phys;
	int err = 0;

	might_sleep();
	rt_mutex_lock(&mm->mmap_lock);
	for (i = 0; prot != PROT_NONE && i < npages; i++) {	/* [1] */
		unsigned long va = start + i * PAGE_SIZE;

		if (arch_query_user_page(mm->pgd, va, NULL, &flags)) {
			if (!__user_addr_reserved(mm, va)) {
				err = -ENOMEM;
				goto out_unlock;
			}
			need++;
		} else if ((flags & MAP_PAGE_NOWRITE) && (map & MAP_WRITE)) {
			err = -EACCES;	/* a shared page of a read-only fd */
			goto out_unlock;
		} else if ((flags & MAP_PAGE_CACHE) && (map & MAP_WRITE)) {
			need++;
		}
		/* stops a huge range early, before its end is walked */
		if (need > USER_MAX_PAGES - mm->nr_pages) {
			err = -ENOMEM;
			goto out_unlock;
		}
	}
	if (prot == PROT_NONE) {				/* [2] */
		__user_unmap(mm, start, npages);
		goto out_unlock;
	}
	for (i = 0; i < npages; i++) {
		unsigned long va = start + i * PAGE_SIZE;

		if (!arch_query_user_page(mm->pgd, va, &phys, &flags)) {
			if ((flags & MAP_PAGE_CACHE) && (map & MAP_WRITE)) {
				/* [4] */
				err = copy_cache_page(mm, va, phys, map);
			} else {				/* [3] */
				err = arch_protect_user_page(
					mm->pgd, va,
					map | (flags & (MAP_PAGE_BORROWED |
							MAP_PAGE_NOWRITE)));
				changed = true;
			}
		} else {					/* [5] */
			err = __user_map_anon(mm, va, 1, map);
		}
		if (err)
			break;
	}
	if (changed)						/* [6] */
		arch_flush_user_range(start, start + npages * PAGE_SIZE);
out_unlock:
	rt_mutex_unlock(&mm->mmap_lock);
	return err;
}
