/*
 * kernel/ktest.c - run self-test suites and report in KTAP version 1.
 *
 * Output (Documentation/dev-tools/ktap.rst in Linux):
 *	KTAP version 1
 *	1..<suites>
 *	    KTAP version 1
 *	    # Subtest: <suite>
 *	    1..<cases>
 *	    # <test>: <file>:<line>: expected ..., saw ...
 *	    not ok 1 <test>
 *	    ok 2 <test> # SKIP <reason>
 *	ok 1 <suite>
 * Diagnostics precede the result line they belong to.  Each test runs
 * under arch_setjmp() so that ASSERT, skip, or an expected exception
 * ends that test only.
 */
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"
#include <stdarg.h>

extern const struct ktest_suite __ktest_suites_start[];
extern const struct ktest_suite __ktest_suites_end[];

static struct ktest *current_test;

struct ktest *ktest_current(void)
{
	return current_test;
}

/*
 * ktest_fail - record a failed expectation and print its diagnostic.
 * Context: any task (test threads included); does not sleep.
 */
void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt,
		...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	__atomic_fetch_add(&t->failures, 1, __ATOMIC_RELAXED);
	console_printf("    # %s: %s:%d: %s\n", t->name, file, line, buf);
}

__noreturn void ktest_abort(struct ktest *t)
{
	arch_longjmp(&t->abort_jmp, 1);
}

__noreturn void ktest_skip(struct ktest *t, const char *reason)
{
	t->skipped = true;
	strscpy(t->skip_reason, reason, sizeof(t->skip_reason));
	arch_longjmp(&t->abort_jmp, 1);
}

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	if (!list || !*list)
		return true;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

bool ktest_suite_exists(const char *name)
{
	const struct ktest_suite *s;

	for (s = __ktest_suites_start; s < __ktest_suites_end; s++)
		if (!strcmp(s->name, name))
			return true;
	return false;
}

void ktest_list_suites(void)
{
	const struct ktest_suite *s;

	for (s = __ktest_suites_start; s < __ktest_suites_end; s++)
		console_printf("%s (%d tests)\n", s->name, s->nr_cases);
}

/* restore_runner - what a case may have changed about the runner and not
 * undone (an ASSERT leaves the case early): back to SCHED_OTHER and to
 * every CPU, by way of CPU 0, where the boot flow runs the suites, and
 * off a borrowed address space (the futex suites' test mm).
 * Context: the runner, between cases. */
static void restore_runner(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	BUG_ON(current->user);	/* the runner is a kernel thread */
	if (current->mm)
		kthread_unuse_mm(current->mm);

	if (current->policy != SCHED_OTHER)
		sched_setscheduler(current, SCHED_OTHER, &sp);
	if (current->cpus_allowed.bits != ~0ULL) {
		set_cpus_allowed(current, (cpumask_t){ .bits = 1ULL });
		set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });
	}
}

/* run_case - run one test; returns 0 pass, 1 fail, 2 skip. */
static int run_case(const struct ktest_case *c, int idx)
{
	static struct ktest t;	/* large jmp buffer: keep it off the stack */

	memset(&t, 0, sizeof(t));
	t.name = c->name;
	current_test = &t;
	if (arch_setjmp(&t.abort_jmp) == 0)
		c->run(&t);
	current_test = NULL;
	restore_runner();
	if (t.skipped && !t.failures) {
		console_printf("    ok %d %s # SKIP %s\n", idx, c->name,
			       t.skip_reason);
		return 2;
	}
	console_printf("    %sok %d %s\n", t.failures ? "not " : "", idx, c->name);
	return t.failures ? 1 : 0;
}

/*
 * run_suite - run every case of s as KTAP subtest number idx.
 * Returns true when the suite passed (skips do not fail it).
 */
static bool run_suite(const struct ktest_suite *s, int idx,
		      struct ktest_totals *tot)
{
	int failed = 0;
	const char *why = "suite init failed";

	console_printf("    KTAP version 1\n    # Subtest: %s\n", s->name);
	if (s->init && s->init(&why) < 0) {
		console_printf("    1..0 # SKIP %s\n", why);
		console_printf("ok %d %s # SKIP\n", idx, s->name);
		return true;
	}
	console_printf("    1..%d\n", s->nr_cases);
	for (int i = 0; i < s->nr_cases; i++) {
		switch (run_case(&s->cases[i], i + 1)) {
		case 0:
			tot->passed++;
			break;
		case 1:
			tot->failed++;
			failed++;
			break;
		default:
			tot->skipped++;
			break;
		}
	}
	console_printf("%sok %d %s\n", failed ? "not " : "", idx, s->name);
	return !failed;
}

/*
 * ktest_run - see ktest.h.
 * Context: task (the boot thread or the shell); tests may sleep.
 */
/*
 * report_unknown - print each name of list that no suite has (a typo in
 * SELFTEST= or selftest=), then the suites there are, outside the KTAP
 * output where a reader sees them; returns how many names were unknown.
 */
static int report_unknown(const char *list)
{
	const char *p = list;
	char name[64];
	int bad = 0;

	while (list && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len && len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = '\0';
			if (!ktest_suite_exists(name)) {
				console_printf("ktest: no suite '%s'\n", name);
				bad++;
			}
		}
		if (!end)
			break;
		p = end + 1;
	}
	if (bad) {
		console_printf("ktest: the suites are:\n");
		ktest_list_suites();
	}
	return bad;
}

int ktest_run(const char *list, struct ktest_totals *totals)
{
	const struct ktest_suite *s;
	int n = 0, idx = 0;

	totals->failed += report_unknown(list);
	for (s = __ktest_suites_start; s < __ktest_suites_end; s++)
		n += in_list(list, s->name);
	console_printf("KTAP version 1\n1..%d\n", n);
	for (s = __ktest_suites_start; s < __ktest_suites_end; s++)
		if (in_list(list, s->name))
			run_suite(s, ++idx, totals);
	return n;
}
