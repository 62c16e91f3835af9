/*
 * tests/host/elf_parse.h - what tests/host/test_elf_check.c and
 * fuzz_elf.c share: an image in memory run through the checks of
 * kernel/user/elf_check.c the way the loader calls them
 * (kernel/user/elf_loader.c: header, phdr table read from the file at
 * e_phoff, the phdrs, the placement).
 */
#ifndef TESTS_HOST_ELF_PARSE_H
#define TESTS_HOST_ELF_PARSE_H

#include "kernel/user/elf.h"
#include "lib/errno.h"
#include "lib/string.h"

#define HOST_PIE_BASE	0x555555554000ULL	/* elf_loader.h ELF_ET_DYN_BASE */
#define HOST_MMAP_TOP	0x00007FFF00000000ULL	/* user_mm.h USER_MMAP_TOP */

/* elf_parse - 0 and *lay, *bias when the loader would map image, else
 * its -ENOEXEC / -EIO.  phbuf: room for a page of phdrs. */
static inline int elf_parse(const u8 *image, size_t size,
			    struct elf64_phdr *phbuf, struct elf_layout *lay,
			    u64 *bias)
{
	struct elf64_ehdr eh;
	size_t phsize;
	int err;

	if (size < sizeof(eh))
		return -EIO;
	memcpy(&eh, image, sizeof(eh));
	if (elf_check_ehdr(&eh) || elf_phdrs_size(&eh, &phsize))
		return -ENOEXEC;
	if (eh.e_phoff > size || phsize > size - eh.e_phoff)
		return -ENOEXEC;
	memcpy(phbuf, image + eh.e_phoff, phsize);
	err = elf_check_phdrs(&eh, phbuf, size, lay);
	if (err)
		return err;
	*bias = elf_load_bias(&eh, lay, HOST_PIE_BASE);
	return elf_check_span(lay, *bias, ELF_MIN_VADDR, HOST_MMAP_TOP);
}

#endif /* TESTS_HOST_ELF_PARSE_H */
