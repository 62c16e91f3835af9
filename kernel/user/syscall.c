/*
 * kernel/user/syscall.c - the system call table: a number (Linux's
 * x86_64 one, uapi.h) to its sys_*() function.  The table is a switch,
 * one case per call with the arguments converted to the function's
 * types: each case greps to its function, and the compiler checks the
 * types (Linux's table of pointers needs SYSCALL_DEFINE's wrappers for
 * that).  An unknown number is -ENOSYS, as in Linux.
 * Also here: write(2), the one I/O call -- fd 1 and 2 go to the console.
 * Linux counterpart: arch/x86/entry/syscall_64.c, fs/read_write.c.
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/sched/sched.h"
#include "kernel/printk.h"
#include "lib/errno.h"

unsigned long syscall_nr_unknown;

/* Bytes write() copies per chunk: a stack buffer, small enough for a
 * kernel stack, large enough that a line is one console write. */
#define WRITE_CHUNK 256

long sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	char kbuf[WRITE_CHUNK];
	size_t done = 0;

	might_sleep();
	if (fd != 1 && fd != 2)
		return -EBADF;
	if (!access_ok(buf, count))
		return -EFAULT;
	while (done < count) {
		size_t chunk = count - done < WRITE_CHUNK ? count - done : WRITE_CHUNK;
		size_t left = copy_from_user(kbuf, buf + done, chunk);

		console_write(kbuf, chunk - left);
		done += chunk - left;
		if (left)
			return done ? (long)done : -EFAULT;
	}
	return (long)done;
}

long syscall_dispatch(struct pt_regs *regs, unsigned long nr,
		      const unsigned long a[6])
{
	might_sleep();
	switch (nr) {
	case __NR_write:
		return sys_write(a[0], (const char __user *)a[1], a[2]);
	case __NR_mmap:
		return sys_mmap(a[0], a[1], a[2], a[3], a[4], a[5]);
	case __NR_munmap:
		return sys_munmap(a[0], a[1]);
	case __NR_sched_yield:
		return sys_sched_yield();
	case __NR_nanosleep:
		return sys_nanosleep((const void __user *)a[0], (void __user *)a[1]);
	case __NR_getpid:
		return sys_getpid();
	case __NR_clone:
		return sys_clone(regs, a[0], a[1], (int __user *)a[2],
				 (int __user *)a[3], a[4]);
	case __NR_exit:
		return sys_exit((int)a[0]);
	case __NR_kill:
		return sys_kill((int)a[0], (int)a[1]);
	case __NR_sched_setparam:
		return sys_sched_setparam((int)a[0], (const void __user *)a[1]);
	case __NR_sched_getparam:
		return sys_sched_getparam((int)a[0], (void __user *)a[1]);
	case __NR_sched_setscheduler:
		return sys_sched_setscheduler((int)a[0], (int)a[1],
					      (const void __user *)a[2]);
	case __NR_sched_getscheduler:
		return sys_sched_getscheduler((int)a[0]);
	case __NR_arch_prctl:
		return sys_arch_prctl((int)a[0], a[1]);
	case __NR_gettid:
		return sys_gettid();
	case __NR_futex:
		return sys_futex((u32 __user *)a[0], (int)a[1], (u32)a[2],
				 (const void __user *)a[3], (u32 __user *)a[4],
				 (u32)a[5]);
	case __NR_sched_setaffinity:
		return sys_sched_setaffinity((int)a[0], (unsigned int)a[1],
					     (const unsigned long __user *)a[2]);
	case __NR_sched_getaffinity:
		return sys_sched_getaffinity((int)a[0], (unsigned int)a[1],
					     (unsigned long __user *)a[2]);
	case __NR_clock_gettime:
		return sys_clock_gettime((int)a[0], (void __user *)a[1]);
	case __NR_clock_nanosleep:
		return sys_clock_nanosleep((int)a[0], (int)a[1],
					   (const void __user *)a[2],
					   (void __user *)a[3]);
	case __NR_exit_group:
		return sys_exit_group((int)a[0]);
	case __NR_getrlimit:
		return sys_getrlimit((unsigned int)a[0], (void __user *)a[1]);
	case __NR_setrlimit:
		return sys_setrlimit((unsigned int)a[0],
				     (const void __user *)a[1]);
	case __NR_prlimit64:
		return sys_prlimit64((int)a[0], (unsigned int)a[1],
				     (const void __user *)a[2],
				     (void __user *)a[3]);
	default:
		__atomic_fetch_add(&syscall_nr_unknown, 1, __ATOMIC_RELAXED);
		return -ENOSYS;
	}
}
