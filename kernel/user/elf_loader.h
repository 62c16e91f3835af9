/*
 * kernel/user/elf_loader.h - load an ELF64 program (ET_EXEC, or ET_DYN:
 * PIE) and its interpreter (PT_INTERP) from the file system into a new
 * address space, and build its initial stack (elf_tables.c).
 */
#ifndef KERNEL_USER_ELF_LOADER_H
#define KERNEL_USER_ELF_LOADER_H

#include "lib/types.h"

struct mm_struct;

/* Where rtk places images (Linux's x86_64 addresses with ASLR off). */
#define ELF_ET_DYN_BASE	0x555555554000UL /* a PIE program: 2/3 of TASK_SIZE */
#define ELF_INTERP_TOP	0x7ffff7fff000UL /* ld.so ends below: the mmap base */

/*
 * struct linux_binprm - one program being started: what the caller
 * gives, what the loader and create_elf_tables find.  Linux counterpart:
 * include/linux/binfmts.h (rtk keeps the arguments in kernel memory and
 * copies them at create_elf_tables, not into the new mm ahead of time).
 */
struct linux_binprm {
	/* the caller's */
	const char *filename;		/* the path, walked from "/" (AT_EXECFN) */
	int argc, envc;
	char *const *argv;		/* argc strings */
	char *const *envp;		/* envc strings */

	/* load_elf_binary's */
	unsigned long entry;		/* the first instruction: the
					 * interpreter's entry, or e_entry */
	unsigned long e_entry;		/* AT_ENTRY: the program's, biased */
	unsigned long phdr;		/* AT_PHDR: its mapped phdr table */
	unsigned long phnum;		/* AT_PHNUM */
	unsigned long interp_base;	/* AT_BASE; 0 without interpreter */

	/* create_elf_tables' */
	unsigned long p;		/* the initial RSP: where argc is */
};

/* load_elf_binary - open bprm->filename (symlinks followed), map its
 * PT_LOAD segments into mm (an ET_DYN at ELF_ET_DYN_BASE), and its
 * PT_INTERP's interpreter below ELF_INTERP_TOP; fill bprm's entry,
 * e_entry, phdr, phnum and interp_base.  0 or -errno: the walk's
 * (-ENOENT, -ENOTDIR, -ELOOP, -ENAMETOOLONG), -EACCES (not a regular
 * file), -ENOEXEC (not an x86-64 ELF64 rtk can load), -ELIBBAD (the
 * interpreter is not one, or has an interpreter itself), -EIO (a short
 * read), -ENOMEM.  On failure mm holds what was mapped: mmput it.
 * Context: task, sleeps; mm is not running yet.  Locking: none held;
 * the walk and the reads take the tree lock, the mapping mmap_lock. */
int load_elf_binary(struct mm_struct *mm, struct linux_binprm *bprm);

/* elf_load - the same for an image already in kernel memory (size bytes
 * at image), without an interpreter (PT_INTERP: -ENOEXEC); *entry =
 * its entry.  Context: task, sleeps; mm is not running yet. */
int elf_load(struct mm_struct *mm, const void *image, size_t size,
	     unsigned long *entry);

/* create_elf_tables - map the main stack of mm and lay out Linux's
 * initial stack: argc, argv, envp, auxv, the strings (elf_tables.c);
 * sets bprm->p.  0, -E2BIG, -ENOMEM.  Context: task, sleeps; mm not
 * running.  Locking: user_map_anon takes mm->mmap_lock. */
int create_elf_tables(struct mm_struct *mm, struct linux_binprm *bprm);

#endif /* KERNEL_USER_ELF_LOADER_H */
