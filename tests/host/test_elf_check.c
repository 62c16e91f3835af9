/*
 * tests/host/test_elf_check.c - the ELF header checks of
 * kernel/user/elf_check.c on crafted images: a static ET_EXEC stays at
 * its addresses, a PIE goes to 0x555555554000 and an interpreter ends at
 * its top, AT_PHDR's address comes from PT_PHDR or the segment holding
 * the table, and each malformed header is refused with -ENOEXEC (bad
 * magic, wrong machine, huge e_phnum, phdrs out of the file, p_filesz >
 * p_memsz, a segment in the kernel half or wrapping, offset and vaddr
 * not congruent, W and X at once, two PT_INTERPs, a 1-byte PT_INTERP).
 */
#include "tests/host/check.h"
#include "tests/host/elf_parse.h"
#include "lib/compiler.h"

struct img {
	struct elf64_ehdr eh;
	struct elf64_phdr ph[3];
	u8 pad[4096];
};

static struct img img;
static struct elf64_phdr phbuf[ELF_MIN_ALIGN / sizeof(struct elf64_phdr)];

/* one R+X PT_LOAD of the whole file at vaddr; ET_EXEC or ET_DYN */
static void make(u16 type, u64 vaddr)
{
	memset(&img, 0, sizeof(img));
	memcpy(img.eh.e_ident, "\177ELF\2\1\1", 7);
	img.eh.e_type = type;
	img.eh.e_machine = EM_X86_64;
	img.eh.e_entry = vaddr + 0x100;
	img.eh.e_phoff = offsetof(struct img, ph);
	img.eh.e_phentsize = sizeof(struct elf64_phdr);
	img.eh.e_phnum = 1;
	img.ph[0].p_type = PT_LOAD;
	img.ph[0].p_flags = PF_R | PF_X;
	img.ph[0].p_vaddr = vaddr;
	img.ph[0].p_filesz = img.ph[0].p_memsz = sizeof(img);
	img.ph[0].p_align = 0x1000;
}

static int parse(struct elf_layout *lay, u64 *bias)
{
	return elf_parse((const u8 *)&img, sizeof(img), phbuf, lay, bias);
}

static void test_static_exec_stays_and_pie_goes_to_linux_base(void)
{
	struct elf_layout lay;
	u64 bias;

	make(ET_EXEC, 0x400000);
	CHECK_EQ(parse(&lay, &bias), 0);
	CHECK_EQ(bias, 0);
	CHECK_EQ(lay.lo, 0x400000);
	CHECK_EQ(lay.hi, 0x400000 + ALIGN_UP(sizeof(img), 4096));
	CHECK_EQ(lay.phdr_vaddr, 0x400000 + offsetof(struct img, ph));
	CHECK_EQ(lay.interp, -1);

	make(ET_DYN, 0);
	CHECK_EQ(parse(&lay, &bias), 0);
	CHECK_EQ(bias, HOST_PIE_BASE);
	CHECK_EQ(lay.phdr_vaddr + bias, HOST_PIE_BASE + 64);
}

static void test_interpreter_placement_ends_at_its_top(void)
{
	const u64 top = 0x7ffff7fff000ULL;	/* elf_loader.h ELF_INTERP_TOP */
	struct elf_layout lay;
	u64 bias;

	make(ET_DYN, 0);
	CHECK_EQ(parse(&lay, &bias), 0);
	bias = elf_load_bias(&img.eh, &lay, top - (lay.hi - lay.lo));
	CHECK_EQ(lay.hi + bias, top);
	CHECK_EQ(bias & 4095, 0);
	CHECK_EQ(elf_check_span(&lay, bias, ELF_MIN_VADDR, top), 0);
	CHECK_EQ(elf_check_span(&lay, bias, ELF_MIN_VADDR, top - 4096), -ENOEXEC);
}

static void test_pt_phdr_and_pt_interp_are_found(void)
{
	struct elf_layout lay;
	u64 bias;

	make(ET_DYN, 0);
	img.eh.e_phnum = 3;
	img.ph[1].p_type = PT_PHDR;
	img.ph[1].p_vaddr = 0x40;
	img.ph[2].p_type = PT_INTERP;
	img.ph[2].p_offset = 0x200;
	img.ph[2].p_filesz = 8;
	CHECK_EQ(parse(&lay, &bias), 0);
	CHECK_EQ(lay.phdr_vaddr, 0x40);
	CHECK_EQ(lay.interp, 2);
	img.ph[2].p_filesz = 1;			/* no room for a path */
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
	img.ph[2].p_filesz = 8;
	img.ph[1] = img.ph[2];			/* two PT_INTERPs */
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
}

static void test_malformed_headers_are_enoexec(void)
{
	struct elf_layout lay;
	u64 bias;

	make(ET_EXEC, 0x400000);
	img.eh.e_ident[3] = 'G';
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
	make(ET_EXEC, 0x400000);
	img.eh.e_machine = 3;			/* EM_386 */
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
	make(ET_EXEC, 0x400000);
	img.eh.e_phnum = 0xffff;
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
	make(ET_EXEC, 0x400000);
	img.eh.e_phoff = sizeof(img) - 16;
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
	make(ET_EXEC, 0x400000);
	img.ph[0].p_memsz = 16;
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
	make(ET_EXEC, 0x400000);
	img.ph[0].p_offset = 8;
	img.ph[0].p_filesz = 64;
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);	/* 8 vs 0 in the page */
	make(ET_EXEC, 0x400000);
	img.ph[0].p_flags = PF_R | PF_W | PF_X;
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
	make(ET_EXEC, 0xffff800000000000ULL);
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
	make(ET_EXEC, 0xfffffffffffff000ULL);
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
	make(ET_EXEC, 0x1000);			/* below mmap_min_addr */
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);
	make(ET_EXEC, 0x400000);
	img.ph[0].p_filesz = img.ph[0].p_memsz = sizeof(img) + 1;
	CHECK_EQ(parse(&lay, &bias), -ENOEXEC);	/* past the end of the file */
}

int main(void)
{
	return check_run("elf_check", (struct check_case[]){
		CHECK_CASE(test_static_exec_stays_and_pie_goes_to_linux_base),
		CHECK_CASE(test_interpreter_placement_ends_at_its_top),
		CHECK_CASE(test_pt_phdr_and_pt_interp_are_found),
		CHECK_CASE(test_malformed_headers_are_enoexec),
		{ 0 } });
}
