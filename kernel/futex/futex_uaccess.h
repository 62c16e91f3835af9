/*
 * kernel/futex/futex_uaccess.h - the futex code's seam to user memory:
 * reading the futex word, and the atomic compare-and-exchange on it, both
 * with fault handling (a bad address is -EFAULT, never an oops).
 *
 * The contract (Linux: get_user, futex_get_value_locked,
 * futex_atomic_cmpxchg_inatomic, fault_in_user_writeable):
 *	futex_get_value_locked	read *uaddr without sleeping: callable
 *				under the hash-bucket lock; -EFAULT when the
 *				page is absent (the caller drops its locks,
 *				calls futex_fault_in, and retries)
 *	futex_cmpxchg_value_locked  the same for an atomic cmpxchg
 *	futex_fault_in		make *uaddr present and writable (sleeps)
 *	futex_key_mm		the address space uaddr is resolved in
 *
 * Every access goes through user-core's uaccess (kernel/user/uaccess.h:
 * get_user_u32, futex_atomic_cmpxchg_inatomic, fault_in_user_writeable),
 * for a program's threads and for the in-kernel suites alike: those run
 * their kernel threads on a test address space that aliases their words
 * (tests/kernel/futex_test_mm.c, kthread_use_mm).  A kernel thread on no
 * address space finds no user memory here: -EFAULT.
 */
#ifndef KERNEL_FUTEX_FUTEX_UACCESS_H
#define KERNEL_FUTEX_FUTEX_UACCESS_H

#include "lib/types.h"
#include "lib/errno.h"
#include "kernel/user/uaccess.h"	/* __user, get_user_u32, ... */
#include "kernel/sched/sched.h"		/* current->mm */

/*
 * The seam.  futex_get_value_locked - *dest = *uaddr; 0 or -EFAULT.
 * futex_cmpxchg_value_locked - atomically: if *uaddr == oldval, store
 * newval; *curval = the value found (== oldval: stored); 0 or -EFAULT; a
 * full barrier, as LOCK CMPXCHG.  Both: Context: any task, never sleep
 * (callable under the bucket lock).
 * futex_fault_in - make *uaddr present and writable: 0 or -EFAULT.
 * Context: task, may sleep.  Locking: none held.
 * futex_key_mm - the address space a futex address belongs to.
 */
static inline int futex_get_value_locked(u32 *dest, const u32 __user *uaddr)
{
	return get_user_u32(dest, uaddr);
}

static inline int futex_cmpxchg_value_locked(u32 *curval, u32 __user *uaddr,
					     u32 oldval, u32 newval)
{
	return futex_atomic_cmpxchg_inatomic(curval, uaddr, oldval, newval);
}

static inline int futex_fault_in(u32 __user *uaddr)
{
	return fault_in_user_writeable(uaddr);
}

static inline const void *futex_key_mm(void)
{
	return current->mm;
}

#endif /* KERNEL_FUTEX_FUTEX_UACCESS_H */
