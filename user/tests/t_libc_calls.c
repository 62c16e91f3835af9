/*
 * user/tests/t_libc_calls.c - the small calls glibc makes at start-up and
 * for its threads, with Linux's answers (issue 29 item 6; the list is
 * shared/design/linux-abi.md's "Process, threads" and "Scheduling and
 * time" tables).  tests/kernel/test_user_abi.c runs it; it runs on a
 * Linux host as well.  Exit status: the number of failed checks.
 *
 * Scenario, what must be observable:
 *   1. set_tid_address returns the caller's TID (glibc stores it as the
 *      thread's tid: the owner value of its PI mutexes); set_robust_list
 *      with len 24 is 0 and get_robust_list gives the head back; another
 *      len is -EINVAL.  On rtk rseq and clone3 are -ENOSYS (glibc goes on).
 *   2. uname: sysname "Linux", machine "x86_64"; uid, gid, euid, egid 0;
 *      prctl PR_SET_NAME cuts the name to 15 bytes, PR_GET_NAME gives
 *      it back, a bad pointer is -EFAULT, an unknown option -EINVAL.
 *   3. sched_get_priority_max/min: 99/1 for FIFO and RR, 0/0 for OTHER,
 *      -EINVAL for an unknown policy (pi_stress needs them).
 *   4. gettimeofday and time agree with clock_gettime(CLOCK_REALTIME)
 *      (read before and after: no wall-clock speed is assumed).
 *   5. futex bitsets: FUTEX_WAIT_BITSET with bitset 0 is -EINVAL, a
 *      changed word -EAGAIN, an absolute CLOCK_REALTIME deadline in the
 *      past -ETIMEDOUT, one 2 ms ahead -ETIMEDOUT no earlier than the
 *      deadline; FUTEX_CLOCK_REALTIME with plain FUTEX_WAIT is -ENOSYS.
 *      A waiter on bitset 2: FUTEX_WAKE_BITSET with 1 never wakes it
 *      (every such call returns 0), one with 2 does (returns 1, the
 *      waiter returns 0).  Handshake: a flag, then the wake loop.
 *   6. signals as recorded in part 1: rt_sigaction stores a handler and
 *      gives it back; SIGKILL's action is -EINVAL, sig 0 and 65 too,
 *      sigsetsize 4 -EINVAL; rt_sigprocmask keeps the mask and never
 *      blocks SIGKILL; a blocked SIGUSR2 sent by kill and by tgkill is
 *      pending (rt_sigpending), an ignored SIGHUP is not, and kill of a
 *      signal with a handler leaves the process alive.
 *   7. writev and readv: every buffer in order, the total returned;
 *      readv stops short at end of file; -EBADF, -EINVAL (vlen 1025, a
 *      negative length), -EFAULT (a bad vector).
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

static int failures;

static void check(const char *what, long got, long expected)
{
	if (got != expected) {
		failures++;
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

static void check_str(const char *what, const char *got, const char *expected)
{
	if (strcmp(got, expected)) {
		failures++;
		printf("FAIL %s: expected \"%s\", got \"%s\"\n", what, expected,
		       got);
	}
}

/* on_rtk - uname's release names rtk (the checks of what rtk leaves
 * out skip on a Linux host) */
static bool on_rtk(void)
{
	static struct new_utsname u;

	return !sys_call1(__NR_uname, (long)&u) && strstr(u.release, "rtk");
}

/* 1. thread identity and the calls glibc may find missing */
static void thread_calls(void)
{
	int tid_word = 0;
	unsigned long head[3] = { 0 }, got_head = 0, got_len = 0;

	check("set_tid_address = gettid",
	      sys_call1(__NR_set_tid_address, (long)&tid_word), gettid());
	check("set_robust_list(head, 24)",
	      sys_call2(__NR_set_robust_list, (long)head, 24), 0);
	check("set_robust_list(head, 23)",
	      sys_call2(__NR_set_robust_list, (long)head, 23), -EINVAL);
	check("get_robust_list(0)",
	      sys_call3(__NR_get_robust_list, 0, (long)&got_head, (long)&got_len),
	      0);
	check("get_robust_list: the head", got_head == (unsigned long)head, 1);
	check("get_robust_list: len", (long)got_len, 24);
	if (!on_rtk())
		return;	/* Linux has both: -EFAULT, -EINVAL for these */
	check("rseq", sys_call4(__NR_rseq, 0, 32, 0, 0x53053053), -ENOSYS);
	check("clone3", sys_call2(__NR_clone3, 0, 0), -ENOSYS);
}

