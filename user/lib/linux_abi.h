/*
 * user/lib/linux_abi.h - the part of Linux's x86_64 user ABI that rtk
 * implements, as the user library sees it: the numbers and flag values
 * come from kernel/user/uapi.h, shared with the kernel so the two sides
 * cannot disagree; this header adds the structs and values only user
 * space needs (struct timespec, struct sched_param, cpu_set_t), exactly
 * Linux's, so a program built here runs on rtk and on a Linux host.
 *
 * Only what rtk's user library and programs use is listed; user/README.md
 * names the subset.  Values are Linux's, never renumbered: a new call is
 * added with its Linux number.
 */
#ifndef USER_LIB_LINUX_ABI_H
#define USER_LIB_LINUX_ABI_H

#include "lib/types.h"
/* the numbers, shared with the kernel (one copy: see its header) */
#include "kernel/user/uapi.h"

/* ---- time (uapi/linux/time.h) */
struct timespec {
	s64 tv_sec;			/* seconds */
	long tv_nsec;			/* 0..999999999 */
};
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

#endif /* USER_LIB_LINUX_ABI_H */
