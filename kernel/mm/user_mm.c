/*
 * kernel/mm/user_mm.c - the user half's pages (see user_mm.h): mapped
 * through the arch's user page tables (arch_map_user_page), private
 * pages counted in mm->nr_pages against USER_MAX_PAGES and freed at
 * munmap and exit, a file's pages (MAP_PAGE_BORROWED) left to the file;
 * the top-down address allocator and brk.
 * Locking: mm->mmap_lock (an rt_mutex: page allocation and the TLB
 * shootdown of an unmap happen under it) serialises every change to
 * one mm's user half.  Lock order: mmap_lock, then the fs tree lock
 * (kernel/mm/filemap.c, file_mmap.c).
 * Linux counterpart: mm/mmap.c (get_unmapped_area, brk), mm/memory.c
 * (zap_page_range), mm/mmap.c exit_mmap.
 */
#include "kernel/mm/user_mm.h"
#include "kernel/mm/file_mmap.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/pmm.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

#define UNMAP_BATCH_PAGES 16

/* unmap_batch - up to 16 contiguous pages __user_unmap cleared: one
 * shootdown (which invalidates page by page) covers them, then the
 * private ones are freed. */
struct unmap_batch {
	unsigned long first, end;	/* the range cleared so far */
	unsigned long nr;		/* private pages in phys[] */
	u64 phys[UNMAP_BATCH_PAGES];
};

/* flush_batch - one shootdown for the batch's range, then free its
 * private pages (no CPU reaches them through its TLB any more).
 * Locking: mmap_lock held. */
static void flush_batch(struct mm_struct *mm, struct unmap_batch *b)
{
	mmap_assert_locked(mm);
	if (b->end > b->first)
		arch_flush_user_range(b->first, b->end);
	for (unsigned long j = 0; j < b->nr; j++)
		free_page(phys_to_virt(b->phys[j]));
	mm->nr_pages -= b->nr;
	b->nr = 0;
	b->first = b->end = 0;
}

/*
 * __user_unmap - clear n pages at addr, flush, free the private ones.
 * Only mapped pages are visited (arch_user_next_mapped skips absent
 * tables: munmap of a huge range is cheap); a run of up to 16 contiguous
 * pages shares one shootdown, and a page is freed only after it.
 * Context: task, sleeps (the shootdown waits).  Locking: mmap_lock held.
 */
void __user_unmap(struct mm_struct *mm, unsigned long addr, unsigned long n)
{
	unsigned long end = addr + n * PAGE_SIZE, va;
	struct unmap_batch b = { 0 };

	mmap_assert_locked(mm);
	for (va = arch_user_next_mapped(mm->pgd, addr, end); va < end;
	     va = arch_user_next_mapped(mm->pgd, va + PAGE_SIZE, end)) {
		unsigned int flags;
		u64 phys;

		if (b.end != b.first && va != b.end)
			flush_batch(mm, &b);	/* a gap: not one range */
		if (arch_query_user_page(mm->pgd, va, NULL, &flags) ||
		    arch_unmap_user_page(mm->pgd, va, &phys))
			continue;
		if (b.end == b.first)
			b.first = va;
		b.end = va + PAGE_SIZE;
		if (!(flags & MAP_PAGE_BORROWED))
			b.phys[b.nr++] = phys;
		if (b.end - b.first == UNMAP_BATCH_PAGES * PAGE_SIZE)
			flush_batch(mm, &b);
	}
	flush_batch(mm, &b);
}

static bool user_range_ok(unsigned long addr, unsigned long npages)
{
	return IS_ALIGNED(addr, PAGE_SIZE) && npages &&
	       addr < USER_ADDR_END &&
	       npages <= (USER_ADDR_END - addr) / PAGE_SIZE;
}

bool __user_range_empty(struct mm_struct *mm, unsigned long addr,
			unsigned long n)
{
	mmap_assert_locked(mm);
	return arch_user_next_mapped(mm->pgd, addr, addr + n * PAGE_SIZE) ==
	       addr + n * PAGE_SIZE;
}

int __user_map_page(struct mm_struct *mm, unsigned long addr, void *page,
		    unsigned int flags)
{
	int err;

	mmap_assert_locked(mm);
	err = arch_map_user_page(mm->pgd, addr, virt_to_phys(page), flags);
	if (!err && !(flags & MAP_PAGE_BORROWED))
		mm->nr_pages++;
	return err;
}

int __user_map_anon(struct mm_struct *mm, unsigned long addr,
		    unsigned long npages, unsigned int flags)
{
	unsigned long i;
	int err = 0;

	mmap_assert_locked(mm);
	if (!user_range_ok(addr, npages))
		return -EINVAL;
	if (npages > USER_MAX_PAGES - mm->nr_pages)
		return -ENOMEM;
	for (i = 0; i < npages; i++) {
		void *page = alloc_page();

		if (!page) {
			err = -ENOMEM;
			break;
		}
		memset(page, 0, PAGE_SIZE);
		err = __user_map_page(mm, addr + i * PAGE_SIZE, page, flags);
		if (err) {
			free_page(page);
			break;
		}
	}
	if (err && i)
		__user_unmap(mm, addr, i);	/* all or nothing */
	return err;
}

