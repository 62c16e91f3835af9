/*
 * lib/refcount.h - taking a reference to an object found through a
 * lookup structure that still lists it after its last put.
 *
 * rtk's task and process counts are plain ints on the compiler's
 * __atomic builtins.  A lookup that finds an object on a list must not
 * take a reference with a plain increment when the object's last put
 * may already have happened (count 0, the unlisting still to come):
 * that revives it, 0 -> 1, and the finder's put frees it a second time.
 * refcount_inc_not_zero takes the reference only while the count is
 * above zero.
 * Linux counterpart: include/linux/refcount.h (refcount_inc_not_zero).
 */
#ifndef LIB_REFCOUNT_H
#define LIB_REFCOUNT_H

#include "lib/types.h"

/* refcount_inc_not_zero - *r + 1 unless *r is 0; true if it was taken.
 * Context: any.  Locking: none (a compare-and-exchange loop). */
static inline bool refcount_inc_not_zero(int *r)
{
	int old = __atomic_load_n(r, __ATOMIC_RELAXED);

	do {
		if (old <= 0)
			return false;
	} while (!__atomic_compare_exchange_n(r, &old, old + 1, false,
					      __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	return true;
}

#endif /* LIB_REFCOUNT_H */
