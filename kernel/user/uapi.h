/*
 * kernel/user/uapi.h - the part of Linux's x86_64 user ABI that rtk
 * implements, as numbers: system call numbers, clock ids, clone, mmap,
 * futex and arch_prctl values, the signals rtk sends.  Values are
 * Linux's, never renumbered: a new call is added with its Linux number.
 *
 * Shared by both sides of the system call boundary: the kernel includes
 * it (kernel/user/, kernel/futex/) and so does the user library
 * (user/lib/linux_abi.h), so a number the kernel dispatches on and the
 * one a program passes cannot disagree (two copies did drift: the user
 * side lacked CLONE_CHILD_SETTID).  Hence numbers, macros and one plain
 * struct only, nothing that names a kernel type: the user library keeps
 * its own struct timespec and struct sched_param (the kernel's
 * kernel/sched/sched.h has another), cpu_set_t and NSEC_PER_*.
 * Linux counterpart: the 64-bit PC's syscall table,
 * include/uapi/linux/{time.h,sched.h,futex.h}, the generic mman
 * and prctl uapi headers.
 */
#ifndef KERNEL_USER_UAPI_H
#define KERNEL_USER_UAPI_H

#include "lib/types.h"

/* System call numbers (syscall_64.tbl).  read and mprotect are not in
 * rtk (-ENOSYS): the user library calls them on a Linux host. */
#define __NR_read			0
#define __NR_write			1
#define __NR_mmap			9
#define __NR_mprotect			10
#define __NR_munmap			11
#define __NR_sched_yield		24
#define __NR_nanosleep			35
#define __NR_getpid			39
#define __NR_clone			56
#define __NR_exit			60
#define __NR_kill			62
#define __NR_sched_setparam		142
#define __NR_sched_getparam		143
#define __NR_sched_setscheduler		144
#define __NR_sched_getscheduler		145
#define __NR_arch_prctl			158
#define __NR_gettid			186
#define __NR_futex			202
#define __NR_sched_setaffinity		203
#define __NR_sched_getaffinity		204
#define __NR_clock_gettime		228
#define __NR_clock_nanosleep		230
#define __NR_exit_group			231
#define __NR_getrlimit			97
#define __NR_setrlimit			160
#define __NR_prlimit64			302

/* struct __kernel_timespec (uapi/linux/time_types.h): 64-bit fields. */
/* Resource limits (include/uapi/asm-generic/resource.h): the numbers,
 * and struct rlimit64, which on x86_64 is also getrlimit's struct
 * rlimit (two unsigned longs). */
#define RLIMIT_CPU		0
#define RLIMIT_FSIZE		1
#define RLIMIT_DATA		2
#define RLIMIT_STACK		3
#define RLIMIT_CORE		4
#define RLIMIT_RSS		5
#define RLIMIT_NPROC		6
#define RLIMIT_NOFILE		7
#define RLIMIT_MEMLOCK		8
#define RLIMIT_AS		9
#define RLIMIT_LOCKS		10
#define RLIMIT_SIGPENDING	11
#define RLIMIT_MSGQUEUE		12
#define RLIMIT_NICE		13
#define RLIMIT_RTPRIO		14
#define RLIMIT_RTTIME		15
#define RLIM_NLIMITS		16
#define RLIM64_INFINITY		(~0ULL)

struct rlimit64 {
	u64 rlim_cur;
	u64 rlim_max;
};

struct __kernel_timespec {
	s64 tv_sec;
	long long tv_nsec;
};

#define CLOCK_REALTIME		0
#define CLOCK_MONOTONIC		1
#define TIMER_ABSTIME		1	/* clock_nanosleep: request is a deadline */

/* clone flags (uapi/linux/sched.h) */
#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_THREAD		0x00010000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000
#define CLONE_CHILD_SETTID	0x01000000
#define CSIGNAL			0x000000ff	/* exit signal: ignored */

/* mmap (Linux's generic uapi mman-common.h, mman.h) */
#define PROT_NONE		0x0
#define PROT_READ		0x1
#define PROT_WRITE		0x2
#define PROT_EXEC		0x4
#define MAP_SHARED		0x01
#define MAP_PRIVATE		0x02
#define MAP_TYPE		0x0f
#define MAP_FIXED		0x10
#define MAP_ANONYMOUS		0x20
#define MAP_STACK		0x20000	/* a hint: rtk ignores it */
#define MAP_FAILED_MAX_ERRNO	4095	/* a return in [-4095, -1] is -errno */

/* futex operations, the low bits of op (uapi/linux/futex.h) */
#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_LOCK_PI		6
#define FUTEX_UNLOCK_PI		7
#define FUTEX_TRYLOCK_PI	8
/* flags or'ed into op */
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_CMD_MASK	(~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
/* the PI futex word */
#define FUTEX_WAITERS		0x80000000u	/* set by the kernel: it has waiters */
#define FUTEX_OWNER_DIED	0x40000000u	/* robust lists, not in rtk */
#define FUTEX_TID_MASK		0x3fffffffu	/* the owner's TID */

/* arch_prctl (uapi/asm/prctl.h) */
#define ARCH_SET_FS		0x1002
#define ARCH_GET_FS		0x1003

/* Signals rtk knows: the ones its faults and kill send. */
#define SIGKILL			9
#define SIGTERM			15

/* wait status (what waitpid() reports), Linux's encoding */
#define W_EXITCODE(code, sig)	(((code) & 0xff) << 8 | ((sig) & 0x7f))

#endif /* KERNEL_USER_UAPI_H */
