/*
 * tests/host/test_vsnprintf.c - lib/vsnprintf.c against the host C
 * library.
 *
 * The binary links lib/vsnprintf.c, whose snprintf/vsnprintf take the
 * place of libc's; the reference output therefore comes from libc's
 * vasprintf(), which lib/ does not define.  Tables of formats are run
 * over tables of values through both, comparing text and return value,
 * also into short buffers to check truncation.  %p, "(null)" and
 * unknown conversions are rtk-specific and checked against literals.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include "tests/host/check.h"
#include "lib/vsnprintf.h"
#include "lib/string.h"
#include "lib/compiler.h"

/*
 * cross - format fmt with the arguments through rtk and through libc and
 * check they agree in full, and in buffers of size 0, 1, and half the
 * length (truncation keeps the prefix, return stays the full length).
 */
static void cross(const char *fmt, ...)
{
	char ours[512], small[512];
	char *ref = NULL;
	va_list ap, aq;
	int n, rn, sizes[3], i;

	va_start(ap, fmt);
	va_copy(aq, ap);
	rn = vasprintf(&ref, fmt, aq);
	va_end(aq);
	CHECK(rn >= 0 && rn < (int)sizeof(ours), "reference failed for %s", fmt);
	if (rn < 0 || rn >= (int)sizeof(ours)) {
		va_end(ap);
		free(ref);
		return;
	}
	va_copy(aq, ap);
	n = vsnprintf(ours, sizeof(ours), fmt, aq);
	va_end(aq);
	CHECK(n == rn && strcmp(ours, ref) == 0,
	      "fmt \"%s\": libc \"%s\" (%d), rtk \"%s\" (%d)", fmt, ref, rn,
	      ours, n);

	sizes[0] = 0;
	sizes[1] = 1;
	sizes[2] = rn / 2 + 1;
	for (i = 0; i < 3; i++) {
		memset(small, '#', sizeof(small));
		va_copy(aq, ap);
		n = vsnprintf(small, (size_t)sizes[i], fmt, aq);
		va_end(aq);
		CHECK_EQ(n, rn);
		if (sizes[i] == 0) {
			CHECK(small[0] == '#', "size 0 must not write (fmt %s)",
			      fmt);
			continue;
		}
		CHECK(strncmp(small, ref, (size_t)sizes[i] - 1) == 0 &&
		      small[sizes[i] - 1] == '\0' && small[sizes[i]] == '#',
		      "fmt \"%s\" size %d: \"%s\" is not the prefix of \"%s\"",
		      fmt, sizes[i], small, ref);
	}
	va_end(ap);
	free(ref);
}

static const char *const int_formats[] = {
	"%d", "%i", "%u", "%x", "%X", "%o", "%5d", "%-5d|", "%05d", "%+d",
	"% d", "%+5d", "%-+6d|", "%.3d", "%8.3d", "%-8.3d|", "%08.3d",
	"%.0d", "%.0x", "%#x", "%#X", "%#o", "%#8x", "%#08x", "%-#8x|",
	"%#.5o", "%#.0o", "%x%X", "[%3u]", "%+u", "% x", "%hd", "%hu",
	"%hx", "%hhd", "%hhu", "%hhx", "%%d=%d%%",
};

static const int int_values[] = {
	0, 1, -1, 7, 10, 42, -42, 255, 256, 4096, 65535, 65536, 12345678,
	-12345678, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1,
};

static void test_int_formats_match_libc(void)
{
	size_t f, v;

	for (f = 0; f < ARRAY_SIZE(int_formats); f++)
		for (v = 0; v < ARRAY_SIZE(int_values); v++)
			cross(int_formats[f], int_values[v]);
}

static const char *const long_formats[] = {
	"%ld", "%lu", "%lx", "%lX", "%lo", "%20ld", "%-20ld|", "%020ld",
	"%+ld", "%#lx", "%#018lx", "%.20lu", "%li",
};

static const long long_values[] = {
	0, 1, -1, 0x7fffffffL, 0x80000000L, 0x123456789abcdefL, LONG_MAX,
	LONG_MIN, LONG_MIN + 1, -1000000000000L,
};

static void test_long_formats_match_libc(void)
{
	size_t f, v;
	char llfmt[16];

	for (f = 0; f < ARRAY_SIZE(long_formats); f++) {
		/* the same conversion spelled with ll, then with z */
		const char *l = strchr(long_formats[f], 'l');
		size_t pre = (size_t)(l - long_formats[f]);

		for (v = 0; v < ARRAY_SIZE(long_values); v++) {
			cross(long_formats[f], long_values[v]);
			snprintf(llfmt, sizeof(llfmt), "%.*sl%s", (int)pre,
				 long_formats[f], l);
			cross(llfmt, (long long)long_values[v]);
			snprintf(llfmt, sizeof(llfmt), "%.*sz%s", (int)pre,
				 long_formats[f], l + 1);
			cross(llfmt, (size_t)long_values[v]);
		}
	}
}

