/*
 * tests/host/test_seq_buf.c - lib/seq_buf.c: pieces append, a piece that
 * does not fit is dropped whole and remembered, and cpu lists print as
 * Linux's /sys/devices/system/cpu/online does.
 */
#include <string.h>
#include "tests/host/check.h"
#include "lib/seq_buf.h"

static void test_pieces_append(void)
{
	char buf[32];
	struct seq_buf s;

	seq_buf_init(&s, buf, sizeof(buf));
	CHECK_EQ(seq_buf_printf(&s, "cpu%d ", 3), 0);
	CHECK_EQ(seq_buf_puts(&s, "ok"), 0);
	CHECK(!strcmp(buf, "cpu3 ok"), "saw \"%s\"", buf);
	CHECK_EQ(s.len, 7);
	CHECK(!seq_buf_has_overflowed(&s), "no overflow");
}

static void test_a_piece_that_does_not_fit_is_dropped_whole(void)
{
	char buf[8];
	struct seq_buf s;

	seq_buf_init(&s, buf, sizeof(buf));
	CHECK_EQ(seq_buf_puts(&s, "abc"), 0);
	CHECK_EQ(seq_buf_puts(&s, "defgh"), -1);	/* 3 + 5 + NUL > 8 */
	CHECK(!strcmp(buf, "abc"), "saw \"%s\"", buf);
	CHECK(seq_buf_has_overflowed(&s), "overflow remembered");
	CHECK_EQ(seq_buf_puts(&s, "dddd"), 0);	/* exactly fits: 7 + NUL */
	CHECK(!strcmp(buf, "abcdddd"), "saw \"%s\"", buf);
}

static void test_cpulist_ranges(void)
{
	static const struct {
		u64 mask;
		unsigned int nbits;
		const char *want;
	} cases[] = {
		{ 0x1, 2, "0\n" },	     { 0x3, 2, "0-1\n" },
		{ 0x34f, 12, "0-3,6,8-9\n" }, { 0, 4, "\n" },
		{ 0x8000000000000001ULL, 64, "0,63\n" },
		{ ~0ULL, 64, "0-63\n" },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[64];
		struct seq_buf s;

		seq_buf_init(&s, buf, sizeof(buf));
		CHECK_EQ(seq_buf_print_cpulist(&s, cases[i].mask, cases[i].nbits),
			 0);
		CHECK(!strcmp(buf, cases[i].want), "mask %#llx: want \"%s\", saw \"%s\"",
		      (unsigned long long)cases[i].mask, cases[i].want, buf);
	}
}

int main(void)
{
	return check_run("seq_buf", (struct check_case[]){
		CHECK_CASE(test_pieces_append),
		CHECK_CASE(test_a_piece_that_does_not_fit_is_dropped_whole),
		CHECK_CASE(test_cpulist_ranges),
		{ 0 } });
}
