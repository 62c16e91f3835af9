/*
 * tests/host/check.h - the host unit tests' whole framework.
 *
 * Each tests/host/test_<suite>.c is one program that prints one KTAP
 * version 1 suite on stdout and exits 0 when every case passed.  The
 * harness (tools/harness.py) folds these suites into the summary of
 * `make test`.  Built with -fsanitize=address,undefined: a sanitizer
 * report aborts the program, which the harness counts as a failure.
 *
 *   static void test_strlen_counts_bytes(void) { CHECK_EQ(strlen("ab"), 2); }
 *   int main(void) { return check_run("string", (struct check_case[]){
 *           CHECK_CASE(test_strlen_counts_bytes), {0} }); }
 */
#ifndef TESTS_HOST_CHECK_H
#define TESTS_HOST_CHECK_H

#include <stdio.h>

struct check_case {
	const char *name;
	void (*fn)(void);
};

#define CHECK_CASE(fn) { #fn, fn }

extern int check_failed; /* failures in the running case */

/* CHECK(cond, fmt, ...): on failure print a KTAP diagnostic, case goes on. */
#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			printf("    # %s:%d: CHECK(%s) failed: ", __FILE__, \
			       __LINE__, #cond);                           \
			printf(__VA_ARGS__);                               \
			printf("\n");                                      \
			check_failed++;                                    \
		}                                                          \
	} while (0)

/* CHECK_EQ(seen, expected) on integers, printing both on failure. */
#define CHECK_EQ(seen, expected)                                           \
	do {                                                               \
		long long s_ = (long long)(seen), e_ = (long long)(expected); \
		CHECK(s_ == e_, "expected %lld, saw %lld", e_, s_);        \
	} while (0)

/* CHECK_STR(seen, expected) on NUL-terminated strings. */
#define CHECK_STR(seen, expected)                                          \
	do {                                                               \
		const char *s_ = (seen), *e_ = (expected);                 \
		CHECK(check_streq(s_, e_), "expected \"%s\", saw \"%s\"",  \
		      e_, s_);                                             \
	} while (0)

int check_streq(const char *a, const char *b);
int check_run(const char *suite, const struct check_case *cases);

#endif /* TESTS_HOST_CHECK_H */
