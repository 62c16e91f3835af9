/*
 * kernel/futex/syscalls.c - the futex system call: sys_futex turns the
 * user's timespec into the absolute ktime do_futex takes, do_futex
 * dispatches on the op and its flags to the operation (waitwake.c,
 * pi.c); and the FUTEX_WAKE of a thread's CLONE_CHILD_CLEARTID word at
 * its exit.  The system call sits beside the code it calls, as in Linux.
 * Linux counterpart: kernel/futex/syscalls.c (sys_futex,
 * futex_init_timeout, do_futex, futex_cmd_has_timeout), kernel/fork.c
 * mm_release.
 */
#include "kernel/futex/futex_internal.h"
#include "kernel/user/syscalls.h"
#include "kernel/time/ktime.h"
#include "lib/errno.h"

/*
 * do_futex (futex.h): FUTEX_PRIVATE_FLAG is accepted and changes nothing
 * (futex.h); FUTEX_CLOCK_REALTIME is refused with -ENOSYS, as Linux does
 * for every operation rtk implements (it only takes it with the bitset,
 * requeue-PI and LOCK_PI2 operations).  A NULL uaddr is -EFAULT through
 * the uaccess seam; the alignment check is futex_get_key's.
 * Context: task, may sleep.  Locking: none held.
 */
long do_futex(u32 __user *uaddr, int op, u32 val, ktime_t *abs_timeout,
	      u32 __user *uaddr2, u32 val2, u32 val3)
{
	int cmd = op & FUTEX_CMD_MASK;

	(void)uaddr2;	/* requeue's second futex: not in rtk */
	(void)val2;
	(void)val3;	/* the bitset: not in rtk */
	if (op & FUTEX_CLOCK_REALTIME)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		return futex_wait(uaddr, val, abs_timeout);
	case FUTEX_WAKE:
		return futex_wake(uaddr, (int)val);
	case FUTEX_LOCK_PI:
		return futex_lock_pi(uaddr, abs_timeout, false);
	case FUTEX_UNLOCK_PI:
		return futex_unlock_pi(uaddr);
	case FUTEX_TRYLOCK_PI:
		return futex_lock_pi(uaddr, NULL, true);
	}
	return -ENOSYS;
}

/*
 * sys_futex - the system call: the timeout is relative for FUTEX_WAIT
 * and absolute for FUTEX_LOCK_PI, saturated at KTIME_MAX (ktime.h);
 * -EINVAL for a bad timespec, -EFAULT for a bad pointer.
 * Context: task, may sleep.  Locking: none held.
 */
long sys_futex(u32 __user *uaddr, int op, u32 val,
	       const struct __kernel_timespec __user *utime, u32 __user *uaddr2,
	       u32 val3)
{
	ktime_t abs, *timeout = NULL;
	long ret;
	int cmd = op & FUTEX_CMD_MASK;

	/* the timeout: relative for FUTEX_WAIT, absolute for LOCK_PI (one
	 * clock in rtk); ignored by the others (val2 shares its slot) */
	if (utime && (cmd == FUTEX_WAIT || cmd == FUTEX_LOCK_PI)) {
		ret = get_timespec64_ktime(&abs, utime);
		if (ret)
			return ret;
		if (cmd == FUTEX_WAIT)	/* Linux: futex_init_timeout */
			abs = ktime_add_safe(ktime_get(), abs);
		timeout = &abs;
	}
	return do_futex(uaddr, op, val, timeout, uaddr2,
			(u32)(unsigned long)utime, val3);
}

void futex_wake_tid(u32 __user *uaddr)
{
	do_futex(uaddr, FUTEX_WAKE, 1, NULL, NULL, 0, 0);
}
