/*
 * tests/host/check.c - runner for the host unit tests (see check.h).
 * Output is a KTAP version 1 suite at nesting level 1, so the harness
 * can splice it under the top-level plan of `make test`.
 */
#include <string.h>
#include "tests/host/check.h"

int check_failed;

int check_streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

int check_run(const char *suite, const struct check_case *cases)
{
	int n = 0, i, bad = 0;

	/* line-buffered: a sanitizer abort or LSan's exit keeps every line */
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (cases[n].name)
		n++;
	printf("KTAP version 1\n");
	printf("# Subtest: host-%s\n", suite);
	printf("    1..%d\n", n);
	for (i = 0; i < n; i++) {
		check_failed = 0;
		cases[i].fn();
		fflush(stdout);
		printf("    %sok %d %s\n", check_failed ? "not " : "", i + 1,
		       cases[i].name);
		if (check_failed)
			bad++;
	}
	printf("%sok 1 host-%s\n", bad ? "not " : "", suite);
	return bad ? 1 : 0;
}
