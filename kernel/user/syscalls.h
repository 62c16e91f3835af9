/*
 * kernel/user/syscalls.h - every system call rtk implements, with
 * Linux's name and argument types; syscall_dispatch (syscall.c) calls
 * them by number.  Each returns a value >= 0 or -errno.
 * Linux counterpart: include/linux/syscalls.h.
 */
#ifndef KERNEL_USER_SYSCALLS_H
#define KERNEL_USER_SYSCALLS_H

#include "lib/types.h"
#include "kernel/user/uapi.h"
#include "arch/x86_64/arch.h"
#include "kernel/sched/sched.h"	/* struct sched_param */
#include "kernel/time/ktime.h"

/* kernel/fs/read_write.c */
long sys_read(unsigned int fd, char __user *buf, size_t count);
long sys_write(unsigned int fd, const char __user *buf, size_t count);
long sys_pread64(unsigned int fd, char __user *buf, size_t count, s64 pos);
long sys_lseek(unsigned int fd, s64 offset, unsigned int whence);
/* kernel/fs/read_write_vec.c */
long sys_readv(unsigned long fd, const struct iovec __user *vec,
	       unsigned long vlen);
long sys_writev(unsigned long fd, const struct iovec __user *vec,
		unsigned long vlen);
/* kernel/fs/poll.c */
long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_msecs);
long sys_ppoll(struct pollfd __user *ufds, unsigned int nfds,
	       const struct __kernel_timespec __user *tsp,
	       const void __user *sigmask, size_t sigsetsize);
/* kernel/fs/af_unix.c */
long sys_socketpair(int family, int type, int protocol, int __user *usockvec);
/* kernel/fs/sys_open.c */
long do_sys_openat(int dfd, const char __user *filename, int flags,
		   unsigned int mode);
long sys_open(const char __user *filename, int flags, unsigned int mode);
long sys_openat(int dfd, const char __user *filename, int flags,
		unsigned int mode);
long sys_close(unsigned int fd);
long sys_ftruncate(unsigned int fd, s64 length);
long sys_faccessat(int dfd, const char __user *filename, int mode);
long sys_access(const char __user *filename, int mode);
/* kernel/fs/cwd.c */
long sys_chdir(const char __user *filename);
long sys_getcwd(char __user *buf, unsigned long size);
/* kernel/fs/stat.c */
long sys_newfstatat(int dfd, const char __user *filename,
		    struct stat __user *statbuf, int flag);
long sys_stat(const char __user *filename, struct stat __user *statbuf);
long sys_lstat(const char __user *filename, struct stat __user *statbuf);
long sys_fstat(unsigned int fd, struct stat __user *statbuf);
long sys_readlinkat(int dfd, const char __user *pathname, char __user *buf,
		    int bufsiz);
long sys_readlink(const char __user *path, char __user *buf, int bufsiz);
/* kernel/fs/readdir.c */
long sys_getdents64(unsigned int fd, void __user *dirent, unsigned int count);
/* kernel/fs/fcntl.c */
long sys_dup(unsigned int fildes);
long sys_dup2(unsigned int oldfd, unsigned int newfd);
long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags);
long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg);
long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg);
/* kernel/fs/sys_namei.c */
long sys_mkdirat(int dfd, const char __user *pathname, unsigned int mode);
long sys_mkdir(const char __user *pathname, unsigned int mode);
long sys_unlinkat(int dfd, const char __user *pathname, int flag);
long sys_unlink(const char __user *pathname);
long sys_rmdir(const char __user *pathname);
long sys_symlinkat(const char __user *oldname, int newdfd,
		   const char __user *newname);
long sys_symlink(const char __user *oldname, const char __user *newname);
/* sys_process.c */
long sys_exit(int code);
long sys_exit_group(int code);
long sys_getpid(void);
long sys_gettid(void);
long sys_clone(struct pt_regs *regs, unsigned long flags, unsigned long newsp,
	       int __user *parent_tid, int __user *child_tid, unsigned long tls);
long sys_arch_prctl(int code, unsigned long addr);
long sys_set_tid_address(int __user *tidptr);
long sys_set_robust_list(void __user *head, size_t len);
long sys_get_robust_list(int pid, void __user *__user *head_ptr,
			 size_t __user *len_ptr);
/* exec.c */
long sys_execve(const char __user *filename,
		const char __user *const __user *argv,
		const char __user *const __user *envp);
long sys_execveat(int fd, const char __user *filename,
		  const char __user *const __user *argv,
		  const char __user *const __user *envp, int flags);
/* kernel/fs/sys_mount.c */
long sys_mount(const char __user *dev_name, const char __user *dir_name,
	       const char __user *type, unsigned long flags,
	       const void __user *data);