static const char *const str_formats[] = {
	"%s", "[%10s]", "[%-10s]", "[%.3s]", "[%10.3s]", "[%-10.3s]",
	"[%.0s]", "[%.20s]", "<%s>", "[%1s]",
};

static const char *const str_values[] = {
	"", "a", "abc", "hello, world", "rt_mutex_slowlock",
};

static void test_string_formats_match_libc(void)
{
	size_t f, v;

	for (f = 0; f < ARRAY_SIZE(str_formats); f++)
		for (v = 0; v < ARRAY_SIZE(str_values); v++)
			cross(str_formats[f], str_values[v]);
}

static void test_char_and_star_forms_match_libc(void)
{
	int w;

	cross("%c", 'x');
	cross("[%5c]", 'y');
	cross("[%-5c]", 'z');
	cross("%c%c%c", 'a', 'b', 'c');
	for (w = -12; w <= 12; w += 3) {
		cross("[%*d]", w, 42);
		cross("[%*s]", w, "str");
		cross("[%-*x]", w, 0xbeef);
		cross("[%.*s]", w, "precision");
		cross("[%*.*d]", w, 3, -5);
		cross("[%.*d]", w, 77);
	}
	cross("%s=%d (%#x) %c%s", "irq", 14, 14, '!', "");
	cross("no conversions at all");
	cross("");
}

/* call_rtk - reach vsnprintf without the compiler's format checking, for
 * formats that are wrong on purpose. */
static int call_rtk(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static void test_pointer_prints_0x_and_16_digits(void)
{
	char buf[64];

	CHECK_EQ(snprintf(buf, sizeof(buf), "%p", (void *)0xffffffff80100000UL),
		 18);
	CHECK_STR(buf, "0xffffffff80100000");
	snprintf(buf, sizeof(buf), "%p", (void *)0x1234);
	CHECK_STR(buf, "0x0000000000001234");
	snprintf(buf, sizeof(buf), "[%p]", NULL);
	CHECK_STR(buf, "[0x0000000000000000]");
}

static void test_null_string_prints_null(void)
{
	char buf[32];
	const char *nul = NULL;

	CHECK_EQ(call_rtk(buf, sizeof(buf), "<%s>", nul), 8);
	CHECK_STR(buf, "<(null)>");
	call_rtk(buf, sizeof(buf), "<%.3s>", nul);
	CHECK_STR(buf, "<(nu>");
}

static void test_unknown_conversion_is_printed_literally(void)
{
	char buf[64];
	const char *bad = "a%yb %-5qc %d";
	const char *tail = "100%";

	CHECK_EQ(call_rtk(buf, sizeof(buf), bad, 7), 12);
	CHECK_STR(buf, "a%yb %-5qc 7");
	CHECK_EQ(call_rtk(buf, sizeof(buf), tail), 4);
	CHECK_STR(buf, "100%");
}

static void test_scnprintf_returns_stored_length(void)
{
	char buf[8];
	int pos = 0;

	CHECK_EQ(scnprintf(buf, sizeof(buf), "%s", "abcdefghij"), 7);
	CHECK_STR(buf, "abcdefg");
	CHECK_EQ(scnprintf(buf, 0, "%d", 12), 0);
	CHECK_EQ(scnprintf(buf, 1, "%d", 12), 0);
	CHECK_STR(buf, "");
	/* the append idiom never runs past the end */
	pos += scnprintf(buf + pos, sizeof(buf) - pos, "%s", "abc");
	pos += scnprintf(buf + pos, sizeof(buf) - pos, "%s", "defgh");
	pos += scnprintf(buf + pos, sizeof(buf) - pos, "%s", "ijk");
	CHECK_EQ(pos, 7);
	CHECK_STR(buf, "abcdefg");
}

int main(void)
{
	return check_run("vsnprintf", (struct check_case[]){
		CHECK_CASE(test_int_formats_match_libc),
		CHECK_CASE(test_long_formats_match_libc),
		CHECK_CASE(test_string_formats_match_libc),
		CHECK_CASE(test_char_and_star_forms_match_libc),
		CHECK_CASE(test_pointer_prints_0x_and_16_digits),
		CHECK_CASE(test_null_string_prints_null),
		CHECK_CASE(test_unknown_conversion_is_printed_literally),
		CHECK_CASE(test_scnprintf_returns_stored_length),
		{ 0 } });
}