/* 2. who am I */
static void identity(void)
{
	static struct new_utsname u;
	char name[32];

	check("uname", sys_call1(__NR_uname, (long)&u), 0);
	check_str("uname sysname", u.sysname, "Linux");
	check_str("uname machine", u.machine, "x86_64");
	check("uname(bad pointer)", sys_call1(__NR_uname, 16), -EFAULT);
	check("getuid", sys_call0(__NR_getuid), 0);
	check("geteuid", sys_call0(__NR_geteuid), 0);
	check("getgid", sys_call0(__NR_getgid), 0);
	check("getegid", sys_call0(__NR_getegid), 0);
	check("prctl(PR_SET_NAME)",
	      sys_call2(__NR_prctl, PR_SET_NAME, (long)"a-name-longer-than-15"),
	      0);
	memset(name, 'x', sizeof(name));
	check("prctl(PR_GET_NAME)", sys_call2(__NR_prctl, PR_GET_NAME, (long)name),
	      0);
	check_str("PR_GET_NAME after a long PR_SET_NAME", name, "a-name-longer-t");
	check("prctl(PR_SET_NAME, bad pointer)",
	      sys_call2(__NR_prctl, PR_SET_NAME, 16), -EFAULT);
	check("prctl(unknown option)", sys_call2(__NR_prctl, 0x7fff, 0), -EINVAL);
}

/* 3. the priority range of each policy */
static void priority_ranges(void)
{
	check("max FIFO", sys_call1(__NR_sched_get_priority_max, SCHED_FIFO), 99);
	check("min FIFO", sys_call1(__NR_sched_get_priority_min, SCHED_FIFO), 1);
	check("max RR", sys_call1(__NR_sched_get_priority_max, SCHED_RR), 99);
	check("min RR", sys_call1(__NR_sched_get_priority_min, SCHED_RR), 1);
	check("max OTHER", sys_call1(__NR_sched_get_priority_max, SCHED_OTHER), 0);
	check("min OTHER", sys_call1(__NR_sched_get_priority_min, SCHED_OTHER), 0);
	check("max policy 42", sys_call1(__NR_sched_get_priority_max, 42), -EINVAL);
	check("min policy -1", sys_call1(__NR_sched_get_priority_min, -1), -EINVAL);
}

/* 4. the wall clock three ways */
static void wall_clock(void)
{
	struct timespec a, b;
	struct __kernel_old_timeval tv;
	struct timezone tz = { 7, 7 };
	long t, t2 = 0;

	clock_gettime(CLOCK_REALTIME, &a);
	check("gettimeofday", sys_call2(__NR_gettimeofday, (long)&tv, (long)&tz), 0);
	t = sys_call1(__NR_time, (long)&t2);
	clock_gettime(CLOCK_REALTIME, &b);
	check("gettimeofday within clock_gettime's bracket",
	      (tv.tv_sec > a.tv_sec ||
	       (tv.tv_sec == a.tv_sec && tv.tv_usec >= a.tv_nsec / 1000)) &&
		      tv.tv_sec <= b.tv_sec,
	      1);
	check("tv_usec < 1000000", tv.tv_usec >= 0 && tv.tv_usec < 1000000, 1);
	check("timezone zeroed", tz.tz_minuteswest | tz.tz_dsttime, 0);
	check("time within the bracket", t >= a.tv_sec && t <= b.tv_sec, 1);
	check("time stores its value", t2, t);
	check("gettimeofday(bad pointer)", sys_call2(__NR_gettimeofday, 16, 0),
	      -EFAULT);
	check("time(bad pointer)", sys_call1(__NR_time, 16), -EFAULT);
}

static u32 fword;
static int waiter_armed;
static long waiter_ret = 1;

static void *bitset_waiter(void *arg)
{
	(void)arg;
	__atomic_store_n(&waiter_armed, 1, __ATOMIC_SEQ_CST);
	waiter_ret = futex(&fword, FUTEX_WAIT_BITSET, 0, NULL, NULL, 2);
	return NULL;
}

