/*
 * tests/host/test_kstrto.c - kstrtol()/kstrtoul(): bases, prefixes,
 * signs, the trailing newline, malformed input and range limits.
 * On failure the result must be left untouched.
 */
#include <limits.h>
#include "tests/host/check.h"
#include "lib/string.h"
#include "lib/errno.h"
#include "lib/compiler.h"

struct long_case {
	const char *s;
	unsigned int base;
	int ret;	/* expected return */
	long val;	/* expected *res when ret == 0 */
};

static const struct long_case long_cases[] = {
	{ "0", 10, 0, 0 },
	{ "42", 10, 0, 42 },
	{ "-42", 10, 0, -42 },
	{ "+42", 10, 0, 42 },
	{ "42\n", 10, 0, 42 },
	{ "42\n\n", 10, -EINVAL, 0 },
	{ "", 10, -EINVAL, 0 },
	{ "-", 10, -EINVAL, 0 },
	{ " 1", 10, -EINVAL, 0 },
	{ "1 ", 10, -EINVAL, 0 },
	{ "12a", 10, -EINVAL, 0 },
	{ "--1", 10, -EINVAL, 0 },
	{ "0x1f", 0, 0, 31 },
	{ "0X1F", 0, 0, 31 },
	{ "-0x10", 0, 0, -16 },
	{ "017", 0, 0, 15 },
	{ "08", 0, -EINVAL, 0 },
	{ "0", 0, 0, 0 },
	{ "99", 0, 0, 99 },
	{ "ff", 16, 0, 255 },
	{ "0xff", 16, 0, 255 },
	{ "0x", 16, -EINVAL, 0 },
	{ "777", 8, 0, 511 },
	{ "101", 2, 0, 5 },
	{ "12", 2, -EINVAL, 0 },
	{ "zz", 36, 0, 35 * 36 + 35 },
	{ "1", 1, -EINVAL, 0 },
	{ "1", 37, -EINVAL, 0 },
	{ "9223372036854775807", 10, 0, LONG_MAX },
	{ "9223372036854775808", 10, -ERANGE, 0 },
	{ "-9223372036854775808", 10, 0, LONG_MIN },
	{ "-9223372036854775809", 10, -ERANGE, 0 },
	{ "99999999999999999999999", 10, -ERANGE, 0 },
	{ "0x7fffffffffffffff", 0, 0, LONG_MAX },
};

static void test_kstrtol_table(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(long_cases); i++) {
		const struct long_case *c = &long_cases[i];
		long res = 12345;
		int ret = kstrtol(c->s, c->base, &res);

		CHECK(ret == c->ret, "kstrtol(\"%s\", %u): expected %d, saw %d",
		      c->s, c->base, c->ret, ret);
		if (c->ret == 0)
			CHECK(res == c->val,
			      "kstrtol(\"%s\", %u): expected %ld, saw %ld", c->s,
			      c->base, c->val, res);
		else
			CHECK(res == 12345,
			      "kstrtol(\"%s\") failed but wrote %ld", c->s, res);
	}
}

static void test_kstrtoul_range_and_sign(void)
{
	unsigned long res = 7;

	CHECK_EQ(kstrtoul("18446744073709551615", 10, &res), 0);
	CHECK(res == ULONG_MAX, "expected ULONG_MAX, saw %lu", res);
	res = 7;
	CHECK_EQ(kstrtoul("18446744073709551616", 10, &res), -ERANGE);
	CHECK_EQ(kstrtoul("0xffffffffffffffff", 0, &res), 0);
	CHECK(res == ULONG_MAX, "expected ULONG_MAX, saw %lu", res);
	CHECK_EQ(kstrtoul("0x10000000000000000", 0, &res), -ERANGE);
	res = 7;
	CHECK_EQ(kstrtoul("-1", 10, &res), -EINVAL);
	CHECK_EQ(res, 7);
	CHECK_EQ(kstrtoul("+5\n", 10, &res), 0);
	CHECK_EQ(res, 5);
	CHECK_EQ(kstrtoul("0755", 0, &res), 0);
	CHECK_EQ(res, 0755);
}

int main(void)
{
	return check_run("kstrto", (struct check_case[]){
		CHECK_CASE(test_kstrtol_table),
		CHECK_CASE(test_kstrtoul_range_and_sign),
		{ 0 } });
}
