/*
 * drivers/rtc_cmos.h - RTC_HISTOGRAM: the CMOS RTC's periodic interrupt
 * (IRQ 8) at a power-of-two rate, and a histogram of its interrupt-to-
 * thread latency: the hard handler stamps the TSC, the handler thread
 * (SCHED_FIFO IRQ_THREAD_PRIO) takes the stamp and records now - stamp.
 * `rtc start HZ`, `rtc stop`, `rtc hist` (kernel/shell/cmd_rtc.c).
 *
 * Linux counterpart: drivers/rtc/rtc-cmos.c (periodic IRQ, "PIE"),
 * the 2.6-rt RTC_HISTOGRAM option of drivers/char/rtc.c the article
 * names.  Spec: MC146818A datasheet (registers A-C), the article's
 * "Debugging Configuration Options".
 */
#ifndef DRIVERS_RTC_CMOS_H
#define DRIVERS_RTC_CMOS_H

#include "lib/types.h"
#include "lib/latency_hist.h"

#define RTC_IRQ 8
#define RTC_HIST_US 1000	/* 1 µs buckets; longer: overflows */

struct rtc_hist_stats {
	u32 hz;			/* 0: stopped */
	u64 irqs;		/* periodic interrupts taken */
	u64 missed;		/* came before the thread took the last */
	struct lat_stat st;	/* the thread's samples */
};

/* rtc_start - periodic interrupt at hz (a power of two, 2..8192), the
 * histogram started over.  Returns 0, -EINVAL (hz), -EBUSY (running),
 * -ENOMEM, or request_irq's error.  Context: task, may sleep. */
int rtc_start(u32 hz);
/* rtc_stop - stop the interrupt and the thread (the figures are kept).
 * Returns -EINVAL if not running.  Context: task, may sleep. */
int rtc_stop(void);
/* rtc_hist_read - a snapshot of the figures (buckets point at the live
 * array: read racily while running, as rt-tests does).  Context: any. */
void rtc_hist_read(struct rtc_hist_stats *out);

struct rtc_time;
/* rtc_read_time - the CMOS clock's date and time (UTC); 0 or -EINVAL
 * when it holds no valid date.  Context: task, irqs on. */
int rtc_read_time(struct rtc_time *tm);
/* rtc_clock_init - CLOCK_REALTIME from the CMOS clock, once at boot. */
void rtc_clock_init(void);

#endif /* DRIVERS_RTC_CMOS_H */
