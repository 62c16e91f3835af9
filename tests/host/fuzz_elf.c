/*
 * tests/host/fuzz_elf.c - libFuzzer target for the ELF header checks the
 * loader trusts (kernel/user/elf_check.c), built by `make fuzz`.
 *
 * Input: a file's bytes, in a buffer of exactly their size (ASan catches
 * a read past the end).  The checks must either refuse the image with
 * -ENOEXEC / -EIO or accept one whose every PT_LOAD, placed at its bias,
 * lies page by page inside [ELF_MIN_VADDR, USER_MMAP_TOP) with its file
 * bytes inside the file and no more file bytes than memory: what the
 * loader then maps without further checks.
 * Seeds: tests/host/fuzz_elf_corpus/ (rtk's static program, a static
 * PIE, a PIE with PT_INTERP).
 */
#include "tests/host/elf_parse.h"
#include "kernel/mm/slab.h"
#include "lib/bug.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);
int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct elf64_phdr ph[ELF_MIN_ALIGN / sizeof(struct elf64_phdr)];
	struct elf_layout lay;
	u8 *buf = kmalloc(size ? size : 1, GFP_KERNEL);
	u64 bias;
	int err;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	err = elf_parse(buf, size, ph, &lay, &bias);
	BUG_ON(err && err != -ENOEXEC && err != -EIO);
	if (!err) {
		const struct elf64_ehdr *eh = (const void *)buf;

		for (int i = 0; i < eh->e_phnum; i++) {
			const struct elf64_phdr *p = &ph[i];
			u64 start = p->p_vaddr + bias;

			if (p->p_type != PT_LOAD || !p->p_memsz)
				continue;
			BUG_ON(p->p_filesz > p->p_memsz);
			BUG_ON(p->p_offset + p->p_filesz > size);
			BUG_ON(start < ELF_MIN_VADDR);
			BUG_ON(start + p->p_memsz > HOST_MMAP_TOP);
			BUG_ON(start + p->p_memsz < start);
		}
	}
	kfree(buf);
	return 0;
}
