/*
 * user/pie/pie.h - what the position-independent test programs share:
 * reading the initial stack (argc, argv, envp, auxv) and reporting a
 * failed check.  Everything here is static inline and PC-relative: the
 * programs link no library (user/lib is built without -fpie), so they
 * need no relocation processing before they run.
 */
#ifndef USER_PIE_PIE_H
#define USER_PIE_PIE_H

#include "user/lib/sys.h"
#include "kernel/user/elf.h"	/* AT_*, PT_*, struct elf64_ehdr/phdr */

/* The ELF header the linker maps at the image's start, and _start:
 * hidden, so the compiler reaches them PC-relative (their run-time
 * addresses, whatever the load bias). */
extern const char __ehdr_start[] __attribute__((visibility("hidden")));
extern const char _start[] __attribute__((visibility("hidden")));

/* __libc_start - each program's main: user/lib/crt0.S's _start calls it
 * with the initial stack pointer as the kernel left it. */
__noreturn void __libc_start(unsigned long *sp);

/* The initial stack, parsed. */
struct pie_stack {
	unsigned long *sp;
	long argc;
	char **argv;
	char **envp;
	unsigned long *auxv;	/* pairs, ending at AT_NULL */
};

static inline void pie_parse_stack(unsigned long *sp, struct pie_stack *st)
{
	char **e;

	st->sp = sp;
	st->argc = (long)sp[0];
	st->argv = (char **)&sp[1];
	st->envp = st->argv + st->argc + 1;
	for (e = st->envp; *e; e++)
		;
	st->auxv = (unsigned long *)(e + 1);
}

/* pie_getauxval - the value of auxv entry type; *found says whether it
 * is there at all. */
static inline unsigned long pie_getauxval(const struct pie_stack *st,
					  unsigned long type, int *found)
{
	for (unsigned long *a = st->auxv; a[0] != AT_NULL; a += 2)
		if (a[0] == type) {
			*found = 1;
			return a[1];
		}
	*found = 0;
	return 0;
}

static inline unsigned long pie_strlen(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static inline int pie_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static inline void pie_puts(const char *s)
{
	write(1, s, pie_strlen(s));
}

/* pie_check - count and report one failed check (the exit code is the
 * number of failures). */
#define pie_check(failures, cond, what)					\
	do {								\
		if (!(cond)) {						\
			pie_puts("FAIL: " what "\n");			\
			(failures)++;					\
		}							\
	} while (0)

#endif /* USER_PIE_PIE_H */
