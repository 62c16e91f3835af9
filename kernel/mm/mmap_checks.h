/*
 * kernel/mm/mmap_checks.h - the argument checks of mmap(2) and
 * mprotect(2), as Linux makes them and in Linux's order, apart from the
 * address space: pure functions of the arguments (and of the file's mode
 * and open flags), so the host tests run them (tests/host/test_mmap_checks.c).
 * Context: any (pure functions).  Locking: none.
 * Linux counterpart: mm/mmap.c do_mmap (its len, flag and file checks),
 * mm/mprotect.c do_mprotect_pkey's first lines, arch/x86/kernel/
 * sys_x86_64.c (the offset check).
 */
#ifndef KERNEL_MM_MMAP_CHECKS_H
#define KERNEL_MM_MMAP_CHECKS_H

#include "lib/types.h"

/* x86_64's 4 KiB page: PAGE_SIZE in arch/x86_64/arch.h, which the host
 * build cannot include; kernel/user/sys_mm.c asserts they agree. */
#define MMAP_PAGE_SIZE 4096UL

/* mmap_check_args - mmap's checks before any file or address space:
 * -EINVAL for an offset off a page, a zero len, a mapping type other
 * than MAP_PRIVATE / MAP_SHARED / MAP_SHARED_VALIDATE, unknown prot bits,
 * a MAP_FIXED addr off a page; -ENOMEM for a len that does not fit below
 * task_size (or at a MAP_FIXED addr); -EACCES for PROT_WRITE|PROT_EXEC
 * (rtk's W^X).  0 when the arguments are fine; *npages then holds the
 * pages asked for. */
int mmap_check_args(unsigned long addr, unsigned long len, unsigned long prot,
		    unsigned long flags, unsigned long off,
		    unsigned long task_size, unsigned long *npages);

/* mmap_check_file - what a file mapping needs from the file: a regular
 * file (a character device or directory: -ENODEV, no mmap operation), an
 * fd open for reading (-EACCES), and for a writable MAP_SHARED one an fd
 * open for writing (-EACCES); a range that ends within a file's largest
 * offset (-EOVERFLOW: Linux's file_mmap_ok, MAX_LFS_FILESIZE). */
int mmap_check_file(unsigned int mode, unsigned int f_flags,
		    unsigned long prot, unsigned long flags, unsigned long off,
		    unsigned long len);

/* mprotect_check_args - -EINVAL for start off a page or unknown prot
 * bits, -ENOMEM for a range past task_size, -EACCES for W+X; 0 with
 * *npages (0 for len 0: nothing to do, as Linux). */
int mprotect_check_args(unsigned long start, unsigned long len,
			unsigned long prot, unsigned long task_size,
			unsigned long *npages);

#endif /* KERNEL_MM_MMAP_CHECKS_H */
