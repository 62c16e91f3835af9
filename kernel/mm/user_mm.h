/*
 * kernel/mm/user_mm.h - the user half of an address space: anonymous
 * pages mapped, unmapped and torn down, for the ELF loader, mmap/munmap
 * and exit.
 *
 * Layout of every process (the addresses Linux's x86_64 uses too):
 *	0x400000		the program (ELF PT_LOAD segments)
 *	below USER_MMAP_TOP	mmap areas, handed out downwards, each with
 *				an unmapped guard page below it
 *	USER_STACK_TOP		the main stack's top; USER_STACK_PAGES mapped
 *				below it, and an unmapped guard page below
 *				those (a stack overflow faults, it never
 *				runs into an mmap area)
 * Every page is mapped when asked for (no demand paging): a user access
 * to anything else faults and kills, a kernel access (copy_from_user)
 * returns -EFAULT.
 * Linux counterpart: mm/mmap.c (do_mmap, the top-down allocator),
 * mm/memory.c (zap_page_range), kernel/fork.c (exit_mmap's caller).
 * rtk leaves out VMAs, file mappings, demand paging, mprotect and
 * MAP_FIXED.
 */
#ifndef KERNEL_MM_USER_MM_H
#define KERNEL_MM_USER_MM_H

#include "lib/types.h"
#include "arch/x86_64/arch.h"

struct mm_struct;

#define USER_STACK_TOP		0x00007FFFFFFFE000UL	/* below USER_ADDR_END */
#define USER_STACK_PAGES	32			/* 128 KiB main stack */
#define USER_MMAP_TOP		0x00007FFF00000000UL	/* 4 GiB below the stack */
#define USER_MAX_PAGES		16384	/* 64 MiB per process: a runaway
					 * (the fuzzer) gets -ENOMEM long
					 * before the machine runs out */

/* user_map_anon - map npages zeroed pages at addr with MAP_WRITE /
 * MAP_EXEC; all or nothing.  0, -EINVAL, -EEXIST (something mapped
 * there), -EACCES (write+exec), -ENOMEM.
 * Context: task, sleeps.  Locking: takes mm->mmap_lock. */
int user_map_anon(struct mm_struct *mm, unsigned long addr,
		  unsigned long npages, unsigned int flags);

/* user_unmap - unmap and free what is mapped in [addr, addr + len).
 * 0 or -EINVAL.  Context: task, sleeps.  Locking: takes mmap_lock. */
int user_unmap(struct mm_struct *mm, unsigned long addr, unsigned long len);

/* user_mmap_anon - a new area of len bytes (rounded up to pages) below
 * the last one; its address or -EINVAL / -ENOMEM.
 * Context: task, sleeps.  Locking: takes mmap_lock. */
long user_mmap_anon(struct mm_struct *mm, unsigned long len,
		    unsigned int flags);

/* user_page_kaddr - the kernel (direct-map) address of user address
 * uaddr's byte, NULL when unmapped: for the loader, which fills pages
 * of an mm it does not run on.  Context: task; the mm is not yet shared. */
void *user_page_kaddr(struct mm_struct *mm, unsigned long uaddr);

/* exit_mmap - unmap and free every user page (mmput's last user).
 * Context: task, sleeps. */
void exit_mmap(struct mm_struct *mm);

#endif /* KERNEL_MM_USER_MM_H */
