/*
 * kernel/futex/futex.h - fast user-space mutexes: the system call's
 * entry (do_futex) and the Linux x86_64 ABI it keeps unchanged.
 *
 * A futex is a u32 in user memory.  User space takes and releases its
 * locks there with atomic instructions alone; the kernel is entered only
 * to sleep (FUTEX_WAIT, FUTEX_LOCK_PI) or to wake (FUTEX_WAKE,
 * FUTEX_UNLOCK_PI).  A PI futex's word holds its owner's TID; the kernel
 * sets FUTEX_WAITERS there while tasks wait, so the owner's user-space
 * unlock fails and comes to FUTEX_UNLOCK_PI.  While contended, an
 * rt_mutex stands in for it and boosts its owner (kernel/futex/pi.c).
 *
 * Files: core.c (the hash of futex queues), waitwake.c (FUTEX_WAIT and
 * FUTEX_WAKE), pi_state.c (the PI state and its rt_mutex), pi.c (the PI
 * operations), pi_exit.c (an exiting owner's hand-over), syscalls.c
 * (sys_futex, do_futex), requeue_pi.c (PI condition variables);
 * futex_uaccess.h is the seam to user memory.  docs/primitives.md maps
 * the operations.
 * Linux counterpart: include/uapi/linux/futex.h, kernel/futex/.  rtk
 * leaves out plain requeue (FUTEX_REQUEUE, FUTEX_CMP_REQUEUE), bitsets,
 * FUTEX_WAKE_OP, FUTEX_LOCK_PI2, futex2, robust lists and
 * FUTEX_OWNER_DIED recovery (the bit is defined and kept, never set), and shared futexes across
 * address spaces (rtk's processes share no memory, so FUTEX_PRIVATE_FLAG
 * changes nothing).
 */
#ifndef KERNEL_FUTEX_FUTEX_H
#define KERNEL_FUTEX_FUTEX_H

#include "lib/types.h"
#include "kernel/time/ktime.h"
#include "kernel/futex/futex_uaccess.h"	/* __user */
#include "kernel/user/uapi.h"	/* FUTEX_* ops, flags and word bits */

/*
 * do_futex - the futex system call.  abs_timeout is an absolute
 * ktime_get() time (NULL: none) for FUTEX_WAIT and FUTEX_LOCK_PI: the
 * system call converts the user's timespec first (relative for
 * FUTEX_WAIT, absolute for FUTEX_LOCK_PI, as Linux's futex_init_timeout;
 * rtk has one clock).  uaddr2, val2 and val3 are the requeue and bitset
 * operations' arguments, which rtk does not implement.
 * Returns: FUTEX_WAIT 0 (woken), -EAGAIN (*uaddr != val), -ETIMEDOUT,
 * -EINTR; FUTEX_WAKE the number woken, -EINVAL on a PI futex;
 * FUTEX_LOCK_PI/TRYLOCK_PI 0 (the caller owns it), -EDEADLK (it already
 * did, or a cycle of PI futexes), -EWOULDBLOCK (trylock of a held futex),
 * -ESRCH (the TID in the word names no task), -ETIMEDOUT, -EINTR;
 * FUTEX_UNLOCK_PI 0, -EPERM (the caller is not the owner);
 * FUTEX_WAIT_REQUEUE_PI and FUTEX_CMP_REQUEUE_PI: requeue_pi.c; every op
 * -EFAULT on a bad address, -EINVAL on a misaligned one, -ENOSYS for an
 * unknown op or FUTEX_CLOCK_REALTIME.
 * Context: task, may sleep.  Locking: none held.
 */
long do_futex(u32 __user *uaddr, int op, u32 val, ktime_t *abs_timeout,
	      u32 __user *uaddr2, u32 val2, u32 val3);

/*
 * exit_pi_state_list - the exiting current hands every contended PI
 * futex it owns to its top waiter (kernel/futex/pi_exit.c has the
 * steps).  Called by do_exit after PF_EXITING is set under current's
 * pi_lock, while current's address space is still there.
 * Context: task, may sleep.  Locking: none held.
 */
void exit_pi_state_list(void);

/* futex_init - the hash of futex queues.  Context: boot, once. */
void futex_init(void);

#endif /* KERNEL_FUTEX_FUTEX_H */
