/*
 * kernel/user/uapi.h - the part of Linux's x86_64 user ABI that rtk
 * implements, as numbers: system call numbers, clock ids, clone, mmap,
 * futex and arch_prctl values, the signals rtk sends.  Values are
 * Linux's, never renumbered: a new call is added with its Linux number.
 *
 * Shared by both sides of the system call boundary: the kernel includes
 * it (kernel/user/, kernel/futex/, kernel/fs/) and so does the user
 * library (user/lib/linux_abi.h), so a number the kernel dispatches on
 * and the one a program passes cannot disagree (two copies did drift: the
 * user side lacked CLONE_CHILD_SETTID).  Hence numbers, macros and plain
 * structs only, nothing that names a kernel type: the user library keeps
 * its own struct timespec and struct sched_param (the kernel's
 * kernel/sched/sched.h has another), cpu_set_t and NSEC_PER_*.
 * Linux counterpart: the 64-bit PC's syscall table,
 * include/uapi/linux/{time.h,sched.h,futex.h,stat.h,fcntl.h,dirent.h},
 * the generic mman, fcntl, termbits and prctl uapi headers,
 * arch/x86/include/uapi/asm/stat.h.
 */
#ifndef KERNEL_USER_UAPI_H
#define KERNEL_USER_UAPI_H

#include "lib/types.h"

/* System call numbers (syscall_64.tbl).  mprotect is not in rtk
 * (-ENOSYS): the user library calls it on a Linux host. */
#define __NR_read			0
#define __NR_write			1
#define __NR_open			2
#define __NR_close			3
#define __NR_stat			4
#define __NR_fstat			5
#define __NR_lstat			6
#define __NR_poll			7
#define __NR_lseek			8
#define __NR_mmap			9
#define __NR_mprotect			10
#define __NR_munmap			11
#define __NR_brk			12
#define __NR_ioctl			16
#define __NR_pread64			17
#define __NR_access			21
#define __NR_sched_yield		24
#define __NR_madvise			28
#define __NR_dup			32
#define __NR_dup2			33
#define __NR_nanosleep			35
#define __NR_getpid			39
#define __NR_socketpair		53
#define __NR_pipe			22
#define __NR_clone			56
#define __NR_fork			57
#define __NR_vfork			58
#define __NR_wait4			61
#define __NR_exit			60
#define __NR_kill			62
#define __NR_fcntl			72
#define __NR_ftruncate			77
#define __NR_getcwd			79
#define __NR_chdir			80
#define __NR_mkdir			83
#define __NR_rmdir			84
#define __NR_unlink			87
#define __NR_symlink			88
#define __NR_readlink			89
#define __NR_sched_setparam		142
#define __NR_sched_getparam		143
#define __NR_sched_setscheduler		144
#define __NR_sched_getscheduler		145
#define __NR_mlock			149
#define __NR_munlock			150
#define __NR_mlockall			151
#define __NR_munlockall			152
#define __NR_arch_prctl			158
#define __NR_gettid			186
#define __NR_futex			202
#define __NR_getdents64			217
#define __NR_sched_setaffinity		203
#define __NR_sched_getaffinity		204
#define __NR_clock_gettime		228
#define __NR_clock_getres		229
#define __NR_clock_nanosleep		230
#define __NR_exit_group			231
#define __NR_openat			257
#define __NR_mkdirat			258
#define __NR_newfstatat			262
#define __NR_unlinkat			263
#define __NR_symlinkat			266
#define __NR_readlinkat			267
#define __NR_faccessat			269
#define __NR_ppoll			271
#define __NR_dup3			292
#define __NR_pipe2			293
#define __NR_getrlimit			97
#define __NR_setrlimit			160
#define __NR_prlimit64			302
/* the small calls glibc makes at start-up and for its threads */
#define __NR_rt_sigaction		13
#define __NR_readv			19
#define __NR_writev			20
#define __NR_rt_sigprocmask		14
#define __NR_uname			63
#define __NR_gettimeofday		96
#define __NR_getuid			102
#define __NR_getgid			104
#define __NR_geteuid			107
#define __NR_getegid			108
#define __NR_getppid			110
#define __NR_rt_sigpending		127
#define __NR_rt_sigreturn		15
#define __NR_pause			34
#define __NR_rt_sigtimedwait		128
#define __NR_rt_sigsuspend		130
#define __NR_sigaltstack		131
#define __NR_sched_get_priority_max	146
#define __NR_sched_get_priority_min	147
#define __NR_prctl			157
#define __NR_tkill			200
#define __NR_time			201
#define __NR_set_tid_address		218
#define __NR_tgkill			234
#define __NR_set_robust_list		273
#define __NR_get_robust_list		274
#define __NR_rseq			334	/* -ENOSYS: glibc goes on */
#define __NR_clone3			435	/* -ENOSYS: glibc falls back to clone */
/* issue 30: program start and the init= boot (exec.c, sys_mount.c,
 * sys_reboot.c) */
