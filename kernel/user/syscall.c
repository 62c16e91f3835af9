/*
 * kernel/user/syscall.c - the system call table: a number (Linux's
 * x86_64 one, uapi.h) to its sys_*() function.  The table is a switch,
 * one case per call with the arguments converted to the function's
 * types: each case greps to its function, and the compiler checks the
 * types (Linux's table of pointers needs SYSCALL_DEFINE's wrappers for
 * that).  An unknown number is -ENOSYS, as in Linux.
 * The file calls are kernel/fs/'s (read_write.c, sys_open.c, stat.c ...).
 * Linux counterpart: arch/x86/entry/syscall_64.c.
 */
#include "kernel/user/syscalls.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

unsigned long syscall_nr_unknown;

/*
 * syscall_interrupted - the restart code of call nr that a signal
 * interrupted: rtk's sleep points end with -EINTR when current's
 * sigpending is set (kernel/signal.h), and how the call then restarts
 * is the call's, as each Linux call decides (the return to user turns
 * the code into -EINTR or a restart, signal_deliver.c):
 *	read, write (pipes, sockets)	-ERESTARTSYS (SA_RESTART restarts)
 *	futex WAIT, WAIT_BITSET		-ERESTARTSYS without a timeout,
 *					else -ERESTART_RESTARTBLOCK
 *	futex LOCK_PI			-ERESTARTNOINTR (never seen: glibc's
 *					mutexes must not fail)
 *	futex WAIT_REQUEUE_PI		-ERESTARTNOINTR (before the requeue;
 *					after it the wait ends -EAGAIN)
 *	poll, ppoll			-ERESTARTNOHAND (-EINTR after a handler)
 *	nanosleep, clock_nanosleep	-ERESTART_RESTARTBLOCK (the same)
 * Anything else keeps -EINTR (rt_sigtimedwait's answer, for one).
 * rtk has no restart_block: a sleep restarted with no handler run
 * (the signal was ignored after it woke the sleeper) starts again with
 * its original arguments, a relative nanosleep for its whole length.
 */
static long syscall_interrupted(unsigned long nr, const unsigned long a[6],
				long ret)
{
	int op = (int)a[1] & FUTEX_CMD_MASK;

	if (ret != -EINTR)
		return ret;
	switch (nr) {
	case __NR_read:
	case __NR_write:
	case __NR_readv:
	case __NR_writev:
	case __NR_pread64:
		return -ERESTARTSYS;
	case __NR_futex:
		if (op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET)
			return a[3] ? -ERESTART_RESTARTBLOCK : -ERESTARTSYS;
		if (op == FUTEX_LOCK_PI || op == FUTEX_WAIT_REQUEUE_PI)
			return -ERESTARTNOINTR;
		return ret;
	case __NR_poll:
	case __NR_ppoll:
		return -ERESTARTNOHAND;
	case __NR_nanosleep:
	case __NR_clock_nanosleep:
		return -ERESTART_RESTARTBLOCK;
	default:
		return ret;
	}
}

static long syscall_call(struct pt_regs *regs, unsigned long nr,
			 const unsigned long a[6]);

long syscall_dispatch(struct pt_regs *regs, unsigned long nr,
		      const unsigned long a[6])
{
	might_sleep();
	return syscall_interrupted(nr, a, syscall_call(regs, nr, a));
}

