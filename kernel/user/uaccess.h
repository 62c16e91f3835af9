/*
 * kernel/user/uaccess.h - reading and writing user memory from the
 * kernel: every user pointer goes through these.  The range check
 * (access_ok) is here, the access itself in the arch's user-copy code,
 * whose faults the exception table turns into -EFAULT: a bad user
 * pointer never oopses the kernel.
 *
 * rtk maps user memory eagerly, so an access never waits for a page to
 * be brought in; these may still be called only where sleeping is
 * allowed (Linux's might_fault()), except the _inatomic ones, which the
 * futex code calls under its raw bucket lock.
 *
 * THE FUTEX CODE'S CONTRACT (kernel/futex/): get_user_u32,
 * futex_atomic_cmpxchg_inatomic and fault_in_user_writeable, with
 * Linux's meanings.
 * Linux counterpart: include/linux/uaccess.h (and the arch's
 * uaccess.h), mm/gup.c fixup_user_fault (fault_in_user_writeable).
 */
#ifndef KERNEL_USER_UACCESS_H
#define KERNEL_USER_UACCESS_H

#include "lib/types.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "arch/x86_64/arch.h"

/* access_ok - does [addr, addr + size) lie in the user half? */
static inline bool access_ok(const void __user *addr, unsigned long size)
{
	unsigned long a = (unsigned long)addr;

	return size <= USER_ADDR_END && a <= USER_ADDR_END - size;
}

/* copy_from_user / copy_to_user - the bytes NOT copied (0: all).
 * Context: task. */
static inline unsigned long copy_from_user(void *to, const void __user *from,
					   unsigned long n)
{
	if (!access_ok(from, n))
		return n;
	return arch_copy_from_user(to, from, n);
}

static inline unsigned long copy_to_user(void __user *to, const void *from,
					 unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	return arch_copy_to_user(to, from, n);
}

/*
 * strncpy_from_user - copy the NUL-terminated string at src, at most n
 * bytes with its NUL, into dst: its length (without the NUL), n when no
 * NUL came within n bytes (the caller's -ENAMETOOLONG), or -EFAULT.
 * One page at a time, so a string that ends just before an unmapped page
 * is read whole.  Context: task.
 */
static inline long strncpy_from_user(char *dst, const char __user *src,
				     long n)
{
	long done = 0;

	while (done < n) {
		unsigned long a = (unsigned long)src + (unsigned long)done;
		long chunk = (long)(PAGE_SIZE - (a & (PAGE_SIZE - 1)));
		const char *nul;

		if (chunk > n - done)
			chunk = n - done;
		if (copy_from_user(dst + done, src + done, (unsigned long)chunk))
			return -EFAULT;
		nul = memchr(dst + done, 0, (size_t)chunk);
		if (nul)
			return nul - dst;
		done += chunk;
	}
	return n;
}

/* get_user_u32 / put_user_u32 - one naturally aligned u32; 0 or -EFAULT.
 * Never sleep: callable with preemption off.  Context: any task. */
static inline int get_user_u32(u32 *val, const u32 __user *uaddr)
{
	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	return arch_get_user_u32(val, uaddr);
}

static inline int put_user_u32(u32 val, u32 __user *uaddr)
{
	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	return arch_put_user_u32(val, uaddr);
}

/* futex_atomic_cmpxchg_inatomic - if *uaddr == oldval store newval
 * (atomically, a full barrier); *uval = the value found.  0 or -EFAULT
 * (and -EINVAL for a misaligned uaddr).  Never sleeps. */
static inline int futex_atomic_cmpxchg_inatomic(u32 *uval, u32 __user *uaddr,
						u32 oldval, u32 newval)
{
	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	if ((unsigned long)uaddr & 3)
		return -EINVAL;
	return arch_futex_atomic_cmpxchg_inatomic(uval, uaddr, oldval, newval);
}

/* fault_in_user_writeable - make uaddr present and writable for current,
 * as Linux's after a failed _inatomic access: with eager mapping there is
 * nothing to bring in, so 0 when it is mapped writable, else -EFAULT.
 * Context: task, may sleep (takes current's mmap_lock). */
int fault_in_user_writeable(u32 __user *uaddr);

#endif /* KERNEL_USER_UACCESS_H */
