/*
 * kernel/ktest.h - rtk's in-kernel self-test framework (KTAP version 1).
 *
 * A suite is one file tests/kernel/test_<suite>.c:
 *
 *	static void test_list_add_keeps_order(struct ktest *t)
 *	{
 *		KTEST_EXPECT_EQ(t, list_count(&head), 3);
 *	}
 *	KTEST_SUITE(lib, KTEST_CASE(test_list_add_keeps_order), ...);
 *
 * Suites register through the .ktest_suites linker section: no central
 * list.  A failed EXPECT prints a "# " diagnostic (what was expected, what
 * was seen, file:line) and the test goes on; a failed ASSERT or a
 * ktest_skip() ends only the current test (longjmp back to the runner).
 * ASSERT and skip must be called from the test's own thread; threads a
 * test starts use EXPECT.  Linux counterpart: KUnit (include/kunit/test.h).
 */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "arch/x86_64/arch.h"

struct ktest {
	const char *name;		/* the test function's name */
	int failures;			/* failed expectations so far */
	bool skipped;
	char skip_reason[96];
	struct arch_jmp_buf abort_jmp;	/* back to the runner */
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases;
	int nr_cases;
	/* init: optional; a negative return skips the whole suite, with
	 * the reason init puts in *why (the runner prints it) */
	int (*init)(const char **why);
};

struct ktest_totals {
	int passed, failed, skipped;
};

#define KTEST_CASE(fn) { #fn, fn }

#define KTEST_SUITE(sname, ...) KTEST_SUITE_INIT(sname, NULL, __VA_ARGS__)

#define KTEST_SUITE_INIT(sname, initfn, ...)                                 \
	static const struct ktest_case __ktest_cases_##sname[] = {            \
		__VA_ARGS__                                                   \
	};                                                                    \
	static const struct ktest_suite __ktest_suite_##sname __used          \
		__attribute__((section(".ktest_suites"), aligned(8))) = {      \
			.name = #sname,                                       \
			.cases = __ktest_cases_##sname,                       \
			.nr_cases = ARRAY_SIZE(__ktest_cases_##sname),        \
			.init = initfn,                                       \
		}

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt,
		...) __printf(4, 5);
void ktest_abort(struct ktest *t) __noreturn;
void ktest_skip(struct ktest *t, const char *reason) __noreturn;
/* ktest_current - the test running on the runner's thread, or NULL. */
struct ktest *ktest_current(void);

#define KTEST_EXPECT(t, cond, fmt, ...)                                      \
	do {                                                                 \
		if (!(cond))                                                 \
			ktest_fail(t, __FILE__, __LINE__,                    \
				   "expected %s: " fmt, #cond, ##__VA_ARGS__); \
	} while (0)

#define KTEST_ASSERT(t, cond, fmt, ...)                                      \
	do {                                                                 \
		if (!(cond)) {                                               \
			ktest_fail(t, __FILE__, __LINE__,                    \
				   "expected %s: " fmt, #cond, ##__VA_ARGS__); \
			ktest_abort(t);                                      \
		}                                                            \
	} while (0)

/* KTEST_EXPECT_EQ(t, seen, expected): both compared as long long. */
#define KTEST_EXPECT_EQ(t, seen, expected)                                   \
	do {                                                                 \
		long long __s = (long long)(seen);                           \
		long long __e = (long long)(expected);                       \
		if (__s != __e)                                              \
			ktest_fail(t, __FILE__, __LINE__,                    \
				   "expected %s == %lld, saw %lld", #seen,     \
				   __e, __s);                                \
	} while (0)

#define KTEST_ASSERT_EQ(t, seen, expected)                                   \
	do {                                                                 \
		long long __s = (long long)(seen);                           \
		long long __e = (long long)(expected);                       \
		if (__s != __e) {                                            \
			ktest_fail(t, __FILE__, __LINE__,                    \
				   "expected %s == %lld, saw %lld", #seen,     \
				   __e, __s);                                \
			ktest_abort(t);                                      \
		}                                                            \
	} while (0)

/* ktest_run - run the suites named in the comma-separated list (all when
 * list is NULL or empty), print KTAP, add the counts to *totals; a name
 * no suite has is reported first, with the list of suites, and counts
 * as one failed test.  Returns the number of suites run. */
int ktest_run(const char *list, struct ktest_totals *totals);
/* ktest_suite_exists - is there a suite of that name? */
bool ktest_suite_exists(const char *name);
/* ktest_list_suites - print the suite names (for `test -l`). */
void ktest_list_suites(void);

#endif /* KERNEL_KTEST_H */
