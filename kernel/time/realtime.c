/*
 * kernel/time/realtime.c - CLOCK_REALTIME as an offset from the monotonic
 * clock (see realtime.h for why one offset is enough in rtk).
 * Its users: clock_gettime, gettimeofday and time (kernel/user/
 * sys_time.c), the CLOCK_REALTIME deadlines of FUTEX_WAIT_BITSET and
 * FUTEX_LOCK_PI (kernel/futex/syscalls.c).
 */
#include "kernel/time/realtime.h"
#include "lib/compiler.h"

/* CLOCK_REALTIME - CLOCK_MONOTONIC in ns; written once at boot */
static ktime_t real_offset;

void __init realtime_init(s64 epoch_secs)
{
	real_offset = ktime_set(epoch_secs, 0) - ktime_get();
}

ktime_t ktime_get_real(void)
{
	return ktime_get() + READ_ONCE(real_offset);
}

ktime_t ktime_real_to_mono(ktime_t real)
{
	ktime_t off = READ_ONCE(real_offset);

	if (real == KTIME_MAX)
		return KTIME_MAX;
	if (real < off)
		return 0;	/* before boot: a deadline already past */
	return real - off;
}
