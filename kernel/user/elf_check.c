/*
 * kernel/user/elf_check.c - the checks of an ELF64 image's headers that
 * need no address space: what the loader (elf_loader.c) trusts before it
 * maps a byte.  Pure: it builds on the host for the unit test
 * (tests/host/test_elf_check.c) and the fuzzer (tests/host/fuzz_elf.c).
 *
 * elf_check_phdrs():
 *   [1] each PT_LOAD: p_filesz <= p_memsz; p_offset + p_filesz inside the
 *       file and p_vaddr + p_memsz without wrap; p_vaddr and p_offset the
 *       same modulo the page (the page holding both is one copy of the
 *       file's page); not W and X at once (rtk maps no such page);
 *   [2] the span [lo, hi) of the segments, page-aligned, and the largest
 *       power-of-two p_align (the bias of an ET_DYN keeps it);
 *   [3] where the phdr table is mapped: PT_PHDR's p_vaddr, else the
 *       PT_LOAD whose file bytes hold it (Linux's "load_addr + e_phoff"
 *       assumes the first one does);
 *   [4] PT_INTERP: one at most, its path inside the file, 2..PATH_MAX
 *       bytes (the NUL is checked when it is read).
 * Linux counterpart: fs/binfmt_elf.c elf_check_arch/load_elf_phdrs and
 * the segment checks of load_elf_binary.  Linux answers a segment out of
 * TASK_SIZE with -EINVAL and finds a file too short only when the page is
 * touched (SIGBUS); rtk refuses both up front with its one -ENOEXEC.
 */
#include "kernel/user/elf.h"
#include "lib/bug.h"
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/string.h"

int elf_check_ehdr(const struct elf64_ehdr *eh)
{
	BUG_ON(!eh);
	if (memcmp(eh->e_ident, "\177ELF", 4) ||
	    eh->e_ident[4] != ELFCLASS64 || eh->e_ident[5] != ELFDATA2LSB)
		return -ENOEXEC;
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return -ENOEXEC;
	if (eh->e_machine != EM_X86_64 ||
	    eh->e_phentsize != sizeof(struct elf64_phdr))
		return -ENOEXEC;
	return 0;
}

int elf_phdrs_size(const struct elf64_ehdr *eh, size_t *size)
{
	size_t n;

	BUG_ON(!eh || !size);
	n = (size_t)eh->e_phnum * sizeof(struct elf64_phdr);
	if (n == 0 || n > ELF_MIN_ALIGN)	/* load_elf_phdrs' limits */
		return -ENOEXEC;
	*size = n;
	return 0;
}

/* elf_check_load - step [1] for one PT_LOAD. */
static int elf_check_load(const struct elf64_phdr *p, u64 file_size)
{
	if (p->p_filesz > p->p_memsz)
		return -ENOEXEC;
	if (p->p_offset > file_size || p->p_filesz > file_size - p->p_offset)
		return -ENOEXEC;
	/* hi is rounded up to the page below: leave room for that too */
	if (p->p_memsz > ~0ULL - ELF_MIN_ALIGN ||
	    p->p_vaddr > ~0ULL - ELF_MIN_ALIGN - p->p_memsz)
		return -ENOEXEC;
	if ((p->p_vaddr ^ p->p_offset) & (ELF_MIN_ALIGN - 1))
		return -ENOEXEC;
	if ((p->p_flags & PF_W) && (p->p_flags & PF_X))
		return -ENOEXEC;
	return 0;
}

int elf_check_phdrs(const struct elf64_ehdr *eh, const struct elf64_phdr *ph,
		    u64 file_size, struct elf_layout *lay)
{
	u64 phdr_load = 0, phdr_pt = 0;
	bool have_pt_phdr = false;

	BUG_ON(!eh || !ph || !lay);
	memset(lay, 0, sizeof(*lay));
	lay->lo = ~0ULL;
	lay->align = ELF_MIN_ALIGN;
	lay->interp = -1;
	for (int i = 0; i < eh->e_phnum; i++) {
		const struct elf64_phdr *p = &ph[i];

		if (p->p_type == PT_INTERP) {				/* [4] */
			if (lay->interp >= 0 || p->p_filesz < 2 ||
			    p->p_filesz > ELF_INTERP_PATH_MAX ||
			    p->p_offset > file_size ||
			    p->p_filesz > file_size - p->p_offset)
				return -ENOEXEC;
			lay->interp = i;
			continue;
		}
		if (p->p_type == PT_PHDR) {
			have_pt_phdr = true;
			phdr_pt = p->p_vaddr;
			continue;
		}
		if (p->p_type != PT_LOAD || p->p_memsz == 0)
			continue;
		if (elf_check_load(p, file_size))			/* [1] */
			return -ENOEXEC;
		if (ALIGN_DOWN(p->p_vaddr, ELF_MIN_ALIGN) < lay->lo)	/* [2] */
			lay->lo = ALIGN_DOWN(p->p_vaddr, ELF_MIN_ALIGN);
		if (ALIGN_UP(p->p_vaddr + p->p_memsz, ELF_MIN_ALIGN) > lay->hi)
			lay->hi = ALIGN_UP(p->p_vaddr + p->p_memsz,
					   ELF_MIN_ALIGN);
		if (p->p_align > lay->align && p->p_align <= ELF_MAX_ALIGN &&
		    !(p->p_align & (p->p_align - 1)))
			lay->align = p->p_align;
		if (!phdr_load && eh->e_phoff >= p->p_offset &&		/* [3] */
		    eh->e_phoff - p->p_offset < p->p_filesz)
			phdr_load = p->p_vaddr + (eh->e_phoff - p->p_offset);
		lay->nr_load++;
	}
	if (!lay->nr_load)
		return -ENOEXEC;
	lay->phdr_vaddr = have_pt_phdr ? phdr_pt : phdr_load;
	return 0;
}

u64 elf_load_bias(const struct elf64_ehdr *eh, const struct elf_layout *lay,
		  u64 base)
{
	BUG_ON(!eh || !lay || !lay->nr_load);
	if (eh->e_type != ET_DYN)
		return 0;
	/* unsigned wrap is the intent: a negative bias moves lo down */
	return ALIGN_DOWN(base - lay->lo, lay->align);
}

int elf_check_span(const struct elf_layout *lay, u64 bias, u64 start, u64 end)
{
	u64 lo, hi;

	BUG_ON(!lay || !lay->nr_load);
	/* Modulo 2^64 (an ET_DYN's bias may be "negative"): the placed span
	 * keeps its length, so lo <= hi means it did not wrap in between. */
	lo = lay->lo + bias;
	hi = lay->hi + bias;
	if (hi < lo || lo < start || hi > end)
		return -ENOEXEC;
	return 0;
}
