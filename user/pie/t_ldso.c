/*
 * user/pie/t_ldso.c - a test program interpreter: what the kernel
 * starts, instead of the program, for a program whose PT_INTERP names it
 * (/lib64/ld-rtk-test.so, a symlink to /t_ldso: issue 29 item 5).  A
 * static PIE, as glibc's ld.so.
 *
 * It checks what the loader (kernel/user/elf_loader.c) promises an
 * interpreter, then does what ld.so does last: jumps to AT_ENTRY with
 * the initial stack untouched (and RDX 0: no finaliser).  Checks:
 *   - RSP 16-byte aligned at its _start;
 *   - AT_BASE is its own load base (its ELF header), page-aligned, and
 *     above the program (rtk places it below 0x7ffff7fff000);
 *   - AT_PHDR is the program's phdr table in the page of the program's
 *     ELF header (the first page of an ET_DYN at 0x555555554000), and
 *     AT_PHNUM its e_phnum;
 *   - AT_ENTRY is the program's entry: its base + e_entry.
 * On a failure it exits with the number of failed checks (+100, to tell
 * them from the program's), else the program runs (user/pie/t_pie.c).
 */
#include "user/pie/pie.h"

#define PIE_BASE 0x555555554000UL
#define INTERP_TOP 0x7ffff7fff000UL	/* kernel/user/elf_loader.h */

void __libc_start(unsigned long *sp)
{
	const struct elf64_ehdr *prog = (const void *)PIE_BASE;
	unsigned long base, phdr, entry = 0, phnum;
	struct pie_stack st;
	int fails = 0, found;

	pie_check(fails, ((unsigned long)sp & 15) == 0, "ldso: rsp aligned");
	pie_parse_stack(sp, &st);
	base = pie_getauxval(&st, AT_BASE, &found);
	pie_check(fails, found && base == (unsigned long)__ehdr_start,
		  "ldso: AT_BASE is my load base");
	pie_check(fails, (base & 4095) == 0 && base > PIE_BASE &&
		  base < INTERP_TOP, "ldso: AT_BASE page-aligned, below the top");
	phdr = pie_getauxval(&st, AT_PHDR, &found);
	pie_check(fails, found && (phdr & ~4095UL) == PIE_BASE,
		  "ldso: AT_PHDR in the program's first page");
	if (!fails) {
		pie_check(fails, prog->e_ident[0] == 0x7f && prog->e_type == 3,
			  "ldso: the program's ELF header at its base");
		pie_check(fails, phdr == PIE_BASE + prog->e_phoff,
			  "ldso: AT_PHDR = base + e_phoff");
		phnum = pie_getauxval(&st, AT_PHNUM, &found);
		pie_check(fails, found && phnum == prog->e_phnum,
			  "ldso: AT_PHNUM the program's e_phnum");
		entry = pie_getauxval(&st, AT_ENTRY, &found);
		pie_check(fails, found && entry == PIE_BASE + prog->e_entry,
			  "ldso: AT_ENTRY the program's entry");
		pie_check(fails, entry != (unsigned long)_start,
			  "ldso: AT_ENTRY is not mine");
	}
	if (fails)
		sys_exit(100 + fails);
	pie_puts("t_ldso: AT_BASE, AT_PHDR, AT_ENTRY as an interpreter's\n");
	__asm__ volatile("movq %%rax, %%rsp\n\t"
			 "xorl %%edx, %%edx\n\t"
			 "jmp *%%rcx"
			 : : "a"(sp), "c"(entry) : "rdx", "memory");
	__builtin_unreachable();
}
