/*
 * tests/kernel/test_printk.c - the printk suite: vsnprintf in the kernel
 * build, log levels against console_loglevel, line time stamps, KERN_CONT
 * and the log buffer behind `dmesg`.
 *
 * Scenario: a capture console is registered for the duration of a test,
 * so the test sees exactly the bytes a serial user would see.  What must
 * be observable (issue 2, item 3):
 *   - a message below console_loglevel reaches the consoles, one at or
 *     above it does not, but both are in the log buffer;
 *   - every line starts with "[seconds.micros] " when printk_time is on;
 *   - KERN_CONT continues the previous line without a new stamp.
 */
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/console.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

static char capture_buf[1024];
static size_t capture_len;

static void capture_write(const char *s, size_t len)
{
	while (len-- && capture_len < sizeof(capture_buf) - 1)
		capture_buf[capture_len++] = *s++;
	capture_buf[capture_len] = '\0';
}

static struct console capture_console = {
	.name = "ktest-capture",
	.write = capture_write,
};

static void capture_start(void)
{
	capture_len = 0;
	capture_buf[0] = '\0';
	register_console(&capture_console);
}

static void capture_stop(void)
{
	unregister_console(&capture_console);
}

#define EXPECT_FMT(t, expected, fmt, ...)                                    \
	do {                                                                 \
		char b_[96];                                                 \
		int n_ = snprintf(b_, sizeof(b_), fmt, ##__VA_ARGS__);       \
		KTEST_EXPECT(t, !strcmp(b_, expected) &&                     \
				 n_ == (int)strlen(expected),                \
			     "format \"%s\": expected \"%s\" (%d), saw \"%s\" (%d)", \
			     fmt, expected, (int)strlen(expected), b_, n_);  \
	} while (0)

/* volatile: gcc would otherwise reject a literal NULL for %s at build time */
static const char *volatile null_string;

static void test_vsnprintf_formats_the_kernel_conversions(struct ktest *t)
{
	EXPECT_FMT(t, "-42 42 2a 2A", "%d %u %x %X", -42, 42u, 42u, 42u);
	EXPECT_FMT(t, "[  7|7  |007]", "[%3d|%-3d|%03d]", 7, 7, 7);
	EXPECT_FMT(t, "18446744073709551615", "%llu", ~0ULL);
	EXPECT_FMT(t, "-9223372036854775808", "%ld", (long)(-0x7fffffffffffffffL - 1));
	EXPECT_FMT(t, "ffffffff80000000", "%lx", 0xffffffff80000000UL);
	EXPECT_FMT(t, "12345 c", "%zu %c", (size_t)12345, 'c');
	EXPECT_FMT(t, "ab|  abc|abc  ", "%.2s|%5s|%-5s", "abcd", "abc", "abc");
	EXPECT_FMT(t, "0x00000000deadbeef", "%p", (void *)0xdeadbeefUL);
	EXPECT_FMT(t, "(null)", "%s", null_string);
	EXPECT_FMT(t, "100%", "%d%%", 100);
}

static void test_vsnprintf_truncates_and_counts(struct ktest *t)
{
	char b[8];
	int n = snprintf(b, sizeof(b), "%s", "0123456789");

	KTEST_EXPECT_EQ(t, n, 10);
	KTEST_EXPECT(t, !strcmp(b, "0123456"), "saw \"%s\"", b);
	n = scnprintf(b, sizeof(b), "%s", "0123456789");
	KTEST_EXPECT_EQ(t, n, 7);
}

static void test_printk_filters_by_console_loglevel(struct ktest *t)
{
	int saved = console_loglevel;
	char log[256];

	console_loglevel = 5;		/* print KERN_EMERG..KERN_WARNING */
	capture_start();
	printk(KERN_WARNING "ktest: warning-shown\n");
	printk(KERN_INFO "ktest: info-hidden\n");
	capture_stop();
	console_loglevel = saved;

	KTEST_EXPECT(t, strstr(capture_buf, "warning-shown"),
		     "a KERN_WARNING line at loglevel 5 must print; saw \"%s\"",
		     capture_buf);
	KTEST_EXPECT(t, !strstr(capture_buf, "info-hidden"),
		     "a KERN_INFO line at loglevel 5 must not print; saw \"%s\"",
		     capture_buf);
	printk_log_read(log, sizeof(log));
	KTEST_EXPECT(t, strstr(log, "info-hidden"),
		     "the log buffer keeps filtered lines; tail is \"%s\"", log);
}

static void test_printk_stamps_each_line_and_continues(struct ktest *t)
{
	bool saved = printk_time;
	const char *second;

	printk_time = true;
	capture_start();
	printk(KERN_ERR "ktest: first");
	pr_cont(" continued\n");
	printk(KERN_ERR "ktest: second\n");
	capture_stop();
	printk_time = saved;

	KTEST_EXPECT(t, capture_buf[0] == '[' && strstr(capture_buf, "] ktest: first continued\n"),
		     "expected \"[s.us] ktest: first continued\", saw \"%s\"",
		     capture_buf);
	second = strstr(capture_buf, "\n[");
	KTEST_EXPECT(t, second && strstr(second, "] ktest: second"),
		     "the second line must carry its own stamp; saw \"%s\"",
		     capture_buf);
	/* "[%5llu.%06llu] ": the dot sits 6 digits before the bracket */
	KTEST_EXPECT(t, strchr(capture_buf, ']') - strchr(capture_buf, '.') == 7,
		     "stamp format [sssss.uuuuuu]; saw \"%.16s\"", capture_buf);
}

KTEST_SUITE(printk,
	    KTEST_CASE(test_vsnprintf_formats_the_kernel_conversions),
	    KTEST_CASE(test_vsnprintf_truncates_and_counts),
	    KTEST_CASE(test_printk_filters_by_console_loglevel),
	    KTEST_CASE(test_printk_stamps_each_line_and_continues));
