/*
 * kernel/user/elf_loader.c - the ELF64 loader for static, non-PIE x86-64
 * executables (what user/user.mk links: PT_LOAD segments at 0x400000,
 * entry _start), and the System V initial stack.
 *
 * elf_load():
 *   [1] check the header: ELF64, little-endian, x86-64, ET_EXEC, sane
 *       program-header table inside the image;
 *   [2] for each PT_LOAD: inside the image and below the mmap area, not
 *       writable and executable at once (W^X: rtk will not make such a
 *       page; Linux would), its pages mapped with its permissions (NX
 *       unless PF_X) -- a page shared by two segments is refused;
 *   [3] the file bytes copied in (the rest, .bss, stays zero).
 * Other program headers (PT_GNU_STACK, PT_NOTE ...) are ignored: the
 * stack is always NX.  There is no interpreter (PT_INTERP: -ENOEXEC).
 * Spec: System V gABI ch. 4-5 (ELF header, program header), the x86-64
 * psABI 3.4.1 (initial process stack) and 3.4.3 (auxiliary vector).
 * Linux counterpart: fs/binfmt_elf.c (load_elf_binary, elf_map,
 * create_elf_tables).  rtk leaves out PIE, interpreters, AT_RANDOM,
 * AT_PHDR and the other auxv entries, and environment strings.
 */
#include "kernel/user/elf_loader.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/user_mm.h"
#include "lib/errno.h"
#include "lib/string.h"

#define EI_NIDENT	16
#define ELFCLASS64	2
#define ELFDATA2LSB	1
#define ET_EXEC		2
#define EM_X86_64	62
#define PT_LOAD		1
#define PT_INTERP	3
#define PF_X		1
#define PF_W		2
#define ELF_MAX_PHDRS	16
#define AT_NULL		0
#define AT_PAGESZ	6
#define ELF_MIN_VADDR	0x10000UL	/* Linux's default mmap_min_addr */

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

/* copy_to_new_mm - write len bytes at user address uaddr of mm, page by
 * page through the direct map (mm is not loaded on any CPU). */
static int copy_to_new_mm(struct mm_struct *mm, unsigned long uaddr,
			  const void *src, size_t len)
{
	const u8 *s = src;

	while (len) {
		size_t chunk = PAGE_SIZE - (uaddr & ~PAGE_MASK);
		u8 *dst = user_page_kaddr(mm, uaddr);

		if (!dst)
			return -EFAULT;
		if (chunk > len)
			chunk = len;
		memcpy(dst, s, chunk);
		s += chunk;
		uaddr += chunk;
		len -= chunk;
	}
	return 0;
}

static bool elf_header_ok(const struct elf64_ehdr *eh, size_t size)
{
	return size >= sizeof(*eh) && !memcmp(eh->e_ident, "\177ELF", 4) &&
	       eh->e_ident[4] == ELFCLASS64 && eh->e_ident[5] == ELFDATA2LSB &&
	       eh->e_type == ET_EXEC && eh->e_machine == EM_X86_64 &&
	       eh->e_phentsize == sizeof(struct elf64_phdr) &&
	       eh->e_phnum >= 1 && eh->e_phnum <= ELF_MAX_PHDRS &&
	       eh->e_phoff <= size &&
	       eh->e_phnum * sizeof(struct elf64_phdr) <= size - eh->e_phoff &&
	       eh->e_entry < USER_MMAP_TOP;
}