static long wait_bitset_rt(u32 val, const struct timespec *abs)
{
	return futex(&fword, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, val, abs,
		     NULL, FUTEX_BITSET_MATCH_ANY);
}

/* 5. FUTEX_WAIT_BITSET / FUTEX_WAKE_BITSET, CLOCK_REALTIME deadlines */
static void futex_bitsets(void)
{
	struct timespec now, deadline, after, rel = { 1, 0 };
	pthread_t th;
	long r, woken = 0, wrong = 0;

	check("WAIT_BITSET bitset 0",
	      futex(&fword, FUTEX_WAIT_BITSET, 0, NULL, NULL, 0), -EINVAL);
	check("WAKE_BITSET bitset 0",
	      futex(&fword, FUTEX_WAKE_BITSET, 1, NULL, NULL, 0), -EINVAL);
	check("WAIT_BITSET on a changed word", wait_bitset_rt(1, NULL), -EAGAIN);
	check("WAIT|CLOCK_REALTIME",
	      futex(&fword, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, &rel, NULL, 0),
	      -ENOSYS);
	clock_gettime(CLOCK_REALTIME, &now);
	deadline = now;
	deadline.tv_sec -= 1;
	check("WAIT_BITSET|REALTIME, deadline past", wait_bitset_rt(0, &deadline),
	      -ETIMEDOUT);
	deadline = now;
	deadline.tv_nsec += 2 * NSEC_PER_MSEC;
	if (deadline.tv_nsec >= NSEC_PER_SEC) {
		deadline.tv_sec++;
		deadline.tv_nsec -= NSEC_PER_SEC;
	}
	check("WAIT_BITSET|REALTIME, deadline 2 ms ahead",
	      wait_bitset_rt(0, &deadline), -ETIMEDOUT);
	clock_gettime(CLOCK_REALTIME, &after);
	check("returned no earlier than the deadline",
	      after.tv_sec > deadline.tv_sec ||
		      (after.tv_sec == deadline.tv_sec &&
		       after.tv_nsec >= deadline.tv_nsec),
	      1);

	check("pthread_create", pthread_create(&th, NULL, bitset_waiter, NULL), 0);
	while (!__atomic_load_n(&waiter_armed, __ATOMIC_SEQ_CST))
		sched_yield();
	while (!woken) {
		r = futex(&fword, FUTEX_WAKE_BITSET, 1, NULL, NULL, 1);
		if (r)
			wrong = r;
		woken = futex(&fword, FUTEX_WAKE_BITSET, 1, NULL, NULL, 2);
		if (!woken)
			sched_yield();
	}
	pthread_join(th, NULL);
	check("WAKE_BITSET 1 woke a bitset-2 waiter", wrong, 0);
	check("WAKE_BITSET 2", woken, 1);
	check("the waiter's FUTEX_WAIT_BITSET", waiter_ret, 0);
}

static void handler(int sig)
{
	(void)sig;
}

/* t_restore_rt - the handler's return address (SA_RESTORER): the
 * rt_sigreturn call, as glibc's __restore_rt */
void t_restore_rt(void);
asm(".text\n.globl t_restore_rt\nt_restore_rt:\n"
    "\tmov $15, %eax\n\tsyscall\n");

static long sigaction_raw(int sig, const struct kernel_sigaction *act,
			  struct kernel_sigaction *old, long size)
{
	return sys_call4(__NR_rt_sigaction, sig, (long)act, (long)old, size);
}

static long sigprocmask_raw(int how, const u64 *set, u64 *old)
{
	return sys_call4(__NR_rt_sigprocmask, how, (long)set, (long)old, 8);
}

