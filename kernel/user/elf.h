/*
 * kernel/user/elf.h - the ELF64 file format as the loader reads it, and
 * the pure checks of an image's headers (elf_check.c, also built for the
 * host: tests/host/test_elf_check.c, tests/host/fuzz_elf.c).
 *
 * Spec: System V gABI ch. 4 (ELF header), ch. 5 (program header); the
 * x86-64 psABI 3.4.3 (auxiliary vector values).
 * Linux counterpart: include/uapi/linux/elf.h (Elf64_Ehdr, Elf64_Phdr,
 * the AT_* values in include/uapi/linux/auxvec.h), fs/binfmt_elf.c's
 * checks in load_elf_phdrs and load_elf_binary.
 */
#ifndef KERNEL_USER_ELF_H
#define KERNEL_USER_ELF_H

#include "lib/types.h"

#define EI_NIDENT	16
#define ELFCLASS64	2
#define ELFDATA2LSB	1
#define ET_EXEC		2
#define ET_DYN		3
#define EM_X86_64	62
#define PT_LOAD		1
#define PT_INTERP	3
#define PT_PHDR		6
#define PF_X		1
#define PF_W		2
#define PF_R		4

/* auxv types (include/uapi/linux/auxvec.h, asm/auxvec.h) */
#define AT_NULL		0
#define AT_PHDR		3
#define AT_PHENT	4
#define AT_PHNUM	5
#define AT_PAGESZ	6
#define AT_BASE		7
#define AT_FLAGS	8
#define AT_ENTRY	9
#define AT_UID		11
#define AT_EUID		12
#define AT_GID		13
#define AT_EGID		14
#define AT_PLATFORM	15
#define AT_HWCAP	16
#define AT_CLKTCK	17
#define AT_SECURE	23
#define AT_RANDOM	25
#define AT_EXECFN	31

#define ELF_MIN_ALIGN	4096UL		/* the page: Linux's ELF_MIN_ALIGN */
#define ELF_MIN_VADDR	0x10000UL	/* Linux's default mmap_min_addr */
/* The largest p_align honoured; Linux honours any, rtk a 2 MiB huge page
 * at most (a larger one falls back to the page). */
#define ELF_MAX_ALIGN	0x200000UL
#define ELF_INTERP_PATH_MAX 4096	/* PATH_MAX: load_elf_binary's limit */

struct elf64_ehdr {
	u8 e_ident[EI_NIDENT];
	u16 e_type, e_machine;
	u32 e_version;
	u64 e_entry, e_phoff, e_shoff;
	u32 e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf64_phdr {
	u32 p_type, p_flags;
	u64 p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

/* What elf_check_phdrs found: the image before it is placed. */
struct elf_layout {
	u64 lo, hi;		/* page-aligned span of the PT_LOAD vaddrs */
	u64 align;		/* the load bias's alignment: >= ELF_MIN_ALIGN */
	u64 phdr_vaddr;		/* where the phdr table is mapped (AT_PHDR
				 * before the bias), 0 when no segment holds it */
	int interp;		/* index of PT_INTERP, -1 without */
	int nr_load;		/* PT_LOAD entries with p_memsz > 0 */
};

/* elf_check_ehdr - ELF64, little-endian, x86-64, ET_EXEC or ET_DYN, Linux's
 * phentsize: 0 or -ENOEXEC.  Context: any. */
int elf_check_ehdr(const struct elf64_ehdr *eh);

/* elf_phdrs_size - the bytes of eh's program-header table: 0 and *size,
 * or -ENOEXEC (no entries, or more than a page of them, as Linux's
 * load_elf_phdrs).  Context: any. */
int elf_phdrs_size(const struct elf64_ehdr *eh, size_t *size);

/* elf_check_phdrs - every PT_LOAD inside a file of file_size bytes,
 * p_filesz <= p_memsz, no wrap, p_vaddr and p_offset congruent modulo the
 * page, not writable and executable at once; at most one PT_INTERP, its
 * string inside the file and 2..PATH_MAX bytes.  Fills *lay.  0 or
 * -ENOEXEC.  Context: any. */
int elf_check_phdrs(const struct elf64_ehdr *eh, const struct elf64_phdr *ph,
		    u64 file_size, struct elf_layout *lay);

/* elf_load_bias - what to add to lay's vaddrs: 0 for ET_EXEC; for ET_DYN
 * the bias that puts lay->lo at base, rounded down to lay->align.
 * Context: any. */
u64 elf_load_bias(const struct elf64_ehdr *eh, const struct elf_layout *lay,
		  u64 base);

/* elf_check_span - is [lo + bias, hi + bias) inside [start, end)?  0 or
 * -ENOEXEC.  Context: any. */
int elf_check_span(const struct elf_layout *lay, u64 bias, u64 start, u64 end);

#endif /* KERNEL_USER_ELF_H */
