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

static inline ssize_t read(int fd, void *buf, size_t count)
{
	return sys_call3(__NR_read, fd, (long)buf, (long)count);
}

static inline ssize_t write(int fd, const void *buf, size_t count)
{
	return sys_call3(__NR_write, fd, (long)buf, (long)count);
}

/* open - the fd or -errno (mode used with O_CREAT) */
static inline int open(const char *path, int flags, int mode)
{
	return sys_call3(__NR_open, (long)path, flags, mode);
}

static inline int close(int fd)
{
	return sys_call1(__NR_close, fd);
}

static inline int stat(const char *path, struct stat *st)
{
	return sys_call2(__NR_stat, (long)path, (long)st);
}

static inline int fstat(int fd, struct stat *st)
{
	return sys_call2(__NR_fstat, fd, (long)st);
}

static inline int lstat(const char *path, struct stat *st)
{
	return sys_call2(__NR_lstat, (long)path, (long)st);
}

/* poll - the number of fds with revents, 0 on timeout (ms; < 0: none) */
static inline int poll(struct pollfd *fds, unsigned int nfds, int timeout)
{
	return sys_call3(__NR_poll, (long)fds, nfds, timeout);
}

static inline long lseek(int fd, long offset, int whence)
{
	return sys_call3(__NR_lseek, fd, offset, whence);
}

static inline int ioctl(int fd, unsigned long cmd, void *arg)
{
	return sys_call3(__NR_ioctl, fd, (long)cmd, (long)arg);
}

static inline ssize_t pread64(int fd, void *buf, size_t count, long pos)
{
	return sys_call4(__NR_pread64, fd, (long)buf, (long)count, pos);
}

static inline int access(const char *path, int mode)
{
	return sys_call2(__NR_access, (long)path, mode);
}

static inline int dup(int fd)
{
	return sys_call1(__NR_dup, fd);
}

static inline int dup2(int oldfd, int newfd)
{
	return sys_call2(__NR_dup2, oldfd, newfd);
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

static inline int mprotect(void *addr, size_t len, int prot)
{
	return sys_call3(__NR_mprotect, (long)addr, (long)len, prot);
}

static inline int munmap(void *addr, size_t len)
{
	return sys_call2(__NR_munmap, (long)addr, (long)len);
}

/* sys_brk - the raw call: the new break, or the old one when refused
 * (glibc's brk/sbrk wrap it) */
static inline unsigned long sys_brk(unsigned long brk)
{
	return (unsigned long)sys_call1(__NR_brk, (long)brk);
}

static inline int sched_yield(void)
{
	return sys_call0(__NR_sched_yield);
}

static inline int madvise(void *addr, size_t len, int advice)
{
	return sys_call3(__NR_madvise, (long)addr, (long)len, advice);
}

static inline int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return sys_call2(__NR_nanosleep, (long)req, (long)rem);
}

static inline int getpid(void)
{
	return sys_call0(__NR_getpid);
}

