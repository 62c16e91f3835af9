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
 * The kernel-address access below is for the in-kernel tests: their
 * kernel threads (current->mm NULL) run futexes on words in kernel
 * memory, as Linux's old set_fs(KERNEL_DS) allowed; a task with a user
 * address space always goes through user-core's uaccess
 * (kernel/user/uaccess.h: get_user_u32, futex_atomic_cmpxchg_inatomic,
 * fault_in_user_writeable), so it can never name a kernel address.  The
 * kernel-address access recognises only the NULL page as bad.
 */
#ifndef KERNEL_FUTEX_FUTEX_UACCESS_H
#define KERNEL_FUTEX_FUTEX_UACCESS_H

#include "lib/types.h"
#include "lib/errno.h"
#include "kernel/user/uaccess.h"	/* __user, get_user_u32, ... */
#include "kernel/sched/sched.h"		/* current->mm */

/* The NULL page: never mapped, the one fault the kernel-address
 * implementation can see.  4096: the x86-64 small page. */
#define FUTEX_UACCESS_NULL_PAGE 4096u

static inline bool futex_uaccess_bad(const u32 __user *uaddr)
{
	return (uintptr_t)uaddr < FUTEX_UACCESS_NULL_PAGE;
}

/* The kernel-address access: the in-kernel suites' kernel threads. */
static inline int futex_kernel_get_value(u32 *dest, const u32 *kaddr)
{
	if (futex_uaccess_bad(kaddr))
		return -EFAULT;
	*dest = __atomic_load_n(kaddr, __ATOMIC_ACQUIRE);
	return 0;
}

static inline int futex_kernel_cmpxchg_value(u32 *curval, u32 *kaddr,
					     u32 oldval, u32 newval)
{
	if (futex_uaccess_bad(kaddr))
		return -EFAULT;
	__atomic_compare_exchange_n(kaddr, &oldval, newval, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	*curval = oldval;
	return 0;
}

/*
 * The seam.  futex_get_value_locked - *dest = *uaddr; 0 or -EFAULT.
 * futex_cmpxchg_value_locked - atomically: if *uaddr == oldval, store
 * newval; *curval = the value found (== oldval: stored); 0 or -EFAULT; a
 * full barrier, as LOCK CMPXCHG.  Both: Context: any task, never sleep
 * (callable under the bucket lock).
 * futex_fault_in - make *uaddr present and writable: 0 or -EFAULT.
 * Context: task, may sleep.  Locking: none held.
 * futex_key_mm - the address space a futex address belongs to.
 * A kernel thread (current->mm NULL: the in-kernel suites) uses the
 * kernel-address access above, a task with a user address space
 * user-core's uaccess.
 */
static inline int futex_get_value_locked(u32 *dest, const u32 __user *uaddr)
{
	if (!current->mm)
		return futex_kernel_get_value(dest, (const u32 *)uaddr);
	return get_user_u32(dest, uaddr);
}

static inline int futex_cmpxchg_value_locked(u32 *curval, u32 __user *uaddr,
					     u32 oldval, u32 newval)
{
	if (!current->mm)
		return futex_kernel_cmpxchg_value(curval, (u32 *)uaddr,
						  oldval, newval);
	return futex_atomic_cmpxchg_inatomic(curval, uaddr, oldval, newval);
}

static inline int futex_fault_in(u32 __user *uaddr)
{
	if (!current->mm)
		return futex_uaccess_bad(uaddr) ? -EFAULT : 0;
	return fault_in_user_writeable(uaddr);
}

static inline const void *futex_key_mm(void)
{
	return current->mm;
}

#endif /* KERNEL_FUTEX_FUTEX_UACCESS_H */
