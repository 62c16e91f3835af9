/*
 * kernel/user/sys_time.c - clock_gettime, clock_getres, clock_nanosleep,
 * nanosleep,
 * gettimeofday and time on the kernel's two clocks: CLOCK_MONOTONIC
 * (ktime_get, nanoseconds since boot) and CLOCK_REALTIME (the wall
 * clock, kernel/time/realtime.h: a fixed offset from it, set at boot from
 * the CMOS clock).  Any other clock id is -EINVAL.  Without a vDSO,
 * glibc makes gettimeofday and time as system calls.  A sleep is interruptible only by a
 * kill (-EINTR, and the thread then exits on its way out); an absolute
 * sleep (TIMER_ABSTIME) sleeps to the deadline itself -- what a
 * cyclictest-style loop needs, as the in-kernel one does
 * (kernel/time/hrtimer_sleep.h).  Bad timespecs are -EINVAL (tv_nsec
 * outside [0, 1e9) or tv_sec < 0), bad pointers -EFAULT.
 * Linux counterpart: kernel/time/posix-timers.c, posix-stubs.c,
 * hrtimer.c (hrtimer_nanosleep, do_nanosleep).
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/time/hrtimer_sleep.h"
#include "kernel/time/ktime.h"
#include "kernel/time/realtime.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

static bool clock_known(int which)
{
	return which == CLOCK_MONOTONIC || which == CLOCK_REALTIME;
}

/*
 * get_timespec64_ktime - read and check the user timespec at u; *kt is
 * it as a ktime, saturated at KTIME_MAX (tv_sec = LONG_MAX is "forever",
 * not an overflow).  The one place a user timespec becomes a ktime:
 * futex, nanosleep and clock_nanosleep all call it.
 * Returns 0, -EFAULT for a bad pointer, -EINVAL for tv_sec < 0 or tv_nsec
 * outside [0, 1e9).
 * Linux counterpart: get_timespec64 + timespec64_valid (kernel/time/
 * time.c, include/linux/time64.h) + timespec64_to_ktime.
 * Context: task, may fault in user memory.  Locking: none held.
 */
long get_timespec64_ktime(ktime_t *kt, const struct __kernel_timespec __user *u)
{
	struct __kernel_timespec ts;

	might_sleep();
	if (copy_from_user(&ts, u, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	*kt = ktime_set(ts.tv_sec, ts.tv_nsec);
	return 0;
}

static long put_timespec_ns(struct __kernel_timespec __user *u, s64 ns)
{
	struct __kernel_timespec ts = {
		.tv_sec = ns / NSEC_PER_SEC,
		.tv_nsec = ns % NSEC_PER_SEC,
	};

	return copy_to_user(u, &ts, sizeof(ts)) ? -EFAULT : 0;
}

long sys_clock_gettime(int which, struct __kernel_timespec __user *tp)
{
	if (!clock_known(which))
		return -EINVAL;
	return put_timespec_ns(tp, which == CLOCK_REALTIME ? ktime_get_real() :
							   ktime_get());
}

/* sys_clock_getres - both clocks' resolution is 1 ns: their timers are
 * hrtimers on a one-shot clock event, not the tick (Linux reports
 * hrtimer_resolution, 1 ns with high-resolution timers on; cyclictest
 * warns "High resolution timers not available" otherwise).  tp may be
 * NULL (only the clock id is checked). */
long sys_clock_getres(int which, struct __kernel_timespec __user *tp)
{
	if (!clock_known(which))
		return -EINVAL;
	return tp ? put_timespec_ns(tp, 1) : 0;
}

/* sys_gettimeofday - the wall clock in microseconds; the time zone, if
 * asked, is UTC (Linux keeps sys_tz, 0 unless settimeofday set it). */
long sys_gettimeofday(struct __kernel_old_timeval __user *tv,
		      struct timezone __user *tz)
{
	ktime_t now = ktime_get_real();
	struct __kernel_old_timeval k = {
		.tv_sec = now / NSEC_PER_SEC,
		.tv_usec = (now % NSEC_PER_SEC) / 1000,
	};
	struct timezone z = { 0, 0 };

	if (tv && copy_to_user(tv, &k, sizeof(k)))
		return -EFAULT;
	if (tz && copy_to_user(tz, &z, sizeof(z)))
		return -EFAULT;
	return 0;
}

/* sys_time - the wall clock's seconds, also stored at tloc if given. */
long sys_time(long __user *tloc)
{
	long secs = ktime_get_real() / NSEC_PER_SEC;

	if (tloc && copy_to_user(tloc, &secs, sizeof(secs)))
		return -EFAULT;
	return secs;
}

/* do_nanosleep - sleep to absolute deadline; -EINTR (remaining time in
 * rmtp for a relative sleep) when killed. */
static long do_nanosleep(ktime_t deadline, bool relative,
			 struct __kernel_timespec __user *rmtp)
{
	long ret = schedule_hrtimeout_abs_state(deadline, TASK_INTERRUPTIBLE);

	if (ret == -EINTR && relative && rmtp) {
		s64 left = deadline - ktime_get();

		put_timespec_ns(rmtp, left > 0 ? left : 0);
	}
	return ret;
}

long sys_clock_nanosleep(int which, int flags,
			 const struct __kernel_timespec __user *rqtp,
			 struct __kernel_timespec __user *rmtp)
{
	ktime_t ns;
	long ret;

	might_sleep();
	if (!clock_known(which) || (flags & ~TIMER_ABSTIME))
		return -EINVAL;
	ret = get_timespec64_ktime(&ns, rqtp);
	if (ret)
		return ret;
	if (flags & TIMER_ABSTIME)
		return do_nanosleep(which == CLOCK_REALTIME ?
					    ktime_real_to_mono(ns) : ns,
				    false, NULL);
	return do_nanosleep(ktime_add_safe(ktime_get(), ns), true, rmtp);
}

long sys_nanosleep(const struct __kernel_timespec __user *rqtp,
		   struct __kernel_timespec __user *rmtp)
{
	return sys_clock_nanosleep(CLOCK_MONOTONIC, 0, rqtp, rmtp);
}
