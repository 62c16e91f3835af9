/*
 * user/pie/t_pie.c - a position-independent program checks the initial
 * stack rtk's loader built for it (issue 29 item 5; kernel/user/
 * elf_tables.c), against what Linux's create_elf_tables gives.
 *
 * Built twice (user/user.mk): t_pie, a static PIE (ET_DYN, no
 * interpreter), and t_pie_interp, the same code as a PIE whose
 * PT_INTERP names /lib64/ld-rtk-test.so, a symlink to t_ldso (the test
 * interpreter, user/pie/t_ldso.c), which checks its own side and jumps
 * here.  Run as "t_pie alpha beta" with RTK_EXEC=yes in the environment
 * (tests/kernel/test_user_exec.c).  It checks:
 *   - RSP 16-byte aligned at _start; argc 3, argv "alpha" "beta", NULL;
 *   - envp holds HOME=/, TERM=linux and RTK_EXEC=yes;
 *   - it runs at Linux's no-ASLR PIE base 0x555555554000;
 *   - AT_PHDR is its own phdr table, AT_PHENT 56, AT_PHNUM its e_phnum,
 *     AT_ENTRY its _start, AT_PAGESZ 4096, AT_CLKTCK 100, AT_FLAGS 0,
 *     the ids 0, AT_SECURE 0, AT_HWCAP with FPU (bit 0) set;
 *   - AT_RANDOM points at 16 bytes on the stack, not all zero;
 *   - AT_PLATFORM "x86_64", AT_EXECFN the path it was started by;
 *   - AT_BASE 0 without PT_INTERP, else the page-aligned ELF header of
 *     the interpreter.
 * The exit code is the number of failed checks; each prints a FAIL line.
 */
#include "user/pie/pie.h"

#define PIE_BASE 0x555555554000UL	/* Linux's ELF_ET_DYN_BASE, no ASLR */

/* has_env - is the string s one of envp's? */
static int has_env(char **envp, const char *s)
{
	for (; *envp; envp++)
		if (pie_streq(*envp, s))
			return 1;
	return 0;
}

/* has_interp - does this image name an interpreter? */
static int has_interp(const struct elf64_ehdr *eh)
{
	const struct elf64_phdr *ph = (const void *)(__ehdr_start + eh->e_phoff);

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_INTERP)
			return 1;
	return 0;
}

void __libc_start(unsigned long *sp)
{
	const struct elf64_ehdr *eh = (const void *)__ehdr_start;
	struct pie_stack st;
	unsigned long v, base;
	int fails = 0, found;
	const unsigned char *rnd;

	pie_check(fails, ((unsigned long)sp & 15) == 0, "rsp 16-byte aligned");
	pie_parse_stack(sp, &st);
	pie_check(fails, st.argc == 3, "argc 3");
	if (st.argc == 3) {
		pie_check(fails, pie_streq(st.argv[1], "alpha"), "argv[1]");
		pie_check(fails, pie_streq(st.argv[2], "beta"), "argv[2]");
		pie_check(fails, st.argv[3] == 0, "argv NULL-terminated");
	}
	pie_check(fails, has_env(st.envp, "HOME=/"), "envp HOME=/");
	pie_check(fails, has_env(st.envp, "TERM=linux"), "envp TERM=linux");
	pie_check(fails, has_env(st.envp, "RTK_EXEC=yes"), "envp RTK_EXEC=yes");
	pie_check(fails, (unsigned long)__ehdr_start == PIE_BASE,
		  "loaded at 0x555555554000");

	v = pie_getauxval(&st, AT_PHDR, &found);
	pie_check(fails, found && v == (unsigned long)__ehdr_start + eh->e_phoff,
		  "AT_PHDR is my phdr table");
	v = pie_getauxval(&st, AT_PHENT, &found);
	pie_check(fails, found && v == 56, "AT_PHENT 56");
	v = pie_getauxval(&st, AT_PHNUM, &found);
	pie_check(fails, found && v == eh->e_phnum, "AT_PHNUM my e_phnum");
	v = pie_getauxval(&st, AT_ENTRY, &found);
	pie_check(fails, found && v == (unsigned long)_start, "AT_ENTRY my _start");
	pie_check(fails, found && v == PIE_BASE + eh->e_entry,
		  "AT_ENTRY = base + e_entry");
	v = pie_getauxval(&st, AT_PAGESZ, &found);
	pie_check(fails, found && v == 4096, "AT_PAGESZ 4096");
	v = pie_getauxval(&st, AT_CLKTCK, &found);
	pie_check(fails, found && v == 100, "AT_CLKTCK 100");
	v = pie_getauxval(&st, AT_FLAGS, &found);
	pie_check(fails, found && v == 0, "AT_FLAGS 0");
	pie_check(fails, pie_getauxval(&st, AT_UID, &found) == 0 && found &&
		  pie_getauxval(&st, AT_EUID, &found) == 0 && found &&
		  pie_getauxval(&st, AT_GID, &found) == 0 && found &&
		  pie_getauxval(&st, AT_EGID, &found) == 0 && found,
		  "AT_UID AT_EUID AT_GID AT_EGID 0");
	v = pie_getauxval(&st, AT_SECURE, &found);
	pie_check(fails, found && v == 0, "AT_SECURE 0");
	v = pie_getauxval(&st, AT_HWCAP, &found);
	pie_check(fails, found && (v & 1), "AT_HWCAP has FPU");

	v = pie_getauxval(&st, AT_RANDOM, &found);
	rnd = (const unsigned char *)v;
	pie_check(fails, found && v > (unsigned long)sp && (v & 7) == 0,
		  "AT_RANDOM above argc on the stack");
	if (found && v) {
		unsigned char any = 0;

		for (int i = 0; i < 16; i++)
			any |= rnd[i];
		pie_check(fails, any, "AT_RANDOM's 16 bytes not all zero");
	}
	v = pie_getauxval(&st, AT_PLATFORM, &found);
	pie_check(fails, found && pie_streq((const char *)v, "x86_64"),
		  "AT_PLATFORM x86_64");
	v = pie_getauxval(&st, AT_EXECFN, &found);
	pie_check(fails, found && st.argc >= 1 &&
		  pie_streq((const char *)v, st.argv[0]), "AT_EXECFN argv[0]");

	v = pie_getauxval(&st, AT_BASE, &found);
	base = v;
	if (has_interp(eh)) {
		const struct elf64_ehdr *ih = (const void *)base;

		pie_check(fails, found && base && (base & 4095) == 0,
			  "AT_BASE page-aligned with PT_INTERP");
		pie_check(fails, found && base && ih->e_ident[0] == 0x7f &&
			  ih->e_ident[1] == 'E' && ih->e_type == 3,
			  "AT_BASE holds the interpreter's ELF header");
	} else {
		pie_check(fails, found && base == 0, "AT_BASE 0 without PT_INTERP");
	}
	if (!fails)
		pie_puts("t_pie: auxv, argv and envp as Linux's\n");
	sys_exit(fails);
}
