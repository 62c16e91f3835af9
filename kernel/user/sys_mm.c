/*
 * kernel/user/sys_mm.c - mmap and munmap of anonymous private memory,
 * and fault_in_user_writeable (the futex code's "make it present").
 *
 * mmap() takes MAP_PRIVATE | MAP_ANONYMOUS only (no files in rtk); the
 * address hint is ignored and MAP_FIXED and MAP_SHARED are -EINVAL (a
 * named gap).  PROT_WRITE | PROT_EXEC is -EACCES: W^X for user pages
 * too (Linux allows it unless a security module refuses, with the same
 * errno).  PROT_NONE still maps readable pages (no mprotect in rtk).
 * Linux counterpart: mm/mmap.c (ksys_mmap_pgoff, do_mmap), mm/gup.c.
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/user_mm.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, unsigned long fd, unsigned long off)
{
	unsigned int map = 0;

	(void)addr;
	(void)fd;
	might_sleep();
	if (!len || (off & ~PAGE_MASK))
		return -EINVAL;
	if ((flags & MAP_TYPE) != MAP_PRIVATE || !(flags & MAP_ANONYMOUS) ||
	    (flags & MAP_FIXED))
		return -EINVAL;
	if (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;
	if ((prot & PROT_WRITE) && (prot & PROT_EXEC))
		return -EACCES;
	if (prot & PROT_WRITE)
		map |= MAP_WRITE;
	if (prot & PROT_EXEC)
		map |= MAP_EXEC;
	return user_mmap_anon(current->mm, len, map);
}

long sys_munmap(unsigned long addr, size_t len)
{
	might_sleep();
	if (addr & ~PAGE_MASK)
		return -EINVAL;
	return user_unmap(current->mm, addr, len);
}

int fault_in_user_writeable(u32 __user *uaddr)
{
	unsigned int flags;
	struct mm_struct *mm = current->mm;
	int ret;

	might_sleep();
	if (!mm || !access_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	rt_mutex_lock(&mm->mmap_lock);
	ret = arch_query_user_page(mm->pgd, (unsigned long)uaddr, NULL, &flags);
	rt_mutex_unlock(&mm->mmap_lock);
	return !ret && (flags & MAP_WRITE) ? 0 : -EFAULT;
}
