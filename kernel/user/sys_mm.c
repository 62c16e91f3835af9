/*
 * kernel/user/sys_mm.c - the memory calls: mmap, munmap, mprotect, brk,
 * madvise, mlock and friends, and fault_in_user_writeable (the futex
 * code's "make it present").
 *
 * mmap: anonymous or file-backed (kernel/mm/file_mmap.c), MAP_PRIVATE or
 * MAP_SHARED; MAP_FIXED unmaps the range first; PROT_NONE only reserves
 * the addresses (nothing mapped, nothing counted: glibc reserves 128 MiB
 * malloc arenas and 8 MiB thread stacks so); the address hint is
 * ignored.  MAP_SHARED|MAP_ANONYMOUS is private memory: nothing forks in
 * rtk, so no second process could share it.  PROT_WRITE | PROT_EXEC is
 * -EACCES: W^X for user pages too (Linux allows it unless a security
 * module refuses, with the same errno).
 * mlock, mlockall and munlockall succeed without doing anything, and
 * honestly so: rtk maps every page when it is asked for and never pages
 * out.  madvise is -EINVAL (glibc's MADV_DONTNEED on a freed thread
 * stack copes, as it does under Linux with mlockall).
 * Linux counterpart: mm/mmap.c (ksys_mmap_pgoff, do_mmap, brk),
 * mm/mprotect.c, mm/mlock.c, mm/madvise.c, mm/gup.c.
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/fs/fdtable.h"
#include "kernel/mm/file_mmap.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/mmap_checks.h"
#include "kernel/mm/user_mm.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

_Static_assert(MMAP_PAGE_SIZE == PAGE_SIZE, "mmap_checks.h's page size");

/* do_mmap - place and fill the mapping; the address or -errno.
 * Context: task, sleeps.  Locking: mmap_lock held. */
static long do_mmap(struct mm_struct *mm, unsigned long addr,
		    unsigned long npages, unsigned long prot,
		    unsigned long flags, struct file *file, unsigned long off)
{
	unsigned int map = ((prot & PROT_WRITE) ? MAP_WRITE : 0) |
			   ((prot & PROT_EXEC) ? MAP_EXEC : 0);
	int err;

	mmap_assert_locked(mm);
	if (flags & MAP_FIXED_NOREPLACE) {
		if (!__user_range_empty(mm, addr, npages))
			return -EEXIST;
	} else if (flags & MAP_FIXED) {
		__user_unmap(mm, addr, npages);
	} else {
		addr = __user_get_unmapped_area(mm, npages);
		if (!addr)
			return -ENOMEM;
	}
	if (prot == PROT_NONE)
		return (long)addr;	/* a reservation: nothing mapped */
	if (file && (flags & MAP_TYPE) != MAP_PRIVATE && !file_writable(file))
		map |= MAP_PAGE_NOWRITE;	/* mprotect keeps it read-only */
	if (file)
		err = __do_mmap_file(mm, addr, npages, map, file->f_inode,
				     off / PAGE_SIZE,
				     (flags & MAP_TYPE) != MAP_PRIVATE);
	else
		err = __user_map_anon(mm, addr, npages, map);
	return err ? err : (long)addr;
}

/*
 * sys_mmap - the address, or -errno in Linux's order:
 * [1] the arguments alone (mmap_check_args: offset, type, len, MAP_FIXED
 *     address, prot);
 * [2] a file mapping: the fd (-EBADF), then what the file allows
 *     (-ENODEV, -EACCES: mmap_check_file);
 * [3] under mmap_lock, place and fill it (do_mmap).
 * Context: task, sleeps.  Locking: takes mmap_lock (then the fs tree
 * lock, in file_mmap.c).
 */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, unsigned long fd, unsigned long off)
{
	struct mm_struct *mm = current->mm;
	struct file *file = NULL;
	unsigned long npages;
	long ret;

	might_sleep();
	/* [1] */
	ret = mmap_check_args(addr, len, prot, flags, off, USER_ADDR_END,
			      &npages);
	if (ret)
		return ret;
	if (!(flags & MAP_ANONYMOUS)) {				/* [2] */
		file = fget((unsigned int)fd);
		if (!file)
			return -EBADF;
		ret = mmap_check_file(file->f_inode->i_mode, file->f_flags,
				      prot, flags, off, npages * PAGE_SIZE);
		if (ret)
			goto out_put;
	}
	rt_mutex_lock(&mm->mmap_lock);				/* [3] */
	ret = do_mmap(mm, addr, npages, prot, flags, file, off);
	rt_mutex_unlock(&mm->mmap_lock);
out_put:
	if (file)
		fput(file);
	return ret;
}

/* sys_munmap, sys_mprotect, sys_brk - Context: task, sleeps.  Locking:
 * take mmap_lock (user_unmap, user_mprotect, user_brk). */
long sys_munmap(unsigned long addr, size_t len)
{
	might_sleep();
	if (addr & ~PAGE_MASK)
		return -EINVAL;
	return user_unmap(current->mm, addr, len);
}

long sys_mprotect(unsigned long start, size_t len, unsigned long prot)
{
	unsigned long npages;
	int ret;

	might_sleep();
	ret = mprotect_check_args(start, len, prot, USER_ADDR_END, &npages);
	if (ret || !npages)
		return ret;
	return user_mprotect(current->mm, start, npages, prot);
}

long sys_brk(unsigned long brk)
{
	might_sleep();
	return (long)user_brk(current->mm, brk);
}

/* sys_madvise, sys_mlock, sys_munlock, sys_mlockall, sys_munlockall -
 * fixed answers.  Context: task.  Locking: none. */
long sys_madvise(unsigned long start, size_t len, int behavior)
{
	return -EINVAL;
}

long sys_mlock(unsigned long start, size_t len)
{
	return 0;
}

long sys_munlock(unsigned long start, size_t len)
{
	return 0;
}

/* sys_mlockall - Linux's flag check, then nothing to do. */
long sys_mlockall(int flags)
{
	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) ||
	    flags == MCL_ONFAULT)
		return -EINVAL;
	return 0;
}

long sys_munlockall(void)
{
	return 0;
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
