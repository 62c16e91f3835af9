/*
 * tests/host/test_string.c - lib/string.c's memory and string functions.
 *
 * The host binary links lib/string.c, whose definitions take the place
 * of libc's, so every call here (and libc's own internal calls to these
 * names) runs the rtk code under AddressSanitizer.
 */
#include "tests/host/check.h"
#include "lib/string.h"
#include "lib/errno.h"
#include "lib/compiler.h"

static void test_memset_fills_exactly_n_bytes(void)
{
	char buf[8] = "abcdefg";

	CHECK(memset(buf + 1, 'x', 3) == buf + 1, "memset must return dest");
	CHECK_STR(buf, "axxxefg");
	memset(buf, 0, 0);
	CHECK_EQ(buf[0], 'a');
}

static void test_memcpy_copies_and_returns_dest(void)
{
	char dst[6] = "-----";

	CHECK(memcpy(dst, "abc", 3) == dst, "memcpy must return dest");
	CHECK_STR(dst, "abc--");
}

static void test_memmove_handles_both_overlaps(void)
{
	char fwd[] = "0123456789";
	char back[] = "0123456789";

	memmove(fwd + 2, fwd, 5);	/* dest above src */
	CHECK_STR(fwd, "0101234789");
	memmove(back, back + 3, 5);	/* dest below src */
	CHECK_STR(back, "3456756789");
	memmove(back, back, 10);
	CHECK_STR(back, "3456756789");
}

static void test_memcmp_orders_as_unsigned_bytes(void)
{
	CHECK_EQ(memcmp("abc", "abc", 3), 0);
	CHECK(memcmp("abc", "abd", 3) < 0, "abc < abd");
	CHECK(memcmp("abd", "abc", 3) > 0, "abd > abc");
	CHECK(memcmp("\x80", "\x01", 1) > 0, "0x80 > 0x01 as unsigned");
	CHECK_EQ(memcmp("x", "y", 0), 0);
}

static void test_memchr_finds_first_and_stops_at_n(void)
{
	const char s[] = "abcabc";

	CHECK(memchr(s, 'c', 6) == s + 2, "first 'c' is at 2");
	CHECK(memchr(s, 'c', 2) == NULL, "no 'c' in the first 2 bytes");
	CHECK(memchr(s, '\0', 7) == s + 6, "NUL is found when within n");
}

static void test_strlen_and_strnlen(void)
{
	const char hello[16] = "hello";

	CHECK_EQ(strlen(""), 0);
	CHECK_EQ(strlen(hello), 5);
	CHECK_EQ(strnlen(hello, 3), 3);
	CHECK_EQ(strnlen(hello, 10), 5);
	CHECK_EQ(strnlen(hello, 0), 0);
}

static void test_strcmp_and_strncmp_signs(void)
{
	CHECK_EQ(strcmp("abc", "abc"), 0);
	CHECK(strcmp("ab", "abc") < 0, "prefix sorts first");
	CHECK(strcmp("abc", "ab") > 0, "longer sorts after");
	CHECK(strcmp("\xff", "a") > 0, "compared as unsigned char");
	CHECK_EQ(strncmp("abcx", "abcy", 3), 0);
	CHECK(strncmp("abcx", "abcy", 4) < 0, "differs at 4th byte");
	CHECK_EQ(strncmp("ab", "ab", 10), 0);
	CHECK_EQ(strncmp("a", "b", 0), 0);
}

static void test_strchr_and_strrchr(void)
{
	const char *s = "a/b/c";

	CHECK(strchr(s, '/') == s + 1, "first '/'");
	CHECK(strrchr(s, '/') == s + 3, "last '/'");
	CHECK(strchr(s, 'z') == NULL, "absent char");
	CHECK(strrchr(s, 'z') == NULL, "absent char");
	CHECK(strchr(s, '\0') == s + 5, "NUL finds the terminator");
	CHECK(strrchr(s, '\0') == s + 5, "NUL finds the terminator");
}

static void test_strcpy_copies_terminator(void)
{
	char buf[8] = "zzzzzzz";

	CHECK(strcpy(buf, "abc") == buf, "strcpy returns dest");
	CHECK_STR(buf, "abc");
	CHECK_EQ(buf[4], 'z');
}

static void test_strstr_finds_substrings(void)
{
	const char *s = "aaab rt_mutex rtmutex";

	CHECK(strstr(s, "rtmutex") == s + 14, "later full match");
	CHECK(strstr(s, "aab") == s + 1, "overlapping start");
	CHECK(strstr(s, "") == s, "empty needle matches at start");
	CHECK(strstr(s, "mutexx") == NULL, "absent needle");
	CHECK(strstr("", "a") == NULL, "empty haystack");
}

static void test_strscpy_reports_truncation(void)
{
	char buf[4];

	CHECK_EQ(strscpy(buf, "abc", sizeof(buf)), 3);
	CHECK_STR(buf, "abc");
	CHECK_EQ(strscpy(buf, "abcd", sizeof(buf)), -E2BIG);
	CHECK_STR(buf, "abc");
	CHECK_EQ(strscpy(buf, "", sizeof(buf)), 0);
	CHECK_STR(buf, "");
	CHECK_EQ(strscpy(buf, "x", 0), -E2BIG);
	CHECK_STR(buf, "");
	CHECK_EQ(strscpy(buf, "xy", 1), -E2BIG);
	CHECK_STR(buf, "");
}

static void test_strlcat_appends_and_returns_wanted_length(void)
{
	char buf[8] = "ab";

	CHECK_EQ(strlcat(buf, "cd", sizeof(buf)), 4);
	CHECK_STR(buf, "abcd");
	CHECK_EQ(strlcat(buf, "efghij", sizeof(buf)), 10);
	CHECK_STR(buf, "abcdefg");
	CHECK_EQ(strlcat(buf, "z", sizeof(buf)), 8);
	CHECK_STR(buf, "abcdefg");
	/* dest not terminated within size: size + strlen(src), no write */
	CHECK_EQ(strlcat(buf, "xyz", 3), 6);
	CHECK_STR(buf, "abcdefg");
}

static void test_container_of_and_align_helpers(void)
{
	struct pair {
		int a;
		long b;
	} p;
	long *pb = &p.b;

	CHECK(container_of(pb, struct pair, b) == &p, "container_of");
	CHECK_EQ(ALIGN_UP(13UL, 8), 16);
	CHECK_EQ(ALIGN_UP(16UL, 8), 16);
	CHECK_EQ(ALIGN_DOWN(15UL, 8), 8);
	CHECK_EQ(ARRAY_SIZE(((int[7]){ 0 })), 7);
}

int main(void)
{
	return check_run("string", (struct check_case[]){
		CHECK_CASE(test_memset_fills_exactly_n_bytes),
		CHECK_CASE(test_memcpy_copies_and_returns_dest),
		CHECK_CASE(test_memmove_handles_both_overlaps),
		CHECK_CASE(test_memcmp_orders_as_unsigned_bytes),
		CHECK_CASE(test_memchr_finds_first_and_stops_at_n),
		CHECK_CASE(test_strlen_and_strnlen),
		CHECK_CASE(test_strcmp_and_strncmp_signs),
		CHECK_CASE(test_strchr_and_strrchr),
		CHECK_CASE(test_strcpy_copies_terminator),
		CHECK_CASE(test_strstr_finds_substrings),
		CHECK_CASE(test_strscpy_reports_truncation),
		CHECK_CASE(test_strlcat_appends_and_returns_wanted_length),
		CHECK_CASE(test_container_of_and_align_helpers),
		{ 0 } });
}
