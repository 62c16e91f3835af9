/*
 * kernel/futex/syscalls.c - the futex system call: sys_futex turns the
 * user's timespec into the absolute ktime do_futex takes, do_futex
 * dispatches on the op and its flags to the operation (waitwake.c,
 * pi.c, requeue_pi.c); and the FUTEX_WAKE of a thread's
 * CLONE_CHILD_CLEARTID word at its exit.  The system call sits beside the code it calls, as in Linux.
 * Linux counterpart: kernel/futex/syscalls.c (sys_futex,
 * futex_init_timeout, do_futex, futex_cmd_has_timeout), kernel/fork.c
 * mm_release.
 */
#include "kernel/futex/futex_internal.h"
#include "kernel/user/syscalls.h"
#include "kernel/time/ktime.h"
#include "kernel/time/realtime.h"
#include "lib/errno.h"

/*
 * do_futex (futex.h): FUTEX_PRIVATE_FLAG is accepted and changes nothing
 * (futex.h); FUTEX_CLOCK_REALTIME is taken only with FUTEX_WAIT_BITSET
 * and FUTEX_WAIT_REQUEUE_PI (the deadline was converted by sys_futex)
 * and -ENOSYS with any other operation, as Linux's futex_cmd_has_timeout
 * rules (Linux also takes it with LOCK_PI2, which rtk leaves out).  val3
 * is the bitset of FUTEX_WAIT_BITSET and FUTEX_WAKE_BITSET, and the
 * expected *uaddr of FUTEX_CMP_REQUEUE_PI; val2 (the timeout's slot) is
 * its nr_requeue, val its nr_wake (1, or -EINVAL).  A NULL uaddr is
 * -EFAULT through the uaccess seam; the alignment check is
 * futex_get_key's.
 * Context: task, may sleep.  Locking: none held.
 */
long do_futex(u32 __user *uaddr, int op, u32 val, ktime_t *abs_timeout,
	      u32 __user *uaddr2, u32 val2, u32 val3)
{
	int cmd = op & FUTEX_CMD_MASK;

	might_sleep();
	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT_BITSET &&
	    cmd != FUTEX_WAIT_REQUEUE_PI)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		return futex_wait(uaddr, val, abs_timeout,
				  FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE:
		return futex_wake(uaddr, (int)val, FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAIT_BITSET:
		return futex_wait(uaddr, val, abs_timeout, val3);
	case FUTEX_WAKE_BITSET:
		return futex_wake(uaddr, (int)val, val3);
	case FUTEX_LOCK_PI:
		return futex_lock_pi(uaddr, abs_timeout, false);
	case FUTEX_UNLOCK_PI:
		return futex_unlock_pi(uaddr);
	case FUTEX_TRYLOCK_PI:
		return futex_lock_pi(uaddr, NULL, true);
	case FUTEX_WAIT_REQUEUE_PI:
		return futex_wait_requeue_pi(uaddr, val, abs_timeout, uaddr2);
	case FUTEX_CMP_REQUEUE_PI:
		return futex_requeue_pi(uaddr, uaddr2, (int)val, (int)val2,
					val3);
	}
	return -ENOSYS;
}

/*
 * sys_futex - the system call: the timeout is relative for FUTEX_WAIT,
 * absolute for FUTEX_WAIT_BITSET, FUTEX_WAIT_REQUEUE_PI and
 * FUTEX_LOCK_PI, saturated at KTIME_MAX (ktime.h); -EINVAL for a bad timespec, -EFAULT for a bad
 * pointer.  An absolute deadline is on CLOCK_REALTIME for FUTEX_LOCK_PI
 * and for FUTEX_WAIT_BITSET or FUTEX_WAIT_REQUEUE_PI with
 * FUTEX_CLOCK_REALTIME (glibc's
 * pthread_cond_timedwait, pthread_mutex_timedlock), else on
 * CLOCK_MONOTONIC; it becomes a ktime_get() deadline here.  rtk's
 * CLOCK_REALTIME is never set after boot, so the two clocks stay a
 * constant apart and the conversion is exact (Linux's hrtimer on
 * CLOCK_REALTIME also follows a clock_settime).
 * Context: task, may sleep.  Locking: none held.
 */
long sys_futex(u32 __user *uaddr, int op, u32 val,
	       const struct __kernel_timespec __user *utime, u32 __user *uaddr2,
	       u32 val3)
{
	ktime_t abs, *timeout = NULL;
	long ret;
	int cmd = op & FUTEX_CMD_MASK;

	might_sleep();
	/* the timeout: relative for FUTEX_WAIT, absolute for the others
	 * that take one; ignored by the rest (val2 shares its slot) */
	if (utime && (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET ||
		      cmd == FUTEX_WAIT_REQUEUE_PI || cmd == FUTEX_LOCK_PI)) {
		ret = get_timespec64_ktime(&abs, utime);
		if (ret)
			return ret;
		if (cmd == FUTEX_WAIT)	/* Linux: futex_init_timeout */
			abs = ktime_add_safe(ktime_get(), abs);
		else if (cmd == FUTEX_LOCK_PI || (op & FUTEX_CLOCK_REALTIME))
			abs = ktime_real_to_mono(abs);
		timeout = &abs;
	}
	return do_futex(uaddr, op, val, timeout, uaddr2,
			(u32)(unsigned long)utime, val3);
}

void futex_wake_tid(u32 __user *uaddr)
{
	do_futex(uaddr, FUTEX_WAKE, 1, NULL, NULL, 0, 0);
}
