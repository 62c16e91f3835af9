/*
 * kernel/user/elf_loader.h - load an ELF64 program (ET_EXEC, or ET_DYN:
 * PIE) and its interpreter (PT_INTERP) from the file system into a new
 * address space, and build its initial stack (elf_tables.c).
 */
#ifndef KERNEL_USER_ELF_LOADER_H
#define KERNEL_USER_ELF_LOADER_H

#include "lib/types.h"
#include "kernel/mm/user_mm.h"	/* USER_STACK_PAGES */

struct mm_struct;
struct inode;

/* exec_binprm's deepest rewrite level: Linux 6.1 (fs/exec.c exec_binprm,
 * "depth > 5" is -ELOOP) looks at 6 files, so 5 nested #! scripts run
 * and a 6th fails; its comment says "4 levels", the code allows 5. */
#define BINPRM_MAX_DEPTH	5
/* the bytes of a file's start a #! line must fit in (linux/binfmts.h) */
#define BINPRM_BUF_SIZE		256

/* Strings plus their pointers, filename included: a quarter of the
 * stack, as Linux caps them at a quarter of RLIMIT_STACK (fs/exec.c
 * bprm_stack_limits); past it -E2BIG (elf_tables.c, exec.c). */
#define ELF_ARG_MAX	(USER_STACK_PAGES * PAGE_SIZE / 4)

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
	const char *filename;		/* the path (AT_EXECFN, comm) */
	struct inode *root, *pwd;	/* the walk's root and start (execve:
					 * the caller's, or execveat's dfd);
					 * NULL: "/" for both */
	bool empty_path;		/* AT_EMPTY_PATH: "" names pwd */
	int argc, envc;
	char *const *argv;		/* argc strings */
	char *const *envp;		/* envc strings */

	/* exec_binprm's (binfmt_script.c): a #! script replaced argv and
	 * names the file to load instead */
	const char *interp;		/* NULL: filename itself */
	int depth;			/* #! levels so far */
	void *script_buf[BINPRM_MAX_DEPTH + 1];	/* each rewrite's argv and
						 * strings (bprm_release) */

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

/* bprm_path - the path of the file to load now: a #! script's
 * interpreter, or "" for AT_EMPTY_PATH (the fd's file), or filename. */
static inline const char *bprm_path(const struct linux_binprm *bprm)
{
	if (bprm->interp)
		return bprm->interp;
	return bprm->empty_path ? "" : bprm->filename;
}

/* load_elf_binary - open bprm_path(bprm), else bprm->filename (walked from
 * bprm->pwd, symlinks followed), map its
 * PT_LOAD segments into mm (an ET_DYN at ELF_ET_DYN_BASE), and its
 * PT_INTERP's interpreter below ELF_INTERP_TOP; fill bprm's entry,
 * e_entry, phdr, phnum and interp_base.  0 or -errno: the walk's
 * (-ENOENT, -ENOTDIR, -ELOOP, -ENAMETOOLONG), -EACCES (not a regular
 * file, or one without an x bit), -ENOEXEC (not an x86-64 ELF64 rtk can load), -ELIBBAD (the
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

/* open_exec - the regular executable file at name for bprm's walk:
 * *inode referenced (iput).  0, the walk's errno, -EACCES (not a regular
 * file, or no x bit: Linux's may_open MAY_EXEC for root).  Context:
 * task, sleeps.  Locking: the walk takes the tree lock. */
int open_exec(const struct linux_binprm *bprm, const char *name,
	      struct inode **inode);

/* exec_binprm - load bprm's program into mm: a #! script's interpreter
 * (its argv rewritten, up to BINPRM_MAX_DEPTH levels: -ELOOP), else the
 * ELF (load_elf_binary).  The errors of both, -ENOEXEC for a file that
 * is neither.  bprm_release frees what it made.  Context: task, sleeps;
 * mm not running.  Locking: none held (binfmt_script.c). */
int exec_binprm(struct mm_struct *mm, struct linux_binprm *bprm);

/* bprm_release - free exec_binprm's rewritten argv.  Context: task. */
void bprm_release(struct linux_binprm *bprm);

#endif /* KERNEL_USER_ELF_LOADER_H */
