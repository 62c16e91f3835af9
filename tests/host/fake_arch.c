/*
 * tests/host/fake_arch.c - the few kernel symbols lib/ calls, for the host.
 * lib/bug.h reports through __bug() and __warn(); in the kernel these are
 * kernel/panic.c's.  Here BUG aborts (the harness sees a crash) and WARN
 * prints and counts, so a test can check that a warning was given.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int fake_warn_count; /* WARN()s seen since the test reset it */

void __bug(const char *file, int line, const char *expr)
{
	printf("    # BUG at %s:%d: %s\n", file, line, expr);
	fflush(stdout);
	abort();
}

void __warn(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fake_warn_count++;
	printf("    # WARNING at %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}
