/*
 * kernel/mm/user_mm.h - the user half of an address space without VMAs:
 * pages mapped, unmapped and torn down in the page tables alone, for the
 * ELF loader, mmap/munmap/mprotect/brk and exit.
 *
 * Layout of every process (the addresses Linux's x86_64 uses too):
 *	0x400000		the program (ELF PT_LOAD segments), then the
 *				heap from start_brk (brk(2))
 *	below USER_MMAP_TOP	mmap areas, handed out downwards, each with
 *				an unmapped guard page below it; addresses
 *				are never handed out twice, which is what
 *				lets rtk go without VMAs: everything in
 *				[mmap_next, USER_MMAP_TOP) is "reserved"
 *	USER_STACK_TOP		the main stack's top; USER_STACK_PAGES mapped
 *				below it, and an unmapped guard page below
 *				those (a stack overflow faults, it never
 *				runs into an mmap area)
 * Every page is mapped when asked for (no demand paging): a user access
 * to anything else faults and kills, a kernel access (copy_from_user)
 * returns -EFAULT.  PROT_NONE maps nothing.  A page may be the mapping's
 * own (private: counted in nr_pages against USER_MAX_PAGES, freed at
 * unmap) or a file's (MAP_PAGE_BORROWED: kernel/mm/filemap.c; never
 * counted, never freed here).
 * Linux counterpart: mm/mmap.c (do_mmap, the top-down allocator, brk),
 * mm/memory.c (zap_page_range), kernel/fork.c (exit_mmap's caller).
 * rtk leaves out VMAs, demand paging, swap, address hints and
 * copy-on-write (a fork copies every private page at once:
 * kernel/mm/dup_mmap.c).
 */
#ifndef KERNEL_MM_USER_MM_H
#define KERNEL_MM_USER_MM_H

#include "lib/types.h"
#include "arch/x86_64/arch.h"

struct mm_struct;

#define USER_STACK_TOP		0x00007FFFFFFFE000UL	/* below USER_ADDR_END */
#define USER_STACK_PAGES	32			/* 128 KiB main stack */
#define USER_MMAP_TOP		0x00007FFF00000000UL	/* 4 GiB below the stack */
#define USER_MMAP_BOTTOM	0x40000000UL	/* 1 GiB: far above any
						 * program and its heap */
#define USER_MAX_PAGES		16384	/* 64 MiB of private pages per
					 * process: a runaway (the fuzzer)
					 * gets -ENOMEM long before the
					 * machine runs out */

/* mmap_assert_locked - the caller holds mm's mmap_lock (Linux's name);
 * needs kernel/sched/sched.h for current. */
#define mmap_assert_locked(mm) \
	BUG_ON(rt_mutex_owner(&(mm)->mmap_lock) != current)

/* user_map_anon - map npages zeroed pages at addr with MAP_WRITE /
 * MAP_EXEC; all or nothing.  0, -EINVAL, -EEXIST (something mapped
 * there), -EACCES (write+exec), -ENOMEM.
 * Context: task, sleeps.  Locking: takes mm->mmap_lock. */
int user_map_anon(struct mm_struct *mm, unsigned long addr,
		  unsigned long npages, unsigned int flags);
/* __user_map_anon - the same with mmap_lock held. */
int __user_map_anon(struct mm_struct *mm, unsigned long addr,
		    unsigned long npages, unsigned int flags);

/* __user_map_page - map one page at addr; a private one (no
 * MAP_PAGE_BORROWED) is counted in nr_pages.  arch_map_user_page's
 * answers.  Locking: mmap_lock held. */
int __user_map_page(struct mm_struct *mm, unsigned long addr, void *page,
		    unsigned int flags);

/* user_unmap - unmap [addr, addr + len): private pages are freed, a
 * file's are left to it.  0 or -EINVAL.
 * Context: task, sleeps.  Locking: takes mmap_lock. */
int user_unmap(struct mm_struct *mm, unsigned long addr, unsigned long len);
/* __user_unmap - the same for n pages, mmap_lock held. */
void __user_unmap(struct mm_struct *mm, unsigned long addr, unsigned long n);

/* __user_range_empty - nothing is mapped in n pages at addr.
 * Locking: mmap_lock held. */
bool __user_range_empty(struct mm_struct *mm, unsigned long addr,
			unsigned long n);

/* __user_get_unmapped_area - hand out n pages below the last area (a
 * guard page below them); the address, or 0 when the mmap region is
 * used up.  Locking: mmap_lock held. */
unsigned long __user_get_unmapped_area(struct mm_struct *mm, unsigned long n);

/* __user_addr_reserved - addr is in the mmap region handed out so far,
 * where an absent page is a PROT_NONE reservation or a hole that
 * mprotect may fill.  Locking: mmap_lock held. */
bool __user_addr_reserved(struct mm_struct *mm, unsigned long addr);

/* user_mmap_anon - a new area of len bytes (rounded up to pages) below
 * the last one; its address or -EINVAL / -ENOMEM.
 * Context: task, sleeps.  Locking: takes mmap_lock. */
long user_mmap_anon(struct mm_struct *mm, unsigned long len,
		    unsigned int flags);

/* user_mprotect - kernel/mm/mprotect.c. */
int user_mprotect(struct mm_struct *mm, unsigned long start,
		  unsigned long npages, unsigned long prot);

/* user_brk - brk(2) on mm: the new break, or the old one when the
 * request is refused (below start_brk, too big, no memory).
 * Context: task, sleeps.  Locking: takes mmap_lock. */
unsigned long user_brk(struct mm_struct *mm, unsigned long brk);

/* user_page_kaddr - the kernel (direct-map) address of user address
 * uaddr's byte, NULL when unmapped: for the loader, which fills pages
 * of an mm it does not run on.  Context: task; the mm is not yet shared. */
void *user_page_kaddr(struct mm_struct *mm, unsigned long uaddr);

/* exit_mmap - unmap every user page, free the private ones and drop the
 * mapped files (mmput's last user).  Context: task, sleeps. */
void exit_mmap(struct mm_struct *mm);

#endif /* KERNEL_MM_USER_MM_H */