static int load_segment(struct mm_struct *mm, const struct elf64_phdr *ph,
			const u8 *image, size_t size)
{
	unsigned long start, end, flags = 0;
	int err;

	if ((ph->p_flags & PF_W) && (ph->p_flags & PF_X))	/* [2] */
		return -ENOEXEC;
	/* The range first: p_vaddr below the top before top - p_vaddr is
	 * computed (a kernel-half p_vaddr made it wrap to a huge size), and
	 * p_vaddr + p_memsz <= top without overflow.  Linux counterpart:
	 * load_elf_binary's "TASK_SIZE - p_memsz < k" check (fs/binfmt_elf.c),
	 * which returns -EINVAL; rtk keeps its one -ENOEXEC for a segment it
	 * cannot load (elf_loader.h). */
	if (ph->p_vaddr < ELF_MIN_VADDR || ph->p_vaddr >= USER_MMAP_TOP ||
	    ph->p_memsz == 0 || ph->p_memsz > USER_MMAP_TOP - ph->p_vaddr)
		return -ENOEXEC;
	if (ph->p_filesz > ph->p_memsz || ph->p_offset > size ||
	    ph->p_filesz > size - ph->p_offset)
		return -ENOEXEC;
	start = ALIGN_DOWN(ph->p_vaddr, PAGE_SIZE);
	end = ALIGN_UP(ph->p_vaddr + ph->p_memsz, PAGE_SIZE);
	if (ph->p_flags & PF_W)
		flags |= MAP_WRITE;
	if (ph->p_flags & PF_X)
		flags |= MAP_EXEC;
	err = user_map_anon(mm, start, (end - start) / PAGE_SIZE, flags);
	if (err)
		return err == -EEXIST ? -ENOEXEC : err;
	return copy_to_new_mm(mm, ph->p_vaddr, image + ph->p_offset,	/* [3] */
			      ph->p_filesz);
}

int elf_load(struct mm_struct *mm, const void *image, size_t size,
	     unsigned long *entry)
{
	const struct elf64_ehdr *eh = image;
	const struct elf64_phdr *ph;
	int nr_load = 0;

	if (!elf_header_ok(eh, size))					/* [1] */
		return -ENOEXEC;
	ph = (const void *)((const u8 *)image + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		int err;

		if (ph[i].p_type == PT_INTERP)
			return -ENOEXEC;
		if (ph[i].p_type != PT_LOAD)
			continue;
		err = load_segment(mm, &ph[i], image, size);
		if (err)
			return err;	/* mm's pages go with the mm */
		nr_load++;
		/* the heap starts at the page-aligned end of the program */
		mm->start_brk = max(mm->start_brk,
				    ALIGN_UP(ph[i].p_vaddr + ph[i].p_memsz,
					     PAGE_SIZE));
	}
	if (!nr_load)
		return -ENOEXEC;
	mm->brk = mm->start_brk;
	*entry = eh->e_entry;
	return 0;
}

/*
 * elf_setup_stack - see elf_loader.h.  Layout, from USER_STACK_TOP down:
 * the argument strings, then (16-byte aligned) argc, argv[0..argc-1],
 * NULL, envp NULL, AT_PAGESZ 4096, AT_NULL 0 -- the address of argc is
 * the new RSP, as the psABI's figure 3.9 shows.
 */
int elf_setup_stack(struct mm_struct *mm, int argc, char *const argv[],
		    unsigned long *sp)
{
	unsigned long strings = USER_STACK_TOP, vec, nwords;
	unsigned long argv_uaddr[32];
	u64 words[32 + 8];
	size_t n = 0;
	int err;

	if (argc < 0 || argc > (int)ARRAY_SIZE(argv_uaddr))
		return -E2BIG;
	err = user_map_anon(mm, USER_STACK_TOP - USER_STACK_PAGES * PAGE_SIZE,
			    USER_STACK_PAGES, MAP_WRITE);
	if (err)
		return err;
	for (int i = argc - 1; i >= 0; i--) {
		size_t len = strlen(argv[i]) + 1;

		if (len > PAGE_SIZE)
			return -E2BIG;
		strings -= len;
		argv_uaddr[i] = strings;
		err = copy_to_new_mm(mm, strings, argv[i], len);
		if (err)
			return err;
	}
	words[n++] = (u64)argc;
	for (int i = 0; i < argc; i++)
		words[n++] = argv_uaddr[i];
	words[n++] = 0;			/* argv NULL */
	words[n++] = 0;			/* envp NULL */
	words[n++] = AT_PAGESZ;
	words[n++] = PAGE_SIZE;
	words[n++] = AT_NULL;
	words[n++] = 0;
	nwords = n;
	vec = ALIGN_DOWN(strings - nwords * 8, 16);
	err = copy_to_new_mm(mm, vec, words, nwords * 8);
	if (err)
		return err;
	*sp = vec;
	return 0;
}
