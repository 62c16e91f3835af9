/*
 * kernel/futex/syscalls.c - do_futex, the futex system call's dispatch:
 * the op and its flags, then the operation (waitwake.c, pi.c).
 * user-core's system call table calls do_futex after converting the
 * user's timespec (futex.h says how).
 * Linux counterpart: kernel/futex/syscalls.c (do_futex, futex_cmd_has_timeout).
 */
#include "kernel/futex/futex_internal.h"
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