/* 6. signals, recorded (delivery is part 2) */
static void signals(void)
{
	struct kernel_sigaction act = { (unsigned long)handler,
					SA_RESTART | SA_RESTORER,
					(unsigned long)t_restore_rt,
					sigmask(SIGINT) },
				old;
	struct kernel_sigaction ign = { SIG_IGN, 0, 0, 0 };
	u64 set = sigmask(SIGUSR2) | sigmask(SIGKILL), mask = 0, pend = ~0ULL;

	check("rt_sigaction(SIGUSR1)", sigaction_raw(SIGUSR1, &act, NULL, 8), 0);
	check("rt_sigaction(SIGUSR1, get)", sigaction_raw(SIGUSR1, NULL, &old, 8),
	      0);
	check("the handler back", old.sa_handler == act.sa_handler, 1);
	check("the flags back", (long)old.sa_flags, SA_RESTART | SA_RESTORER);
	check("the mask back", old.sa_mask == sigmask(SIGINT), 1);
	check("rt_sigaction(SIGKILL)", sigaction_raw(SIGKILL, &act, NULL, 8),
	      -EINVAL);
	check("rt_sigaction(0)", sigaction_raw(0, &act, NULL, 8), -EINVAL);
	check("rt_sigaction(65)", sigaction_raw(65, &act, NULL, 8), -EINVAL);
	check("rt_sigaction(sigsetsize 4)", sigaction_raw(SIGUSR1, &act, NULL, 4),
	      -EINVAL);
	check("rt_sigaction(bad pointer)",
	      sigaction_raw(SIGUSR1, (void *)16, NULL, 8), -EFAULT);
	check("rt_sigaction(SIGHUP, SIG_IGN)", sigaction_raw(SIGHUP, &ign, NULL, 8),
	      0);
	check("rt_sigaction(SIGUSR2)", sigaction_raw(SIGUSR2, &act, NULL, 8), 0);

	check("rt_sigprocmask(SIG_BLOCK)", sigprocmask_raw(SIG_BLOCK, &set, NULL),
	      0);
	check("rt_sigprocmask(get)", sigprocmask_raw(SIG_BLOCK, NULL, &mask), 0);
	check("the mask: SIGUSR2 and never SIGKILL", mask == sigmask(SIGUSR2), 1);
	check("rt_sigprocmask(how 7)", sigprocmask_raw(7, &set, NULL), -EINVAL);

	check("kill(self, SIGUSR1) with a handler", kill(getpid(), SIGUSR1), 0);
	check("kill(self, SIGHUP) ignored", kill(getpid(), SIGHUP), 0);
	check("kill(self, SIGUSR2) blocked", kill(getpid(), SIGUSR2), 0);
	check("rt_sigpending",
	      sys_call2(__NR_rt_sigpending, (long)&pend, 8), 0);
	check("pending: the blocked SIGUSR2 only", pend == sigmask(SIGUSR2), 1);
	check("tgkill(self, SIGUSR2)",
	      sys_call3(__NR_tgkill, getpid(), gettid(), SIGUSR2), 0);
	check("tgkill(wrong tgid)",
	      sys_call3(__NR_tgkill, getpid() + 100000, gettid(), SIGUSR2),
	      -ESRCH);
	check("kill(self, 65)", kill(getpid(), 65), -EINVAL);
	check("rt_sigpending(sigsetsize 16)",
	      sys_call2(__NR_rt_sigpending, (long)&pend, 16), -EINVAL);
}

/* 7. the vector calls */
static void vectors(void)
{
	char a[2], b[10];
	struct iovec w[3] = { { "ab", 2 }, { "", 0 }, { "cdef", 4 } };
	struct iovec r[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct iovec neg = { a, (size_t)-1 };
	int fd = open("/t_libc_calls.vec", O_RDWR | O_CREAT | O_TRUNC, 0600);

	check("open a scratch file", fd >= 0, 1);
	check("writev", sys_call3(__NR_writev, fd, (long)w, 3), 6);
	check("lseek 0", lseek(fd, 0, 0), 0);
	check("readv: short at end of file",
	      sys_call3(__NR_readv, fd, (long)r, 2), 6);
	check("readv: first buffer", memcmp(a, "ab", 2), 0);
	check("readv: second buffer", memcmp(b, "cdef", 4), 0);
	check("writev(bad fd)", sys_call3(__NR_writev, 999, (long)w, 0), -EBADF);
	check("writev(vlen 1025)", sys_call3(__NR_writev, fd, (long)w, 1025),
	      -EINVAL);
	check("writev(negative length)", sys_call3(__NR_writev, fd, (long)&neg, 1),
	      -EINVAL);
	check("writev(bad vector)", sys_call3(__NR_writev, fd, 16, 1), -EFAULT);
	close(fd);
	unlink("/t_libc_calls.vec");
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	thread_calls();
	identity();
	priority_ranges();
	wall_clock();
	futex_bitsets();
	signals();
	vectors();
	if (!failures)
		printf("t_libc_calls: ok\n");
	return failures;
}
