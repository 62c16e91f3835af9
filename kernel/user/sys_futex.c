/*
 * kernel/user/sys_futex.c - the futex system call's user side: the
 * user's timespec into the absolute ktime do_futex() takes, and the
 * FUTEX_WAKE of a thread's CLONE_CHILD_CLEARTID word at its exit.
 *
 * The futex code itself (FUTEX_WAIT/WAKE and the PI operations on
 * rt_mutex proxy locking) is kernel/futex/ (do_futex, futex.h).
 * Linux counterpart: kernel/futex/syscalls.c (sys_futex,
 * futex_init_timeout), kernel/fork.c mm_release.
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/time/ktime.h"
#include "kernel/futex/futex.h"
#include "lib/errno.h"

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
