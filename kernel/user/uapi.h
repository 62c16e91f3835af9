/*
 * kernel/user/uapi.h - the kernel's view of the part of Linux's x86_64
 * user ABI that rtk implements: system call numbers, flags, structure
 * layouts.  Values are Linux's, never renumbered (user/lib/linux_abi.h is
 * the user side of the same ABI; the kernel cannot include it, its
 * struct sched_param would clash with kernel/sched/sched.h's).
 * Linux counterpart: arch/x86/entry/syscalls/syscall_64.tbl,
 * include/uapi/linux/{time.h,sched.h}, uapi/asm-generic/mman-common.h,
 * uapi/asm/prctl.h, uapi/asm-generic/errno-base.h.
 */
#ifndef KERNEL_USER_UAPI_H
#define KERNEL_USER_UAPI_H

#include "lib/types.h"

/* System call numbers (syscall_64.tbl). */
#define __NR_write			1
#define __NR_mmap			9
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

/* struct __kernel_timespec (uapi/linux/time_types.h): 64-bit fields. */
struct __kernel_timespec {
	s64 tv_sec;
	long long tv_nsec;
};

#define CLOCK_REALTIME		0
#define CLOCK_MONOTONIC		1
#define TIMER_ABSTIME		1

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

/* mmap (uapi/asm-generic/mman-common.h, mman.h) */
#define PROT_READ		0x1
#define PROT_WRITE		0x2
#define PROT_EXEC		0x4
#define MAP_SHARED		0x01
#define MAP_PRIVATE		0x02
#define MAP_TYPE		0x0f
#define MAP_FIXED		0x10
#define MAP_ANONYMOUS		0x20

/* arch_prctl (uapi/asm/prctl.h) */
#define ARCH_SET_FS		0x1002
#define ARCH_GET_FS		0x1003

/* Signals rtk knows: the ones its faults and kill send. */
#define SIGKILL			9
#define SIGTERM			15

/* wait status (what waitpid() reports), Linux's encoding */
#define W_EXITCODE(code, sig)	(((code) & 0xff) << 8 | ((sig) & 0x7f))

#endif /* KERNEL_USER_UAPI_H */
