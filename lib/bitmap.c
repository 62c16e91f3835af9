/*
 * lib/bitmap.c - the bitmap searches and whole-bitmap operations of
 * lib/bitmap.h.
 *
 * Word at a time: a search masks off the bits below offset in the first
 * word and the bits at or above size in the last.  bitmap_fill sets the
 * tail bits past nbits to zero so bitmap_equal/weight on full words stay
 * honest.  Linux counterpart: lib/find_bit.c, lib/bitmap.c.
 */
#include "lib/bitmap.h"
#include "lib/string.h"

/* LAST_WORD_MASK - the valid bits of the last word of an nbits bitmap. */
#define LAST_WORD_MASK(nbits) (~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

/*
 * find_next - shared body: invert is ~0UL to look for zero bits.
 * [1] first word: drop the bits below offset; [2] scan word by word
 * until a non-zero word; [3] clamp, since bits past size in the last
 * word may be set.
 */
static unsigned long find_next(const unsigned long *addr, unsigned long size,
			       unsigned long offset, unsigned long invert)
{
	unsigned long w, idx;

	if (offset >= size)
		return size;
	/* [1] */
	idx = offset / BITS_PER_LONG;
	w = (addr[idx] ^ invert) & (~0UL << (offset % BITS_PER_LONG));
	/* [2] */
	while (!w) {
		idx++;
		if (idx * BITS_PER_LONG >= size)
			return size;
		w = addr[idx] ^ invert;
	}
	/* [3] */
	offset = idx * BITS_PER_LONG + __ffs(w);
	return offset < size ? offset : size;
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset)
{
	return find_next(addr, size, offset, 0);
}

unsigned long find_next_zero_bit(const unsigned long *addr,
				 unsigned long size, unsigned long offset)
{
	return find_next(addr, size, offset, ~0UL);
}

unsigned long find_last_bit(const unsigned long *addr, unsigned long size)
{
	unsigned long idx, w;

	if (!size)
		return size;
	idx = (size - 1) / BITS_PER_LONG;
	w = addr[idx] & LAST_WORD_MASK(size);
	for (;;) {
		if (w)
			return idx * BITS_PER_LONG + __fls(w);
		if (!idx)
			return size;
		w = addr[--idx];
	}
}

void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

void bitmap_fill(unsigned long *dst, unsigned int nbits)
{
	unsigned int n = BITS_TO_LONGS(nbits);

	if (!n)
		return;
	memset(dst, 0xff, n * sizeof(unsigned long));
	dst[n - 1] &= LAST_WORD_MASK(nbits);
}

void bitmap_copy(unsigned long *dst, const unsigned long *src,
		 unsigned int nbits)
{
	memcpy(dst, src, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	return find_first_bit(src, nbits) == nbits;
}

bool bitmap_full(const unsigned long *src, unsigned int nbits)
{
	return find_first_zero_bit(src, nbits) == nbits;
}

bool bitmap_equal(const unsigned long *a, const unsigned long *b,
		  unsigned int nbits)
{
	unsigned int i, full = nbits / BITS_PER_LONG;

	for (i = 0; i < full; i++)
		if (a[i] != b[i])
			return false;
	if (nbits % BITS_PER_LONG)
		return !((a[i] ^ b[i]) & LAST_WORD_MASK(nbits));
	return true;
}

unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits)
{
	unsigned int i, w = 0, full = nbits / BITS_PER_LONG;

	for (i = 0; i < full; i++)
		w += hweight_long(src[i]);
	if (nbits % BITS_PER_LONG)
		w += hweight_long(src[i] & LAST_WORD_MASK(nbits));
	return w;
}