int user_map_anon(struct mm_struct *mm, unsigned long addr,
		  unsigned long npages, unsigned int flags)
{
	int err;

	might_sleep();
	rt_mutex_lock(&mm->mmap_lock);
	err = __user_map_anon(mm, addr, npages, flags);
	rt_mutex_unlock(&mm->mmap_lock);
	return err;
}

int user_unmap(struct mm_struct *mm, unsigned long addr, unsigned long len)
{
	unsigned long npages = ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE;

	might_sleep();
	if (!len || len > USER_ADDR_END || !user_range_ok(addr, 1) ||
	    npages > (USER_ADDR_END - addr) / PAGE_SIZE)
		return -EINVAL;
	rt_mutex_lock(&mm->mmap_lock);
	__user_unmap(mm, addr, npages);
	rt_mutex_unlock(&mm->mmap_lock);
	return 0;
}

unsigned long __user_get_unmapped_area(struct mm_struct *mm, unsigned long n)
{
	unsigned long addr;

	mmap_assert_locked(mm);
	/* one guard page below each area; addresses are never reused */
	if (n >= (mm->mmap_next - USER_MMAP_BOTTOM) / PAGE_SIZE)
		return 0;
	addr = mm->mmap_next - (n + 1) * PAGE_SIZE;
	mm->mmap_next = addr;
	return addr + PAGE_SIZE;
}

bool __user_addr_reserved(struct mm_struct *mm, unsigned long addr)
{
	mmap_assert_locked(mm);
	return addr >= mm->mmap_next && addr < USER_MMAP_TOP;
}

long user_mmap_anon(struct mm_struct *mm, unsigned long len,
		    unsigned int flags)
{
	unsigned long npages, addr;
	int err;

	might_sleep();
	if (!len || len > USER_MAX_PAGES * PAGE_SIZE)
		return len ? -ENOMEM : -EINVAL;
	npages = ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE;
	rt_mutex_lock(&mm->mmap_lock);
	addr = __user_get_unmapped_area(mm, npages);
	err = addr ? __user_map_anon(mm, addr, npages, flags) : -ENOMEM;
	rt_mutex_unlock(&mm->mmap_lock);
	return err ? err : (long)addr;
}

/*
 * user_brk - see user_mm.h.  The heap is [start_brk, brk): the pages
 * below PAGE_ALIGN(brk) are mapped, those above are not.
 * [1] brk(NULL), or below the start, or past what the cap allows: the
 *     break stays (Linux answers the current break, never an errno);
 * [2] growing maps the new pages writable, eagerly; a page already
 *     mapped there (a MAP_FIXED mapping) refuses the growth, as Linux's
 *     check against the next VMA does;
 * [3] shrinking unmaps the pages above the new break.
 */
unsigned long user_brk(struct mm_struct *mm, unsigned long brk)
{
	unsigned long old, new;

	might_sleep();
	rt_mutex_lock(&mm->mmap_lock);
	if (!mm->start_brk || brk < mm->start_brk ||		/* [1] */
	    brk - mm->start_brk > USER_MAX_PAGES * PAGE_SIZE)
		goto out_unlock;
	old = ALIGN_UP(mm->brk, PAGE_SIZE);
	new = ALIGN_UP(brk, PAGE_SIZE);
	if (new > old) {					/* [2] */
		unsigned long n = (new - old) / PAGE_SIZE;

		if (!__user_range_empty(mm, old, n) ||
		    __user_map_anon(mm, old, n, MAP_WRITE))
			goto out_unlock;
	} else if (new < old) {					/* [3] */
		__user_unmap(mm, new, (old - new) / PAGE_SIZE);
	}
	mm->brk = brk;
out_unlock:
	brk = mm->brk;
	rt_mutex_unlock(&mm->mmap_lock);
	return brk;
}

void *user_page_kaddr(struct mm_struct *mm, unsigned long uaddr)
{
	u64 phys;

	if (arch_query_user_page(mm->pgd, uaddr, &phys, NULL))
		return NULL;
	return phys_to_virt(phys);
}

/* exit_mmap - the pages first, then the files that own some of them.
 * Context: task, sleeps.  Locking: takes mmap_lock (nobody else uses the
 * mm by now; the lock makes the assertions below it hold). */
void exit_mmap(struct mm_struct *mm)
{
	might_sleep();
	rt_mutex_lock(&mm->mmap_lock);
	mm->nr_pages -= arch_user_unmap_all(mm->pgd);
	WARN_ON(mm->nr_pages != 0);
	mm_drop_files(mm);
	rt_mutex_unlock(&mm->mmap_lock);
}
