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
 * THIS IMPLEMENTATION IS TEMPORARY: it works on KERNEL addresses, so the
 * in-kernel tests can run futexes between kernel threads whose words live
 * in kernel memory, before user mode exists.  user-core's uaccess
 * (issue 18 item 2, kernel/user/uaccess.h on its branch) replaces the
 * bodies below and the callers stay as they are:
 *	futex_get_value_locked	  -> get_user_u32
 *	futex_cmpxchg_value_locked -> futex_atomic_cmpxchg_inatomic
 *	futex_fault_in		  -> fault_in_user_writeable
 *	futex_key_mm		  -> current->mm
 * for a task with a user address space; a kernel thread (current->mm
 * NULL, the in-kernel futex suites) keeps the kernel-address access
 * below, as Linux's old set_fs(KERNEL_DS) did, so a user task can never
 * name a kernel address.  Until then the only bad address it recognises
 * is the NULL page.
 */
#ifndef KERNEL_FUTEX_FUTEX_UACCESS_H
#define KERNEL_FUTEX_FUTEX_UACCESS_H

#include "lib/types.h"
#include "lib/errno.h"

#ifndef __user
#define __user		/* the address space marker (sparse's in Linux) */
#endif

/* The NULL page: never mapped, the one fault the kernel-address
 * implementation can see.  4096: the x86-64 small page. */
#define FUTEX_UACCESS_NULL_PAGE 4096u

static inline bool futex_uaccess_bad(const u32 __user *uaddr)
{
	return (uintptr_t)uaddr < FUTEX_UACCESS_NULL_PAGE;
}

/* futex_get_value_locked - *dest = *uaddr; 0 or -EFAULT.  Context: any,
 * does not sleep.  Locking: any. */
static inline int futex_get_value_locked(u32 *dest, const u32 __user *uaddr)
{
	if (futex_uaccess_bad(uaddr))
		return -EFAULT;
	*dest = __atomic_load_n(uaddr, __ATOMIC_ACQUIRE);
	return 0;
}

/* futex_cmpxchg_value_locked - atomically: if *uaddr == oldval, store
 * newval; *curval = the value found (== oldval: stored).  0 or -EFAULT.
 * A full barrier, as LOCK CMPXCHG.  Context: any, does not sleep. */
static inline int futex_cmpxchg_value_locked(u32 *curval, u32 __user *uaddr,
					     u32 oldval, u32 newval)
{
	if (futex_uaccess_bad(uaddr))
		return -EFAULT;
	__atomic_compare_exchange_n(uaddr, &oldval, newval, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	*curval = oldval;
	return 0;
}

/* futex_fault_in - make *uaddr present and writable: 0 or -EFAULT.
 * Context: task, may sleep (user-core's handles a page fault).
 * Locking: none held. */
static inline int futex_fault_in(u32 __user *uaddr)
{
	return futex_uaccess_bad(uaddr) ? -EFAULT : 0;
}

/* futex_key_mm - the address space a futex address belongs to: the
 * caller's mm once user-core gives tasks one; NULL (the kernel's) now. */
static inline const void *futex_key_mm(void)
{
	return NULL;
}

#endif /* KERNEL_FUTEX_FUTEX_UACCESS_H */
