/*
 * user/lib/sys.h - system calls from user space: the raw SYSCALL
 * instruction (sys_call0 .. sys_call6) and one typed wrapper per call.
 *
 * The convention is Linux's x86_64 one (the System V ABI supplement,
 * appendix A.2): number in rax, arguments in rdi rsi rdx r10 r8 r9, the
 * result in rax, rcx and r11 clobbered by SYSCALL/SYSRET.
 *
 * Unlike libc, the wrappers return the kernel's value as it is: a
 * negative errno on failure (-EINVAL), never -1 plus a global errno (a
 * program with threads would need errno per thread, which rtk's library
 * has no use for).  The names and argument orders are libc's.
 */
#ifndef USER_LIB_SYS_H
#define USER_LIB_SYS_H

#include "user/lib/linux_abi.h"
#include "lib/compiler.h"

static inline long sys_call0(long nr)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr) : "rcx", "r11", "memory");
	return ret;
}

static inline long sys_call1(long nr, long a1)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a1)
		     : "rcx", "r11", "memory");
	return ret;
}

static inline long sys_call2(long nr, long a1, long a2)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a1), "S"(a2)
		     : "rcx", "r11", "memory");
	return ret;
}

static inline long sys_call3(long nr, long a1, long a2, long a3)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a1), "S"(a2), "d"(a3)
		     : "rcx", "r11", "memory");
	return ret;
}

static inline long sys_call4(long nr, long a1, long a2, long a3, long a4)
{
	register long r10 asm("r10") = a4;
	long ret;

	asm volatile("syscall" : "=a"(ret)
		     : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10)
		     : "rcx", "r11", "memory");
	return ret;
}

static inline long sys_call5(long nr, long a1, long a2, long a3, long a4,
			     long a5)
{
	register long r10 asm("r10") = a4;
	register long r8 asm("r8") = a5;
	long ret;

	asm volatile("syscall" : "=a"(ret)
		     : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8)
		     : "rcx", "r11", "memory");
	return ret;
}

static inline long sys_call6(long nr, long a1, long a2, long a3, long a4,
			     long a5, long a6)
{
	register long r10 asm("r10") = a4;
	register long r8 asm("r8") = a5;
	register long r9 asm("r9") = a6;
	long ret;

	asm volatile("syscall" : "=a"(ret)
		     : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8),
		       "r"(r9)
		     : "rcx", "r11", "memory");
	return ret;
}

/* ---- the wrappers, in syscall-number order */

static inline ssize_t write(int fd, const void *buf, size_t count)
{
	return sys_call3(__NR_write, fd, (long)buf, (long)count);
}

/* mmap - returns the address, or a negative errno as a pointer: test
 * with mmap_failed(). */
static inline void *mmap(void *addr, size_t len, int prot, int flags, int fd,
			 long off)
{
	return (void *)sys_call6(__NR_mmap, (long)addr, (long)len, prot, flags,
				 fd, off);
}

static inline bool mmap_failed(const void *p)
{
	return (unsigned long)p >= -(unsigned long)MAP_FAILED_MAX_ERRNO;
}

static inline int munmap(void *addr, size_t len)
{
	return sys_call2(__NR_munmap, (long)addr, (long)len);
}

static inline int sched_yield(void)
{
	return sys_call0(__NR_sched_yield);
}

static inline int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return sys_call2(__NR_nanosleep, (long)req, (long)rem);
}

static inline int getpid(void)
{
	return sys_call0(__NR_getpid);
}

/* exit - end the calling thread only (exit_group ends the process). */
static inline __noreturn void sys_exit(int status)
{
	for (;;)
		sys_call1(__NR_exit, status);
}

static inline int kill(int pid, int sig)
{
	return sys_call2(__NR_kill, pid, sig);
}

static inline int sched_setparam(int pid, const struct sched_param *p)
{
	return sys_call2(__NR_sched_setparam, pid, (long)p);
}

static inline int sched_getparam(int pid, struct sched_param *p)
{
	return sys_call2(__NR_sched_getparam, pid, (long)p);
}

static inline int sched_setscheduler(int pid, int policy,
				     const struct sched_param *p)
{
	return sys_call3(__NR_sched_setscheduler, pid, policy, (long)p);
}

/* prlimit64 / getrlimit / setrlimit - Linux's (struct rlimit64 in
 * kernel/user/uapi.h; getrlimit's struct rlimit has its layout). */
static inline int prlimit64(int pid, int resource, const struct rlimit64 *new,
			    struct rlimit64 *old)
{
	return sys_call4(__NR_prlimit64, pid, resource, (long)new, (long)old);
}

static inline int getrlimit(int resource, struct rlimit64 *rlim)
{
	return sys_call2(__NR_getrlimit, resource, (long)rlim);
}

static inline int setrlimit(int resource, const struct rlimit64 *rlim)
{
	return sys_call2(__NR_setrlimit, resource, (long)rlim);
}

static inline int sched_getscheduler(int pid)
{
	return sys_call1(__NR_sched_getscheduler, pid);
}

static inline int arch_prctl(int code, unsigned long addr)
{
	return sys_call2(__NR_arch_prctl, code, (long)addr);
}

static inline int gettid(void)
{
	return sys_call0(__NR_gettid);
}

/* futex - the raw call; user/lib/pthread_mutex.c and pthread.c use it. */
static inline long futex(u32 *uaddr, int op, u32 val,
			 const struct timespec *timeout, u32 *uaddr2, u32 val3)
{
	return sys_call6(__NR_futex, (long)uaddr, op, val, (long)timeout,
			 (long)uaddr2, val3);
}

static inline int sched_setaffinity(int pid, size_t size, const cpu_set_t *set)
{
	return sys_call3(__NR_sched_setaffinity, pid, (long)size, (long)set);
}

/* sched_getaffinity - Linux returns the bytes written (> 0) on success */
static inline int sched_getaffinity(int pid, size_t size, cpu_set_t *set)
{
	return sys_call3(__NR_sched_getaffinity, pid, (long)size, (long)set);
}

static inline int clock_gettime(int clk, struct timespec *ts)
{
	return sys_call2(__NR_clock_gettime, clk, (long)ts);
}

/* clock_nanosleep - like the syscall, returns 0 or a negative errno */
static inline int clock_nanosleep(int clk, int flags,
				  const struct timespec *req,
				  struct timespec *rem)
{
	return sys_call4(__NR_clock_nanosleep, clk, flags, (long)req, (long)rem);
}

static inline __noreturn void exit_group(int status)
{
	for (;;)
		sys_call1(__NR_exit_group, status);
}

#endif /* USER_LIB_SYS_H */
