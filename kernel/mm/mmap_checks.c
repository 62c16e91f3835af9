/*
 * kernel/mm/mmap_checks.c - mmap's and mprotect's argument checks (see
 * mmap_checks.h): no locks, no memory, no address space, so the same
 * code runs in the kernel and in the host tests.
 * Linux counterpart: mm/mmap.c do_mmap, mm/mprotect.c
 * do_mprotect_pkey, arch/x86/kernel/sys_x86_64.c sys_mmap.  Left out:
 * MAP_SHARED_VALIDATE's list of known flags (rtk accepts every flag bit
 * and ignores those it does not know, as MAP_SHARED does), pkeys.
 */
#include "kernel/mm/mmap_checks.h"
#include "kernel/user/uapi.h"
#include "lib/errno.h"

#define PROT_ALL (PROT_READ | PROT_WRITE | PROT_EXEC)

static bool page_aligned(unsigned long x)
{
	return (x & (MMAP_PAGE_SIZE - 1)) == 0;
}

/*
 * mmap_check_args - see the header.  Linux's order:
 * [1] the offset (the x86_64 entry checks it first);
 * [2] the mapping type (do_mmap's switch: -EINVAL);
 * [3] len: 0 is -EINVAL, and a len that rounds up past the space -ENOMEM;
 * [4] MAP_FIXED: the address on a page, the range inside the space;
 * [5] prot: unknown bits, then W^X.
 */
int mmap_check_args(unsigned long addr, unsigned long len, unsigned long prot,
		    unsigned long flags, unsigned long off,
		    unsigned long task_size, unsigned long *npages)
{
	unsigned long type = flags & MAP_TYPE;

	if (!page_aligned(off))					/* [1] */
		return -EINVAL;
	if (type != MAP_PRIVATE && type != MAP_SHARED &&	/* [2] */
	    type != MAP_SHARED_VALIDATE)
		return -EINVAL;
	if (!len)						/* [3] */
		return -EINVAL;
	if (len > task_size - MMAP_PAGE_SIZE)
		return -ENOMEM;
	*npages = (len + MMAP_PAGE_SIZE - 1) / MMAP_PAGE_SIZE;
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {	/* [4] */
		if (!page_aligned(addr))
			return -EINVAL;
		if (addr >= task_size ||
		    *npages > (task_size - addr) / MMAP_PAGE_SIZE)
			return -ENOMEM;
	}
	if (prot & ~PROT_ALL)					/* [5] */
		return -EINVAL;
	if ((prot & PROT_WRITE) && (prot & PROT_EXEC))
		return -EACCES;
	return 0;
}

/* Linux's MAX_LFS_FILESIZE on 64-bit: the largest loff_t. */
#define MAX_LFS_FILESIZE 0x7fffffffffffffffUL

int mmap_check_file(unsigned int mode, unsigned int f_flags,
		    unsigned long prot, unsigned long flags, unsigned long off,
		    unsigned long len)
{
	unsigned int acc = f_flags & O_ACCMODE;

	if (!S_ISREG(mode))
		return -ENODEV;
	if (acc == O_WRONLY)
		return -EACCES;
	if ((flags & MAP_TYPE) != MAP_PRIVATE && (prot & PROT_WRITE) &&
	    acc != O_RDWR)
		return -EACCES;
	if (off > MAX_LFS_FILESIZE || len > MAX_LFS_FILESIZE - off)
		return -EOVERFLOW;
	return 0;
}

int mprotect_check_args(unsigned long start, unsigned long len,
			unsigned long prot, unsigned long task_size,
			unsigned long *npages)
{
	*npages = 0;
	if (!page_aligned(start))
		return -EINVAL;
	if (!len)
		return 0;	/* before the prot check, as Linux */
	if (prot & ~PROT_ALL)
		return -EINVAL;
	*npages = (len + MMAP_PAGE_SIZE - 1) / MMAP_PAGE_SIZE;
	if (len > task_size || start >= task_size ||
	    *npages > (task_size - start) / MMAP_PAGE_SIZE)
		return -ENOMEM;
	if ((prot & PROT_WRITE) && (prot & PROT_EXEC))
		return -EACCES;
	return 0;
}
