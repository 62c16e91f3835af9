/*
 * kernel/mm/dup_mmap.c - a fork's copy of an address space (dup_mm).
 *
 * dup_mm(old):
 *   [1] a new user mm (its own page-table root, the kernel half shared);
 *   [2] under old's mmap_lock, what stands for old's VMAs: the mmap
 *       allocator's mark (everything in [mmap_next, USER_MMAP_TOP) is a
 *       mapping or a PROT_NONE reservation, so the child's reservations
 *       are the parent's), the heap (start_brk, brk), and a hold on
 *       every file old maps (its page cache lives while the child may
 *       map it);
 *   [3] every mapped user page, found in the tables: a private page is
 *       copied into a new page at once (eager: rtk has no copy-on-write),
 *       a file's page (MAP_PAGE_BORROWED: the page cache, read-only, or a
 *       MAP_SHARED file's bytes) is mapped in the child too, the same
 *       physical page with the same flags, so both see one file;
 *   [4] any failure: the new mm is dropped whole (mmput: exit_mmap frees
 *       the copies made so far and drops the file holds).
 * The parent's tables are not changed, so no TLB is flushed.  A thread
 * of the parent writing memory while it forks may be seen half-copied
 * by the child (Linux's copy-on-write snapshots at the fork; a program
 * that forks from one thread while another writes gets a torn page
 * here).  MAP_SHARED|MAP_ANONYMOUS memory is private in rtk
 * (sys_mm.c): a fork copies it, where Linux would share it (issue 30
 * item 6).
 * Linux counterpart: kernel/fork.c (dup_mm, dup_mmap), mm/memory.c
 * (copy_page_range, copy_present_pte).
 */
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/user_mm.h"
#include "kernel/mm/file_mmap.h"
#include "kernel/mm/pmm.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

/* dup_pages - [3] for the whole user half.  0 or -ENOMEM.
 * Context: task, sleeps.  Locking: old's mmap_lock held; mm is nobody
 * else's yet, so its tables are filled without its lock (as the ELF
 * loader fills a new mm's: user_page_kaddr), which also keeps lockdep
 * from seeing two mmap_locks, one class, nested. */
static int dup_pages(struct mm_struct *mm, struct mm_struct *old)
{
	unsigned long va;

	mmap_assert_locked(old);
	for (va = arch_user_next_mapped(old->pgd, 0, USER_ADDR_END);
	     va < USER_ADDR_END;
	     va = arch_user_next_mapped(old->pgd, va + PAGE_SIZE,
					USER_ADDR_END)) {
		unsigned int flags;
		void *page;
		u64 phys;
		int err;

		if (arch_query_user_page(old->pgd, va, &phys, &flags))
			continue;
		if (flags & MAP_PAGE_BORROWED) {
			err = arch_map_user_page(mm->pgd, va, phys, flags);
			if (err)
				return err;
			continue;
		}
		page = alloc_page();
		if (!page)
			return -ENOMEM;
		memcpy(page, phys_to_virt(phys), PAGE_SIZE);
		err = arch_map_user_page(mm->pgd, va, virt_to_phys(page), flags);
		if (err) {
			free_page(page);
			return err;
		}
		mm->nr_pages++;
	}
	return 0;
}

/*
 * dup_mm - see the header.  The new mm has mm_users 1 (the child's
 * thread) and owner_tgid 0 (the caller sets it); NULL without memory.
 * Context: task, sleeps.  Locking: takes old->mmap_lock (only: see
 * dup_pages).
 */
struct mm_struct *dup_mm(struct mm_struct *old, const char *name)
{
	struct mm_struct *mm;
	int err;

	might_sleep();
	mm = mm_alloc_user(name);					/* [1] */
	if (!mm)
		return NULL;
	rt_mutex_lock(&old->mmap_lock);					/* [2] */
	mm->mmap_next = old->mmap_next;
	mm->start_brk = old->start_brk;
	mm->brk = old->brk;
	err = mm_dup_files(mm, old);
	if (!err)
		err = dup_pages(mm, old);				/* [3] */
	rt_mutex_unlock(&old->mmap_lock);
	if (err) {							/* [4] */
		mmput(mm);
		return NULL;
	}
	return mm;
}
