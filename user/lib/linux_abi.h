/*
 * user/lib/linux_abi.h - the part of Linux's x86_64 user ABI that rtk
 * implements: system call numbers, flag values and struct layouts,
 * exactly Linux's (arch/x86/entry/syscalls/syscall_64.tbl and the uapi
 * headers), so a program built here runs on rtk and on a Linux host.
 *
 * Only what rtk's user library and programs use is listed; user/README.md
 * names the subset.  Values are Linux's, never renumbered: a new call is
 * added with its Linux number.
 */
#ifndef USER_LIB_LINUX_ABI_H
#define USER_LIB_LINUX_ABI_H

#include "lib/types.h"

/* ---- system call numbers (syscall_64.tbl) */
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

/* ---- time (uapi/linux/time.h) */
struct timespec {
	s64 tv_sec;			/* seconds */
	long tv_nsec;			/* 0..999999999 */
};
#define CLOCK_REALTIME		0
#define CLOCK_MONOTONIC		1
#define TIMER_ABSTIME		1	/* clock_nanosleep: request is a deadline */
#define NSEC_PER_USEC		1000L
#define NSEC_PER_MSEC		1000000L
#define NSEC_PER_SEC		1000000000L

/* ---- scheduling (uapi/linux/sched.h, sched/types.h) */
#define SCHED_OTHER		0
#define SCHED_FIFO		1
#define SCHED_RR		2
struct sched_param {
	int sched_priority;		/* 1..99 for SCHED_FIFO/RR, else 0 */
};
/* cpu_set_t's first word: CPU n is bit n (rtk has at most 64 CPUs) */
typedef struct {
	unsigned long bits[1];
} cpu_set_t;

/* ---- clone (uapi/linux/sched.h) */
#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_THREAD		0x00010000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000

/* ---- mmap (uapi/asm-generic/mman-common.h) */
#define PROT_NONE		0x0
#define PROT_READ		0x1
#define PROT_WRITE		0x2
#define PROT_EXEC		0x4
#define MAP_SHARED		0x01
#define MAP_PRIVATE		0x02
#define MAP_FIXED		0x10
#define MAP_ANONYMOUS		0x20
#define MAP_STACK		0x20000
#define MAP_FAILED_MAX_ERRNO	4095	/* a return in [-4095, -1] is -errno */

/* ---- futex (uapi/linux/futex.h) */
#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_LOCK_PI		6
#define FUTEX_UNLOCK_PI		7
#define FUTEX_TRYLOCK_PI	8
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_WAITERS		0x80000000u	/* PI word: the kernel has waiters */
#define FUTEX_OWNER_DIED	0x40000000u	/* PI word: the owner exited */
#define FUTEX_TID_MASK		0x3fffffffu	/* PI word: the owner's TID */

/* ---- arch_prctl (uapi/asm/prctl.h) */
#define ARCH_SET_FS		0x1002
#define ARCH_GET_FS		0x1003

/* ---- kill */
#define SIGKILL			9

#endif /* USER_LIB_LINUX_ABI_H */
