/*
 * kernel/user/elf_loader.h - load a static ELF64 executable into a new
 * address space and build its initial stack.
 */
#ifndef KERNEL_USER_ELF_LOADER_H
#define KERNEL_USER_ELF_LOADER_H

#include "lib/types.h"

struct mm_struct;

/* elf_load - map image's PT_LOAD segments into mm; *entry = e_entry.
 * 0, -ENOEXEC (not a static x86-64 ELF64 executable rtk can run, or a
 * segment both writable and executable), -ENOMEM.
 * Context: task, sleeps; mm is not running yet. */
int elf_load(struct mm_struct *mm, const void *image, size_t size,
	     unsigned long *entry);

/* elf_setup_stack - map the main stack and lay out argc, argv[], NULL,
 * envp NULL, auxv (AT_PAGESZ, AT_NULL) with the strings above them;
 * *sp = the address of argc (16-byte aligned).  0, -E2BIG, -ENOMEM.
 * Context: task, sleeps. */
int elf_setup_stack(struct mm_struct *mm, int argc, char *const argv[],
		    unsigned long *sp);

#endif /* KERNEL_USER_ELF_LOADER_H */