#define __NR_execve			59
#define __NR_sync			162
#define __NR_mount			165
#define __NR_umount2			166
#define __NR_reboot			169
#define __NR_execveat			322

/* reboot(2) (include/uapi/linux/reboot.h): the magic words and commands */
#define LINUX_REBOOT_MAGIC1		0xfee1dead
#define LINUX_REBOOT_MAGIC2		672274793
#define LINUX_REBOOT_MAGIC2A		85072278
#define LINUX_REBOOT_MAGIC2B		369367448
#define LINUX_REBOOT_MAGIC2C		537993216
#define LINUX_REBOOT_CMD_RESTART	0x01234567
#define LINUX_REBOOT_CMD_HALT		0xCDEF0123
#define LINUX_REBOOT_CMD_CAD_ON		0x89ABCDEF
#define LINUX_REBOOT_CMD_CAD_OFF	0x00000000
#define LINUX_REBOOT_CMD_POWER_OFF	0x4321FEDC

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
#define CLONE_VFORK		0x00004000	/* rtk: as a fork (sys_fork.c) */
#define CLONE_THREAD		0x00010000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000
#define CLONE_CHILD_SETTID	0x01000000
#define CSIGNAL			0x000000ff	/* exit signal (fork: the parent's
					 * notice; a thread's is ignored) */

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
#define MAP_SHARED_VALIDATE	0x03	/* MAP_SHARED, unknown flags refused */
#define MAP_GROWSDOWN		0x0100	/* accepted, ignored (no growth) */
#define MAP_DENYWRITE		0x0800	/* ignored, as by Linux */
#define MAP_EXECUTABLE		0x1000	/* ignored, as by Linux */
#define MAP_LOCKED		0x2000	/* rtk maps eagerly: always "locked" */
#define MAP_NORESERVE		0x4000	/* a hint: rtk ignores it */
#define MAP_POPULATE		0x8000	/* rtk always populates */
#define MAP_NONBLOCK		0x10000	/* a hint: rtk ignores it */
#define MAP_STACK		0x20000	/* a hint: rtk ignores it */
#define MAP_FIXED_NOREPLACE	0x100000	/* MAP_FIXED, -EEXIST if taken */
#define MCL_CURRENT		1	/* mlockall */
#define MCL_FUTURE		2
#define MCL_ONFAULT		4
#define MAP_FAILED_MAX_ERRNO	4095	/* a return in [-4095, -1] is -errno */

