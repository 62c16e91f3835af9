/*
 * kernel/mm/user_mm.c - anonymous user pages (see user_mm.h): mapped
 * through the arch's user page tables (arch_map_user_page), counted in
 * mm->nr_pages against USER_MAX_PAGES, freed at munmap and exit.
 * Locking: mm->mmap_lock (an rt_mutex: page allocation and the TLB
 * shootdown of an unmap happen under it) serialises every change to
 * one mm's user half.
 * Linux counterpart: mm/mmap.c, mm/memory.c, mm/mmap.c exit_mmap.
 */
#include "kernel/mm/user_mm.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/pmm.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

/* __user_unmap - [addr, addr + n pages): clear, flush, free.
 * Locking: mmap_lock held. */
static void __user_unmap(struct mm_struct *mm, unsigned long addr,
			 unsigned long n)
{
	unsigned long cleared = 0;
	u64 phys[16];
	unsigned long start = addr;

	/* batches of 16: one shootdown per batch, then free its pages */
	for (unsigned long i = 0; i < n; i++) {
		unsigned long va = addr + i * PAGE_SIZE;

		if (arch_unmap_user_page(mm->pgd, va, &phys[cleared]) == 0)
			cleared++;
		if (cleared == ARRAY_SIZE(phys) || i == n - 1) {
			if (cleared)
				arch_flush_user_range(start, va + PAGE_SIZE);
			for (unsigned long j = 0; j < cleared; j++)
				free_page(phys_to_virt(phys[j]));
			mm->nr_pages -= cleared;
			cleared = 0;
			start = va + PAGE_SIZE;
		}
	}
}

static bool user_range_ok(unsigned long addr, unsigned long npages)
{
	return IS_ALIGNED(addr, PAGE_SIZE) && npages &&
	       npages <= USER_MAX_PAGES && addr < USER_ADDR_END &&
	       npages <= (USER_ADDR_END - addr) / PAGE_SIZE;
}

int user_map_anon(struct mm_struct *mm, unsigned long addr,
		  unsigned long npages, unsigned int flags)
{
	unsigned long i;
	int err = 0;

	might_sleep();
	if (!user_range_ok(addr, npages))
		return -EINVAL;
	rt_mutex_lock(&mm->mmap_lock);
	if (mm->nr_pages + npages > USER_MAX_PAGES) {
		err = -ENOMEM;
		goto out_unlock;
	}
	for (i = 0; i < npages; i++) {
		void *page = alloc_page();

		if (!page) {
			err = -ENOMEM;
			break;
		}
		memset(page, 0, PAGE_SIZE);
		err = arch_map_user_page(mm->pgd, addr + i * PAGE_SIZE,
					 virt_to_phys(page), flags);
		if (err) {
			free_page(page);
			break;
		}
		mm->nr_pages++;
	}
	if (err && i)
		__user_unmap(mm, addr, i);	/* all or nothing */
out_unlock:
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
	/* one guard page below each area; addresses are never reused */
	addr = mm->mmap_next - (npages + 1) * PAGE_SIZE;
	mm->mmap_next = addr;
	rt_mutex_unlock(&mm->mmap_lock);
	if (addr < 0x40000000UL)	/* 1 GiB: far above any program */
		return -ENOMEM;
	addr += PAGE_SIZE;
	err = user_map_anon(mm, addr, npages, flags);
	return err ? err : (long)addr;
}

void *user_page_kaddr(struct mm_struct *mm, unsigned long uaddr)
{
	u64 phys;

	if (arch_query_user_page(mm->pgd, uaddr, &phys, NULL))
		return NULL;
	return phys_to_virt(phys);
}

void exit_mmap(struct mm_struct *mm)
{
	might_sleep();
	rt_mutex_lock(&mm->mmap_lock);
	mm->nr_pages -= arch_user_unmap_all(mm->pgd);
	WARN_ON(mm->nr_pages != 0);
	rt_mutex_unlock(&mm->mmap_lock);
}