static inline int socketpair(int domain, int type, int protocol, int sv[2])
{
	return sys_call4(__NR_socketpair, domain, type, protocol, (long)sv);
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

static inline int fcntl(int fd, int cmd, long arg)
{
	return sys_call3(__NR_fcntl, fd, cmd, arg);
}

static inline int ftruncate(int fd, long length)
{
	return sys_call2(__NR_ftruncate, fd, length);
}

/* getcwd - the raw call: the length with the NUL, or -errno */
static inline long getcwd(char *buf, size_t size)
{
	return sys_call2(__NR_getcwd, (long)buf, (long)size);
}

static inline int chdir(const char *path)
{
	return sys_call1(__NR_chdir, (long)path);
}

static inline int mkdir(const char *path, int mode)
{
	return sys_call2(__NR_mkdir, (long)path, mode);
}

static inline int rmdir(const char *path)
{
	return sys_call1(__NR_rmdir, (long)path);
}

static inline int unlink(const char *path)
{
	return sys_call1(__NR_unlink, (long)path);
}

static inline int symlink(const char *target, const char *path)
{
	return sys_call2(__NR_symlink, (long)target, (long)path);
}

static inline ssize_t readlink(const char *path, char *buf, size_t size)
{
	return sys_call3(__NR_readlink, (long)path, (long)buf, (long)size);
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

static inline int mlock(const void *addr, size_t len)
{
	return sys_call2(__NR_mlock, (long)addr, (long)len);
}

static inline int munlock(const void *addr, size_t len)
{
	return sys_call2(__NR_munlock, (long)addr, (long)len);
}

static inline int mlockall(int flags)
{
	return sys_call1(__NR_mlockall, flags);
}

static inline int munlockall(void)
{
	return sys_call0(__NR_munlockall);
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

static inline int clock_getres(int clk, struct timespec *ts)
{
	return sys_call2(__NR_clock_getres, clk, (long)ts);
}

/* clock_nanosleep - like the syscall, returns 0 or a negative errno */
static inline int clock_nanosleep(int clk, int flags,
				  const struct timespec *req,
				  struct timespec *rem)
{
	return sys_call4(__NR_clock_nanosleep, clk, flags, (long)req, (long)rem);
}

static inline long getdents64(int fd, void *buf, size_t count)
{
	return sys_call3(__NR_getdents64, fd, (long)buf, (long)count);
}

static inline int openat(int dfd, const char *path, int flags, int mode)
{
	return sys_call4(__NR_openat, dfd, (long)path, flags, mode);
}

static inline int mkdirat(int dfd, const char *path, int mode)
{
	return sys_call3(__NR_mkdirat, dfd, (long)path, mode);
}

static inline int newfstatat(int dfd, const char *path, struct stat *st,
			     int flags)
{
	return sys_call4(__NR_newfstatat, dfd, (long)path, (long)st, flags);
}

static inline int unlinkat(int dfd, const char *path, int flags)
{
	return sys_call3(__NR_unlinkat, dfd, (long)path, flags);
}

static inline int symlinkat(const char *target, int dfd, const char *path)
{
	return sys_call3(__NR_symlinkat, (long)target, dfd, (long)path);
}

static inline ssize_t readlinkat(int dfd, const char *path, char *buf,
				 size_t size)
{
	return sys_call4(__NR_readlinkat, dfd, (long)path, (long)buf,
			 (long)size);
}

static inline int faccessat(int dfd, const char *path, int mode)
{
	return sys_call3(__NR_faccessat, dfd, (long)path, mode);
}

/* ppoll - tmo NULL: no timeout; sigmask of sigsetsize bytes (8) */
static inline int ppoll(struct pollfd *fds, unsigned int nfds,
			const struct timespec *tmo, const void *sigmask,
			size_t sigsetsize)
{
	return sys_call5(__NR_ppoll, (long)fds, nfds, (long)tmo,
			 (long)sigmask, (long)sigsetsize);
}

static inline int dup3(int oldfd, int newfd, int flags)
{
	return sys_call3(__NR_dup3, oldfd, newfd, flags);
}

static inline __noreturn void exit_group(int status)
{
	for (;;)
		sys_call1(__NR_exit_group, status);
}

/* ---- processes and pipes (issue 30) */
static inline int pipe(int *fds)
{
	return sys_call1(__NR_pipe, (long)fds);
}

static inline int pipe2(int *fds, int flags)
{
	return sys_call2(__NR_pipe2, (long)fds, flags);
}

/* fork - the raw call: the child's pid in the parent, 0 in the child.
 * Inlined, so the child returns from nothing it did not copy. */
static __always_inline int fork(void)
{
	return sys_call0(__NR_fork);
}

/* vfork - on Linux the child borrows the parent's memory and stack
 * until it execs or exits: call it only as `if (!vfork()) _exit()`. */
static __always_inline int vfork(void)
{
	return sys_call0(__NR_vfork);
}

/* clone_process - clone(2) without a new stack (a fork with flags):
 * Linux's argument order on x86_64 (flags, newsp, parent_tid,
 * child_tid, tls). */
static __always_inline long clone_process(unsigned long flags, int *ptid,
					  int *ctid, unsigned long tls)
{
	return sys_call5(__NR_clone, (long)flags, 0, (long)ptid, (long)ctid,
			 (long)tls);
}

static inline int wait4(int pid, int *status, int options, void *rusage)
{
	return sys_call4(__NR_wait4, pid, (long)status, options, (long)rusage);
}

static inline int waitpid(int pid, int *status, int options)
{
	return wait4(pid, status, options, NULL);
}

static inline int getppid(void)
{
	return sys_call0(__NR_getppid);
}

/* the wait status, as <sys/wait.h> decodes it */
#define WIFEXITED(s)		(((s) & 0x7f) == 0)
#define WEXITSTATUS(s)		(((s) >> 8) & 0xff)
#define WIFSIGNALED(s)		(((s) & 0x7f) != 0 && ((s) & 0x7f) != 0x7f)
#define WTERMSIG(s)		((s) & 0x7f)

/* set_sigaction - rt_sigaction with the kernel's struct (sigsetsize 8) */
static inline long set_sigaction(int sig, const struct kernel_sigaction *act,
				 struct kernel_sigaction *old)
{
	return sys_call4(__NR_rt_sigaction, sig, (long)act, (long)old, 8);
}

#endif /* USER_LIB_SYS_H */