/* futex operations, the low bits of op (uapi/linux/futex.h) */
#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_LOCK_PI		6
#define FUTEX_UNLOCK_PI		7
#define FUTEX_TRYLOCK_PI	8
#define FUTEX_WAIT_BITSET	9	/* absolute timeout; waiter's bitset */
#define FUTEX_WAKE_BITSET	10	/* wakes waiters whose bitset meets val3 */
#define FUTEX_WAIT_REQUEUE_PI	11	/* a PI condvar's wait (requeue_pi.c) */
#define FUTEX_CMP_REQUEUE_PI	12	/* its signal and broadcast */
#define FUTEX_BITSET_MATCH_ANY	0xffffffffu	/* FUTEX_WAIT/WAKE's bitset */
/* flags or'ed into op */
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_CMD_MASK	(~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
/* the PI futex word */
#define FUTEX_WAITERS		0x80000000u	/* set by the kernel: it has waiters */
#define FUTEX_OWNER_DIED	0x40000000u	/* robust lists, not in rtk */
#define FUTEX_TID_MASK		0x3fffffffu	/* the owner's TID */

/* readv/writev's buffers (uapi/linux/uio.h) */
struct iovec {
	void *iov_base;		/* a user address */
	size_t iov_len;
};

/* prctl (uapi/linux/prctl.h): the two options glibc and busybox use */
#define PR_SET_NAME		15
#define PR_GET_NAME		16

/* uname (uapi/linux/utsname.h) */
#define __NEW_UTS_LEN		64
struct new_utsname {
	char sysname[__NEW_UTS_LEN + 1];
	char nodename[__NEW_UTS_LEN + 1];
	char release[__NEW_UTS_LEN + 1];
	char version[__NEW_UTS_LEN + 1];
	char machine[__NEW_UTS_LEN + 1];
	char domainname[__NEW_UTS_LEN + 1];
};

/* gettimeofday (uapi/linux/time.h, time_types.h) */
struct __kernel_old_timeval {
	long tv_sec;
	long tv_usec;
};
struct timezone {
	int tz_minuteswest;
	int tz_dsttime;
};

/* arch_prctl (uapi/asm/prctl.h) */
#define ARCH_SET_FS		0x1002
#define ARCH_GET_FS		0x1003

/* signals: their numbers, sigaction and the masks */
#include "kernel/user/uapi_signal.h"

/* open(2) flags (uapi/asm-generic/fcntl.h, x86_64 values).  A 64-bit
 * Linux sets O_LARGEFILE on every open (force_o_largefile): F_GETFL
 * shows it, so rtk does too. */
#define O_ACCMODE		00000003
#define O_RDONLY		00000000
#define O_WRONLY		00000001
#define O_RDWR			00000002
#define O_CREAT			00000100
#define O_EXCL			00000200
#define O_NOCTTY		00000400
#define O_TRUNC			00001000
#define O_APPEND		00002000
#define O_NONBLOCK		00004000
#define O_LARGEFILE		00100000
#define O_DIRECTORY		00200000
#define O_NOFOLLOW		00400000
#define O_CLOEXEC		02000000

/* the *at calls (uapi/linux/fcntl.h) */
#define AT_FDCWD		(-100)	/* relative to the cwd */
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_REMOVEDIR		0x200
#define AT_NO_AUTOMOUNT		0x800	/* accepted, nothing to do in rtk */
#define AT_EMPTY_PATH		0x1000

/* fcntl (uapi/asm-generic/fcntl.h, linux/fcntl.h) */
#define F_DUPFD			0
#define F_GETFD			1
#define F_SETFD			2
#define F_GETFL			3
#define F_SETFL			4
#define F_DUPFD_CLOEXEC		1030
#define FD_CLOEXEC		1

/* lseek (uapi/linux/fs.h) */
#define SEEK_SET		0
#define SEEK_CUR		1
#define SEEK_END		2
#define SEEK_DATA		3
#define SEEK_HOLE		4
#define SEEK_MAX		SEEK_HOLE

/* access (unistd.h): F_OK 0 */
#define F_OK			0
#define X_OK			1
#define W_OK			2
#define R_OK			4

/* File types and permission bits (uapi/linux/stat.h) */
#define S_IFMT			0170000
#define S_IFSOCK		0140000
#define S_IFLNK			0120000
#define S_IFREG			0100000
#define S_IFBLK			0060000
#define S_IFDIR			0040000
#define S_IFCHR			0020000
#define S_IFIFO			0010000
#define S_ISDIR(m)		(((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m)		(((m) & S_IFMT) == S_IFREG)
#define S_ISLNK(m)		(((m) & S_IFMT) == S_IFLNK)
#define S_ISCHR(m)		(((m) & S_IFMT) == S_IFCHR)

/* struct stat as x86_64 Linux's newfstatat and fstat fill it
 * (arch/x86/include/uapi/asm/stat.h): 144 bytes. */
struct stat {
	u64 st_dev;
	u64 st_ino;
	u64 st_nlink;
	u32 st_mode;
	u32 st_uid;
	u32 st_gid;
	u32 __pad0;
	u64 st_rdev;			/* new_encode_dev(major, minor) */
	s64 st_size;
	s64 st_blksize;
	s64 st_blocks;			/* 512-byte units */
	u64 st_atime;
	u64 st_atime_nsec;
	u64 st_mtime;
	u64 st_mtime_nsec;
	u64 st_ctime;
	u64 st_ctime_nsec;
	s64 __reserved[3];		/* Linux: __unused */
};

/* getdents64's record (uapi/linux/dirent.h), d_reclen a multiple of 8 */
struct linux_dirent64 {
	u64 d_ino;
	s64 d_off;			/* the position after this entry */
	u16 d_reclen;
	u8 d_type;			/* DT_*: the S_IFMT bits >> 12 */
	char d_name[];			/* NUL-terminated */
};
#define DT_DIR			4
#define DT_REG			8

/* ioctl on a terminal (uapi/asm-generic/ioctls.h, termbits.h): the
 * kernel's struct termios, which TCGETS fills (19 control chars). */
#define TCGETS			0x5401
#define TCSETS			0x5402
#define TCSETSW			0x5403
#define TCSETSF			0x5404
#define TIOCGWINSZ		0x5413
/* c_cc indexes and the flag bits kernel/fs/tty_console.c acts on
 * (include/uapi/asm-generic/termbits.h) */
#define VINTR			0
#define VERASE			2
#define VKILL			3
#define VEOF			4
#define VTIME			5
#define VMIN			6
#define IGNCR			0000200
#define ICRNL			0000400
#define IXON			0002000
#define OPOST			0000001
#define ONLCR			0000004
#define ISIG			0000001
#define ICANON			0000002
#define ECHO			0000010
#define ECHOE			0000020
#define ECHOK			0000040
#define ECHOCTL			0001000
#define ECHOKE			0004000
#define IEXTEN			0100000
#define NCCS			19
struct termios {
	u32 c_iflag;
	u32 c_oflag;
	u32 c_cflag;
	u32 c_lflag;
	u8 c_line;
	u8 c_cc[NCCS];
};
struct winsize {
	u16 ws_row;
	u16 ws_col;
	u16 ws_xpixel;
	u16 ws_ypixel;
};

/* socketpair (include/linux/socket.h, linux/net.h): the families rtk
 * knows by name, the types; SOCK_CLOEXEC and SOCK_NONBLOCK are the
 * O_ values, or'ed into the type. */
#define AF_UNIX			1
#define AF_INET			2
#define AF_INET6		10
#define SOCK_STREAM		1
#define SOCK_DGRAM		2
#define SOCK_RAW		3
#define SOCK_SEQPACKET		5
#define SOCK_MAX		11	/* types are below this (-EINVAL) */
#define SOCK_TYPE_MASK		0xf
#define SOCK_CLOEXEC		O_CLOEXEC
#define SOCK_NONBLOCK		O_NONBLOCK

/* poll (uapi/asm-generic/poll.h) */
#define POLLIN			0x0001
#define POLLPRI			0x0002
#define POLLOUT			0x0004
#define POLLERR			0x0008
#define POLLHUP			0x0010
#define POLLNVAL		0x0020
#define POLLRDNORM		0x0040
#define POLLRDBAND		0x0080
#define POLLWRNORM		0x0100
#define POLLWRBAND		0x0200
#define POLLRDHUP		0x2000
struct pollfd {
	int fd;				/* < 0: ignored, revents 0 */
	short events;			/* what to wait for */
	short revents;			/* what is ready, with POLLERR, POLLHUP
					 * and POLLNVAL always reported */
};

/* wait status (what waitpid() reports), Linux's encoding */
#define W_EXITCODE(code, sig)	(((code) & 0xff) << 8 | ((sig) & 0x7f))

/* wait4 options (uapi/linux/wait.h) */
#define WNOHANG			0x00000001
#define WUNTRACED		0x00000002	/* no stops in rtk: never reported */
#define WCONTINUED		0x00000008	/* likewise */
#define __WNOTHREAD		0x20000000
#define __WALL			0x40000000
#define __WCLONE		0x80000000

#endif /* KERNEL_USER_UAPI_H */