/* syscall_call - the table. */
static long syscall_call(struct pt_regs *regs, unsigned long nr,
			 const unsigned long a[6])
{
	switch (nr) {
	case __NR_read:
		return sys_read(a[0], (char __user *)a[1], a[2]);
	case __NR_write:
		return sys_write(a[0], (const char __user *)a[1], a[2]);
	case __NR_open:
		return sys_open((const char __user *)a[0], (int)a[1],
				(unsigned int)a[2]);
	case __NR_close:
		return sys_close(a[0]);
	case __NR_stat:
		return sys_stat((const char __user *)a[0],
				(struct stat __user *)a[1]);
	case __NR_fstat:
		return sys_fstat(a[0], (struct stat __user *)a[1]);
	case __NR_lstat:
		return sys_lstat((const char __user *)a[0],
				 (struct stat __user *)a[1]);
	case __NR_poll:
		return sys_poll((struct pollfd __user *)a[0], (unsigned int)a[1],
				(int)a[2]);
	case __NR_lseek:
		return sys_lseek(a[0], (s64)a[1], (unsigned int)a[2]);
	case __NR_rt_sigaction:
		return sys_rt_sigaction((int)a[0],
					(const struct kernel_sigaction __user *)a[1],
					(struct kernel_sigaction __user *)a[2],
					a[3]);
	case __NR_rt_sigprocmask:
		return sys_rt_sigprocmask((int)a[0], (const u64 __user *)a[1],
					  (u64 __user *)a[2], a[3]);
	case __NR_ioctl:
		return sys_ioctl(a[0], (unsigned int)a[1], a[2]);
	case __NR_pread64:
		return sys_pread64(a[0], (char __user *)a[1], a[2], (s64)a[3]);
	case __NR_readv:
		return sys_readv(a[0], (const struct iovec __user *)a[1], a[2]);
	case __NR_writev:
		return sys_writev(a[0], (const struct iovec __user *)a[1], a[2]);
	case __NR_access:
		return sys_access((const char __user *)a[0], (int)a[1]);
	case __NR_dup:
		return sys_dup(a[0]);
	case __NR_dup2:
		return sys_dup2(a[0], a[1]);
	case __NR_uname:
		return sys_uname((struct new_utsname __user *)a[0]);
	case __NR_fcntl:
		return sys_fcntl(a[0], (unsigned int)a[1], a[2]);
	case __NR_ftruncate:
		return sys_ftruncate(a[0], (s64)a[1]);
	case __NR_getcwd:
		return sys_getcwd((char __user *)a[0], a[1]);
	case __NR_chdir:
		return sys_chdir((const char __user *)a[0]);
	case __NR_mkdir:
		return sys_mkdir((const char __user *)a[0], (unsigned int)a[1]);
	case __NR_rmdir:
		return sys_rmdir((const char __user *)a[0]);
	case __NR_unlink:
		return sys_unlink((const char __user *)a[0]);
	case __NR_symlink:
		return sys_symlink((const char __user *)a[0],
				   (const char __user *)a[1]);
	case __NR_readlink:
		return sys_readlink((const char __user *)a[0],
				    (char __user *)a[1], (int)a[2]);
	case __NR_getdents64:
		return sys_getdents64(a[0], (void __user *)a[1],
				      (unsigned int)a[2]);
	case __NR_openat:
		return sys_openat((int)a[0], (const char __user *)a[1],
				  (int)a[2], (unsigned int)a[3]);
	case __NR_mkdirat:
		return sys_mkdirat((int)a[0], (const char __user *)a[1],
				   (unsigned int)a[2]);
	case __NR_newfstatat:
		return sys_newfstatat((int)a[0], (const char __user *)a[1],
				      (struct stat __user *)a[2], (int)a[3]);
	case __NR_unlinkat:
		return sys_unlinkat((int)a[0], (const char __user *)a[1],
				    (int)a[2]);
	case __NR_symlinkat:
		return sys_symlinkat((const char __user *)a[0], (int)a[1],
				     (const char __user *)a[2]);
	case __NR_readlinkat:
		return sys_readlinkat((int)a[0], (const char __user *)a[1],
				      (char __user *)a[2], (int)a[3]);
	case __NR_faccessat:
		return sys_faccessat((int)a[0], (const char __user *)a[1],
				     (int)a[2]);
	case __NR_ppoll:
		return sys_ppoll((struct pollfd __user *)a[0], (unsigned int)a[1],
				 (const struct __kernel_timespec __user *)a[2],
				 (const void __user *)a[3], a[4]);
	case __NR_dup3:
		return sys_dup3(a[0], a[1], (int)a[2]);
	case __NR_mmap:
		return sys_mmap(a[0], a[1], a[2], a[3], a[4], a[5]);
	case __NR_mprotect:
		return sys_mprotect(a[0], a[1], a[2]);
	case __NR_munmap:
		return sys_munmap(a[0], a[1]);
	case __NR_brk:
		return sys_brk(a[0]);
	case __NR_sched_yield:
		return sys_sched_yield();
	case __NR_madvise:
		return sys_madvise(a[0], a[1], (int)a[2]);
	case __NR_nanosleep:
		return sys_nanosleep((const void __user *)a[0], (void __user *)a[1]);
	case __NR_getpid:
		return sys_getpid();
	case __NR_socketpair:
		return sys_socketpair((int)a[0], (int)a[1], (int)a[2],
				      (int __user *)a[3]);
	case __NR_clone:
		return sys_clone(regs, a[0], a[1], (int __user *)a[2],
				 (int __user *)a[3], a[4]);
	case __NR_fork:
		return sys_fork(regs);
	case __NR_vfork:
		return sys_vfork(regs);
	case __NR_wait4:
		return sys_wait4((int)a[0], (int __user *)a[1], (int)a[2],
				 (void __user *)a[3]);
	case __NR_pipe:
		return sys_pipe((int __user *)a[0]);
	case __NR_pipe2:
		return sys_pipe2((int __user *)a[0], (int)a[1]);
	case __NR_exit:
		return sys_exit((int)a[0]);
	case __NR_kill:
		return sys_kill((int)a[0], (int)a[1]);
	case __NR_gettimeofday:
		return sys_gettimeofday((struct __kernel_old_timeval __user *)a[0],
					(struct timezone __user *)a[1]);
	case __NR_getuid:
		return sys_getuid();
	case __NR_getgid:
		return sys_getgid();
	case __NR_geteuid:
		return sys_geteuid();
	case __NR_getegid:
		return sys_getegid();
	case __NR_getppid:
		return sys_getppid();
	case __NR_rt_sigpending:
		return sys_rt_sigpending((u64 __user *)a[0], a[1]);
	case __NR_rt_sigreturn:
		return sys_rt_sigreturn(regs);
	case __NR_pause:
		return sys_pause();
	case __NR_rt_sigtimedwait:
		return sys_rt_sigtimedwait((const u64 __user *)a[0],
					   (struct siginfo __user *)a[1],
					   (const struct __kernel_timespec __user *)a[2],
					   a[3]);
	case __NR_rt_sigsuspend:
		return sys_rt_sigsuspend((const u64 __user *)a[0], a[1]);
	case __NR_sigaltstack:
		return sys_sigaltstack(regs,
				       (const struct sigaltstack_uapi __user *)a[0],
				       (struct sigaltstack_uapi __user *)a[1]);
	case __NR_sched_setparam:
		return sys_sched_setparam((int)a[0], (const void __user *)a[1]);
	case __NR_sched_getparam:
		return sys_sched_getparam((int)a[0], (void __user *)a[1]);
	case __NR_sched_setscheduler:
		return sys_sched_setscheduler((int)a[0], (int)a[1],
					      (const void __user *)a[2]);
	case __NR_sched_getscheduler:
		return sys_sched_getscheduler((int)a[0]);
	case __NR_sched_get_priority_max:
		return sys_sched_get_priority_max((int)a[0]);
	case __NR_sched_get_priority_min:
		return sys_sched_get_priority_min((int)a[0]);
	case __NR_prctl:
		return sys_prctl((int)a[0], a[1]);
	case __NR_mlock:
		return sys_mlock(a[0], a[1]);
	case __NR_munlock:
		return sys_munlock(a[0], a[1]);
	case __NR_mlockall:
		return sys_mlockall((int)a[0]);
	case __NR_munlockall:
		return sys_munlockall();
	case __NR_arch_prctl:
		return sys_arch_prctl((int)a[0], a[1]);
	case __NR_gettid:
		return sys_gettid();
	case __NR_tkill:
		return sys_tkill((int)a[0], (int)a[1]);
	case __NR_time:
		return sys_time((long __user *)a[0]);
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
	case __NR_set_tid_address:
		return sys_set_tid_address((int __user *)a[0]);
	case __NR_clock_gettime:
		return sys_clock_gettime((int)a[0], (void __user *)a[1]);
	case __NR_clock_getres:
		return sys_clock_getres((int)a[0], (void __user *)a[1]);
	case __NR_clock_nanosleep:
		return sys_clock_nanosleep((int)a[0], (int)a[1],
					   (const void __user *)a[2],
					   (void __user *)a[3]);
	case __NR_exit_group:
		return sys_exit_group((int)a[0]);
	case __NR_tgkill:
		return sys_tgkill((int)a[0], (int)a[1], (int)a[2]);
	case __NR_set_robust_list:
		return sys_set_robust_list((void __user *)a[0], a[1]);
	case __NR_get_robust_list:
		return sys_get_robust_list((int)a[0],
					   (void __user *__user *)a[1],
					   (size_t __user *)a[2]);
	case __NR_getrlimit:
		return sys_getrlimit((unsigned int)a[0], (void __user *)a[1]);
	case __NR_setrlimit:
		return sys_setrlimit((unsigned int)a[0],
				     (const void __user *)a[1]);
	case __NR_prlimit64:
		return sys_prlimit64((int)a[0], (unsigned int)a[1],
				     (const void __user *)a[2],
				     (void __user *)a[3]);
	case __NR_execve:
		return sys_execve((const char __user *)a[0],
				  (const char __user *const __user *)a[1],
				  (const char __user *const __user *)a[2]);
	case __NR_execveat:
		return sys_execveat((int)a[0], (const char __user *)a[1],
				    (const char __user *const __user *)a[2],
				    (const char __user *const __user *)a[3],
				    (int)a[4]);
	case __NR_mount:
		return sys_mount((const char __user *)a[0],
				 (const char __user *)a[1],
				 (const char __user *)a[2], a[3],
				 (const void __user *)a[4]);
	case __NR_umount2:
		return sys_umount2((const char __user *)a[0], (int)a[1]);
	case __NR_sync:
		return sys_sync();
	case __NR_reboot:
		return sys_reboot((int)a[0], (int)a[1], (unsigned int)a[2],
				  (void __user *)a[3]);
	default:
		__atomic_fetch_add(&syscall_nr_unknown, 1, __ATOMIC_RELAXED);
		return -ENOSYS;
	}
}
