/*
 * lib/bitmap.h - bit arrays of unsigned long words: cpu masks, irq and
 * priority bitmaps.
 *
 * Bit n lives in word n / BITS_PER_LONG at position n % BITS_PER_LONG.
 * The __set_bit family is non-atomic (caller's lock or single owner);
 * set_bit/clear_bit/test_and_*_bit are atomic read-modify-writes built
 * on the compiler's __atomic builtins, so they stay portable and work
 * on the host too.  Bits past nbits in the last word are never looked
 * at by the find/weight functions.
 * Linux counterpart: include/linux/bitmap.h, include/linux/bitops.h,
 * include/linux/find.h, lib/find_bit.c, lib/bitmap.c (rtk leaves out
 * the region, shift and parse/print helpers).
 */
#ifndef LIB_BITMAP_H
#define LIB_BITMAP_H

#include "lib/types.h"
#include "lib/compiler.h"

#define BITS_PER_LONG		((int)(8 * sizeof(unsigned long)))
#define BITS_TO_LONGS(nr)	DIV_ROUND_UP(nr, BITS_PER_LONG)
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))

#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

/* Non-atomic single-bit operations. */
static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline void __change_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] ^= BIT_MASK(nr);
}

static inline bool __test_and_set_bit(unsigned long nr, unsigned long *addr)
{
	bool old = addr[BIT_WORD(nr)] & BIT_MASK(nr);

	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
	return old;
}

static inline bool __test_and_clear_bit(unsigned long nr,
					unsigned long *addr)
{
	bool old = addr[BIT_WORD(nr)] & BIT_MASK(nr);

	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
	return old;
}

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return (READ_ONCE(addr[BIT_WORD(nr)]) >> (nr % BITS_PER_LONG)) & 1;
}

/*
 * Atomic single-bit operations: fully ordered (like Linux's test_and_*
 * family; Linux's plain set_bit is unordered, rtk's is stronger).
 * Context: any.
 */
static inline void set_bit(unsigned long nr, unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_SEQ_CST);
}

static inline void clear_bit(unsigned long nr, unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
			   __ATOMIC_SEQ_CST);
}

static inline void change_bit(unsigned long nr, unsigned long *addr)
{
	__atomic_fetch_xor(&addr[BIT_WORD(nr)], BIT_MASK(nr),
			   __ATOMIC_SEQ_CST);
}

static inline bool test_and_set_bit(unsigned long nr, unsigned long *addr)
{
	return __atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr),
				 __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

static inline bool test_and_clear_bit(unsigned long nr, unsigned long *addr)
{
	return __atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
				  __ATOMIC_SEQ_CST) & BIT_MASK(nr);
}

/* hweight_long - number of set bits in w (no popcnt instruction needed). */
static inline unsigned int hweight_long(unsigned long w)
{
	unsigned int n = 0;

	for (; w; n++)
		w &= w - 1;	/* clears the lowest set bit */
	return n;
}

/* __ffs - index of the lowest set bit; w must not be 0. */
static inline unsigned long __ffs(unsigned long w)
{
	return (unsigned long)__builtin_ctzl(w);
}

/* __fls - index of the highest set bit; w must not be 0. */
static inline unsigned long __fls(unsigned long w)
{
	return (unsigned long)(BITS_PER_LONG - 1 - __builtin_clzl(w));
}

/*
 * find_next_bit/find_next_zero_bit - index of the first set (clear) bit
 * at or after offset, or size when there is none.
 */
unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset);
unsigned long find_next_zero_bit(const unsigned long *addr,
				 unsigned long size, unsigned long offset);

/* find_last_bit - index of the last set bit below size, or size. */
unsigned long find_last_bit(const unsigned long *addr, unsigned long size);

static inline unsigned long find_first_bit(const unsigned long *addr,
					   unsigned long size)
{
	return find_next_bit(addr, size, 0);
}

static inline unsigned long find_first_zero_bit(const unsigned long *addr,
						unsigned long size)
{
	return find_next_zero_bit(addr, size, 0);
}

#define for_each_set_bit(bit, addr, size)                               \
	for ((bit) = find_first_bit(addr, size); (bit) < (size);        \
	     (bit) = find_next_bit(addr, size, (bit) + 1))

#define for_each_clear_bit(bit, addr, size)                             \
	for ((bit) = find_first_zero_bit(addr, size); (bit) < (size);   \
	     (bit) = find_next_zero_bit(addr, size, (bit) + 1))

/* Whole-bitmap operations on the first nbits bits. */
void bitmap_zero(unsigned long *dst, unsigned int nbits);
void bitmap_fill(unsigned long *dst, unsigned int nbits);
void bitmap_copy(unsigned long *dst, const unsigned long *src,
		 unsigned int nbits);
bool bitmap_empty(const unsigned long *src, unsigned int nbits);
bool bitmap_full(const unsigned long *src, unsigned int nbits);
bool bitmap_equal(const unsigned long *a, const unsigned long *b,
		  unsigned int nbits);
unsigned int bitmap_weight(const unsigned long *src, unsigned int nbits);

#endif /* LIB_BITMAP_H */
