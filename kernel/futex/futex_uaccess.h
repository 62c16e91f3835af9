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
 *	futex_shared_phys	the word's physical address when its page is
 *				shared with other address spaces (the shared
 *				key, kernel/futex/core.c)
 *	futex_get_shared_locked, futex_cmpxchg_shared_locked
 *				the two _locked calls on a shared key's word
 *				through the kernel's direct map, for an exiting
 *				owner that has no user address for it
 *
 * Every access goes through user-core's uaccess (kernel/user/uaccess.h:
 * get_user_u32, futex_atomic_cmpxchg_inatomic, fault_in_user_writeable,
 * user_shared_phys),
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

/*
 * futex_get_shared_locked / futex_cmpxchg_shared_locked - as the _locked
 * calls above, on the word at physical address phys (a shared key's),
 * through the direct map: never a fault.  The page lives while the key
 * has a queued waiter, whose mm holds the page's file
 * (kernel/mm/file_mmap.h); the caller has one.  Linux has no such call:
 * its exiting owner leaves the word to the woken waiter
 * (fixup_pi_state_owner).  Context: any task, never sleep.
 */
static inline int futex_get_shared_locked(u32 *dest, u64 phys)
{
	*dest = __atomic_load_n((u32 *)phys_to_virt(phys), __ATOMIC_SEQ_CST);
	return 0;
}

static inline int futex_cmpxchg_shared_locked(u32 *curval, u64 phys,
					      u32 oldval, u32 newval)
{
	*curval = oldval;
	__atomic_compare_exchange_n((u32 *)phys_to_virt(phys), curval, newval,
				    false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return 0;
}

/* futex_shared_phys - 0 and *phys when uaddr's page is shared, -ENOENT
 * (private) or -EFAULT (unmapped).  Context: task, may sleep.  Locking:
 * none held (takes current's mmap_lock). */
static inline int futex_shared_phys(const u32 __user *uaddr, u64 *phys)
{
	return user_shared_phys(uaddr, phys);
}

#endif /* KERNEL_FUTEX_FUTEX_UACCESS_H */
