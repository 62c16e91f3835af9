/*
 * tests/host/test_bitmap.c - lib/bitmap: single-bit operations, the
 * find_* searches at word boundaries and with stray bits past nbits,
 * whole-bitmap operations, and for_each_set_bit against a bool model.
 */
#include "tests/host/check.h"
#include "lib/bitmap.h"
#include "lib/string.h"
#include "lib/compiler.h"

static void test_bits_to_longs_and_declare(void)
{
	DECLARE_BITMAP(b, 65);

	CHECK_EQ(BITS_TO_LONGS(0), 0);
	CHECK_EQ(BITS_TO_LONGS(1), 1);
	CHECK_EQ(BITS_TO_LONGS(64), 1);
	CHECK_EQ(BITS_TO_LONGS(65), 2);
	CHECK_EQ(sizeof(b), 2 * sizeof(unsigned long));
}

static void test_set_clear_test_bit(void)
{
	DECLARE_BITMAP(b, 130);

	bitmap_zero(b, 130);
	__set_bit(0, b);
	__set_bit(63, b);
	set_bit(64, b);
	set_bit(129, b);
	CHECK(test_bit(0, b) && test_bit(63, b) && test_bit(64, b) &&
	      test_bit(129, b), "set bits read back");
	CHECK(!test_bit(1, b) && !test_bit(65, b) && !test_bit(128, b),
	      "neighbours untouched");
	CHECK(b[0] == (1UL | 1UL << 63), "word 0 is %#lx", b[0]);
	CHECK(b[2] == 2UL, "word 2 is %#lx", b[2]);
	__clear_bit(63, b);
	clear_bit(64, b);
	CHECK(!test_bit(63, b) && !test_bit(64, b), "cleared");
	CHECK(!test_and_set_bit(5, b), "5 was clear");
	CHECK(test_and_set_bit(5, b), "5 now set");
	CHECK(test_and_clear_bit(5, b), "5 was set");
	CHECK(!test_and_clear_bit(5, b), "5 now clear");
	CHECK(!__test_and_set_bit(70, b) && __test_and_set_bit(70, b),
	      "non-atomic test_and_set");
	CHECK(__test_and_clear_bit(70, b) && !test_bit(70, b),
	      "non-atomic test_and_clear");
	change_bit(3, b);
	__change_bit(4, b);
	CHECK(test_bit(3, b) && test_bit(4, b), "changed bits set");
}

static void test_find_bit_searches(void)
{
	DECLARE_BITMAP(b, 200);

	bitmap_zero(b, 200);
	CHECK_EQ(find_first_bit(b, 200), 200);
	__set_bit(64, b);
	__set_bit(130, b);
	CHECK_EQ(find_first_bit(b, 200), 64);
	CHECK_EQ(find_next_bit(b, 200, 64), 64);
	CHECK_EQ(find_next_bit(b, 200, 65), 130);
	CHECK_EQ(find_next_bit(b, 200, 131), 200);
	CHECK_EQ(find_next_bit(b, 200, 500), 200);
	CHECK_EQ(find_next_bit(b, 100, 65), 100);	/* 130 is past size */
	CHECK_EQ(find_last_bit(b, 200), 130);
	CHECK_EQ(find_last_bit(b, 130), 64);
	CHECK_EQ(find_first_zero_bit(b, 200), 0);
	bitmap_fill(b, 200);
	CHECK_EQ(find_first_zero_bit(b, 200), 200);
	__clear_bit(127, b);
	CHECK_EQ(find_first_zero_bit(b, 200), 127);
	CHECK_EQ(find_next_zero_bit(b, 200, 128), 200);
	CHECK_EQ(find_next_zero_bit(b, 120, 0), 120);
}

static void test_bits_past_nbits_are_ignored(void)
{
	unsigned long b[2] = { 0, ~0UL << 6 };	/* bits 70.. set */

	/* a 70-bit map: bits 70..127 are outside it */
	CHECK_EQ(find_first_bit(b, 70), 70);
	CHECK_EQ(find_last_bit(b, 70), 70);
	CHECK(bitmap_empty(b, 70), "stray tail bits are not in the map");
	CHECK_EQ(bitmap_weight(b, 70), 0);
	CHECK_EQ(bitmap_weight(b, 71), 1);
	b[0] = ~0UL;
	b[1] = 0x3f;
	CHECK(bitmap_full(b, 70), "bits 0..69 all set");
	CHECK(!bitmap_full(b, 71), "bit 70 clear");
}

static void test_whole_bitmap_operations(void)
{
	DECLARE_BITMAP(a, 100);
	DECLARE_BITMAP(c, 100);

	bitmap_fill(a, 100);
	CHECK_EQ(bitmap_weight(a, 100), 100);
	CHECK(a[1] == (~0UL >> 28), "fill leaves the tail clear: %#lx", a[1]);
	bitmap_copy(c, a, 100);
	CHECK(bitmap_equal(a, c, 100), "copy is equal");
	__clear_bit(99, c);
	CHECK(!bitmap_equal(a, c, 100), "differs at bit 99");
	CHECK(bitmap_equal(a, c, 99), "equal below bit 99");
	bitmap_zero(a, 100);
	CHECK(bitmap_empty(a, 100), "zeroed");
	CHECK_EQ(hweight_long(0xf0f0UL), 8);
	CHECK_EQ(__ffs(0x100UL), 8);
	CHECK_EQ(__fls(0x101UL), 8);
}

static void test_for_each_set_bit_matches_model(void)
{
	enum { NB = 300 };
	DECLARE_BITMAP(b, NB);
	bool model[NB] = { false };
	unsigned long bit, expect = 0;
	unsigned int seed = 99, i, n = 0, zeros = 0;

	bitmap_zero(b, NB);
	for (i = 0; i < 120; i++) {
		seed = seed * 1103515245u + 12345u;
		bit = (seed >> 10) % NB;
		model[bit] = true;
		__set_bit(bit, b);
	}
	for_each_set_bit(bit, b, NB) {
		while (expect < NB && !model[expect])
			expect++;
		CHECK(bit == expect, "expected bit %lu, saw %lu", expect, bit);
		expect++;
		n++;
	}
	for (i = 0; i < NB; i++)
		zeros += !model[i];
	CHECK_EQ(bitmap_weight(b, NB), n);
	CHECK_EQ(n + zeros, NB);
	n = 0;
	for_each_clear_bit(bit, b, NB) {
		CHECK(!model[bit], "bit %lu reported clear but set", bit);
		n++;
	}
	CHECK_EQ(n, zeros);
}

int main(void)
{
	return check_run("bitmap", (struct check_case[]){
		CHECK_CASE(test_bits_to_longs_and_declare),
		CHECK_CASE(test_set_clear_test_bit),
		CHECK_CASE(test_find_bit_searches),
		CHECK_CASE(test_bits_past_nbits_are_ignored),
		CHECK_CASE(test_whole_bitmap_operations),
		CHECK_CASE(test_for_each_set_bit_matches_model),
		{ 0 } });
}