long sys_umount2(const char __user *name, int flags);
long sys_sync(void);
/* sys_reboot.c */
long sys_reboot(int magic1, int magic2, unsigned int cmd, void __user *arg);
/* sys_signal.c */
long sys_kill(int pid, int sig);
long sys_tkill(int pid, int sig);
long sys_tgkill(int tgid, int pid, int sig);
long sys_rt_sigaction(int sig, const struct kernel_sigaction __user *act,
		      struct kernel_sigaction __user *oact, size_t sigsetsize);
long sys_rt_sigprocmask(int how, const u64 __user *nset, u64 __user *oset,
			size_t sigsetsize);
long sys_rt_sigpending(u64 __user *uset, size_t sigsetsize);
/* sys_sigwait.c */
long sys_rt_sigsuspend(const u64 __user *unewset, size_t sigsetsize);
long sys_pause(void);
long sys_rt_sigtimedwait(const u64 __user *uthese, struct siginfo __user *uinfo,
			 const struct __kernel_timespec __user *uts,
			 size_t sigsetsize);
long sys_sigaltstack(struct pt_regs *regs,
		     const struct sigaltstack_uapi __user *uss,
		     struct sigaltstack_uapi __user *uoss);
long sys_rt_sigreturn(struct pt_regs *regs);
/* sys_info.c */
long sys_uname(struct new_utsname __user *name);
long sys_getuid(void);
long sys_geteuid(void);
long sys_getgid(void);
long sys_getegid(void);
long sys_getppid(void);
/* the process tree (fork.c, wait.c, process_tree.c) and pipes
 * (kernel/fs/pipe.c) */
long do_fork(struct pt_regs *regs, unsigned long flags, unsigned long newsp,
	     int __user *parent_tid, int __user *child_tid, unsigned long tls);
long sys_fork(struct pt_regs *regs);
long sys_vfork(struct pt_regs *regs);
long sys_wait4(int pid, int __user *stat_addr, int options,
	       void __user *rusage);
long sys_pipe(int __user *fildes);
long sys_pipe2(int __user *fildes, int flags);
long sys_prctl(int option, unsigned long arg2);
/* rlimit.c */
long sys_prlimit64(int pid, unsigned int resource,
		   const struct rlimit64 __user *new_rlim,
		   struct rlimit64 __user *old_rlim);
long sys_getrlimit(unsigned int resource, struct rlimit64 __user *rlim);
long sys_setrlimit(unsigned int resource, const struct rlimit64 __user *rlim);
/* sys_sched.c */
long sys_sched_setscheduler(int pid, int policy,
			    const struct sched_param __user *param);
long sys_sched_getscheduler(int pid);
long sys_sched_setparam(int pid, const struct sched_param __user *param);
long sys_sched_getparam(int pid, struct sched_param __user *param);
long sys_sched_setaffinity(int pid, unsigned int len,
			   const unsigned long __user *user_mask);
long sys_sched_getaffinity(int pid, unsigned int len,
			   unsigned long __user *user_mask);
long sys_sched_yield(void);
long sys_sched_get_priority_max(int policy);
long sys_sched_get_priority_min(int policy);
/* sys_time.c */
long get_timespec64_ktime(ktime_t *kt, const struct __kernel_timespec __user *u);
long sys_clock_gettime(int which, struct __kernel_timespec __user *tp);
long sys_clock_getres(int which, struct __kernel_timespec __user *tp);
long sys_gettimeofday(struct __kernel_old_timeval __user *tv,
		      struct timezone __user *tz);
long sys_time(long __user *tloc);
long sys_clock_nanosleep(int which, int flags,
			 const struct __kernel_timespec __user *rqtp,
			 struct __kernel_timespec __user *rmtp);
long sys_nanosleep(const struct __kernel_timespec __user *rqtp,
		   struct __kernel_timespec __user *rmtp);
/* sys_mm.c */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, unsigned long fd, unsigned long off);
long sys_munmap(unsigned long addr, size_t len);
long sys_mprotect(unsigned long start, size_t len, unsigned long prot);
long sys_brk(unsigned long brk);
long sys_madvise(unsigned long start, size_t len, int behavior);
long sys_mlock(unsigned long start, size_t len);
long sys_munlock(unsigned long start, size_t len);
long sys_mlockall(int flags);
long sys_munlockall(void);
/* kernel/futex/syscalls.c */
long sys_futex(u32 __user *uaddr, int op, u32 val,
	       const struct __kernel_timespec __user *utime, u32 __user *uaddr2,
	       u32 val3);
/* futex_wake_tid - CLONE_CHILD_CLEARTID's FUTEX_WAKE of one joiner
 * (kernel/futex/).  Context: task. */
void futex_wake_tid(u32 __user *uaddr);

/* Counters for tests: calls by unknown number (-ENOSYS). */
extern unsigned long syscall_nr_unknown;

#endif /* KERNEL_USER_SYSCALLS_H */
