/*
 * drivers/rtc_cmos.c - the CMOS RTC periodic interrupt and RTC_HISTOGRAM
 * (see rtc_cmos.h).
 *
 * MC146818A registers at index port 0x70 / data port 0x71:
 *	A  bits 0-3 rate select: f = 32768 >> (rate - 1), rate 3..15
 *	   (8192 .. 2 Hz)
 *	B  bit 6 PIE: periodic interrupt enable
 *	C  bit 6 PF: periodic flag; reading C acknowledges and re-arms
 * One interrupt:
 *	[1] hard part (SA_NODELAY: hard-irq context under every model):
 *	    rdtsc, read C (not PF: a stale one, nothing to count), keep the stamp unless the
 *	    thread has not taken the previous one (missed), wake the thread
 *	[2] the thread (SCHED_FIFO IRQ_THREAD_PRIO, like an irq thread
 *	    under rt): take the stamp, record rdtsc - stamp in ns
 * rtk's threaded irqs (kernel/irq) give a handler no hard part, so the
 * driver pairs an SA_NODELAY handler with its own thread, as mainline's
 * request_threaded_irq does.
 * Locking: rtc_lock (raw, irqs off) guards the CMOS index/data pair and
 * the stamp; the rtc_busy flag (start/stop only, task context) the state.
 */
#include "drivers/rtc_cmos.h"
#include "arch/x86_64/io.h"
#include "kernel/irq/irq_model.h"
#include "kernel/irq/manage.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/time/ktime.h"
#include "lib/errno.h"
#include "lib/time64.h"
#include "lib/string.h"
#include "kernel/printk.h"
#include "kernel/time/realtime.h"

#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71
#define RTC_REG_A	0x0a
#define RTC_REG_B	0x0b
#define RTC_REG_C	0x0c
#define RTC_RATE_MASK	0x0f
#define RTC_PIE		0x40	/* in B */
#define RTC_PF		0x40	/* in C */

static DEFINE_RAW_SPINLOCK(rtc_lock);
/* under rtc_lock: */
static bool stamp_valid;
static u64 stamp_tsc;
static u64 rtc_irqs, rtc_missed;
/* start/stop state (task context, serialised by rtc_busy) */
static int rtc_busy;
static u32 rtc_hz;
static struct task_struct *rtc_thread;
/* written by the thread only */
static struct lat_stat rtc_stat;
static u32 rtc_buckets[RTC_HIST_US];

/* Locking: rtc_lock held. */
static u8 cmos_read(u8 reg)
{
	outb(CMOS_INDEX, reg);
	return inb(CMOS_DATA);
}

/* Locking: rtc_lock held. */
static void cmos_write(u8 reg, u8 val)
{
	outb(CMOS_INDEX, reg);
	outb(CMOS_DATA, val);
}

#define RTC_UIP		0x80	/* in A: an update is in progress */
#define RTC_DM_BINARY	0x04	/* in B: binary, not BCD */
#define RTC_24H		0x02	/* in B: 24-hour mode */
#define RTC_HOUR_PM	0x80	/* in the hour, 12-hour mode */

static int bcd2bin(u8 v)
{
	return (v >> 4) * 10 + (v & 0x0f);
}

/* cmos_read_tm_once - the six time-of-day registers and B as read now,
 * after waiting out an update (the chip changes them once a second for
 * under 2 ms while UIP is set).  Locking: rtc_lock held. */
static void cmos_read_tm_once(u8 r[7])
{
	static const u8 regs[6] = { 0x00, 0x02, 0x04, 0x07, 0x08, 0x09 };
	int spins = 100000;

	while ((cmos_read(RTC_REG_A) & RTC_UIP) && --spins)
		;
	for (int i = 0; i < 6; i++)
		r[i] = cmos_read(regs[i]);
	r[6] = cmos_read(RTC_REG_B);
}

/*
 * rtc_read_time - the CMOS clock's time of day, as UTC (what QEMU and
 * Bochs give by default; a PC that keeps local time in it reads off by
 * its zone, as Linux without the right `hwclock` setting does):
 *   [1] read the registers twice until two reads agree (an update
 *       between two registers would give a time a second or an hour off);
 *   [2] BCD or binary and 12- or 24-hour mode as register B says;
 *   [3] the century is 20 (the century register's place varies with
 *       the ACPI FADT; years 2000-2099);
 *   [4] refuse what is not a date (a flat battery gives 0s or 0xff).
 * Returns 0 or -EINVAL.
 * Context: task or boot, irqs on.  Locking: takes rtc_lock.
 */
int rtc_read_time(struct rtc_time *tm)
{
	u8 a[7], b[7];
	int tries = 10, hour;
	bool bcd;

	might_sleep();
	raw_spin_lock_irq(&rtc_lock);
	cmos_read_tm_once(a);				/* [1] */
	do {
		memcpy(b, a, sizeof(b));
		cmos_read_tm_once(a);
	} while (memcmp(a, b, sizeof(a)) && --tries);
	raw_spin_unlock_irq(&rtc_lock);
	if (!tries)
		return -EINVAL;
	bcd = !(a[6] & RTC_DM_BINARY);			/* [2] */
	hour = a[2] & ~RTC_HOUR_PM;
	tm->sec = bcd ? bcd2bin(a[0]) : a[0];
	tm->min = bcd ? bcd2bin(a[1]) : a[1];
	hour = bcd ? bcd2bin(hour) : hour;
	if (!(a[6] & RTC_24H))
		hour = hour % 12 + ((a[2] & RTC_HOUR_PM) ? 12 : 0);
	tm->hour = hour;
	tm->mday = bcd ? bcd2bin(a[3]) : a[3];
	tm->mon = bcd ? bcd2bin(a[4]) : a[4];
	tm->year = 2000 + (bcd ? bcd2bin(a[5]) : a[5]);	/* [3] */
	return rtc_valid_tm(tm);			/* [4] */
}

/*
 * rtc_clock_init - set CLOCK_REALTIME from the CMOS clock once at boot
 * (kernel/time/realtime.c); without a readable date the clock stays at
 * the epoch plus the time since boot, and the log says so.
 * Context: boot, task, irqs on.
 */
void __init rtc_clock_init(void)
{
	struct rtc_time tm;

	if (rtc_read_time(&tm)) {
		pr_warn("rtc: no valid date in the CMOS clock: CLOCK_REALTIME "
			"starts at the epoch\n");
		return;
	}
	realtime_init(mktime64(&tm));
	pr_info("rtc: %04d-%02d-%02d %02d:%02d:%02d UTC\n", tm.year, tm.mon,
		tm.mday, tm.hour, tm.min, tm.sec);
}

/* rtc_interrupt - step [1].  Context: hardirq (SA_NODELAY). */
static irqreturn_t rtc_interrupt(int irq, void *dev_id)
{
	u64 now = rdtsc();
	u8 c;

	raw_spin_lock(&rtc_lock);
	c = cmos_read(RTC_REG_C);
	if (!(c & RTC_PF)) {
		/* an interrupt raised before rtc_program() read C (the line
		 * is not shared: it is still ours, just nothing to count) */
		raw_spin_unlock(&rtc_lock);
		return IRQ_HANDLED;
	}
	rtc_irqs++;
	if (stamp_valid) {
		rtc_missed++;
	} else {
		stamp_tsc = now;
		stamp_valid = true;
	}
	raw_spin_unlock(&rtc_lock);
	wake_up_process(rtc_thread);
	return IRQ_HANDLED;
}

/* rtc_thread_fn - step [2].  Context: its kthread. */
static int rtc_thread_fn(void *data)
{
	unsigned long flags;
	u64 stamp, now;
	bool got;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		raw_spin_lock_irqsave(&rtc_lock, flags);
		got = stamp_valid;
		stamp = stamp_tsc;
		stamp_valid = false;
		raw_spin_unlock_irqrestore(&rtc_lock, flags);
		if (!got) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		now = rdtsc();
		lat_stat_add_ns(&rtc_stat, (s64)ktime_cycles_to_ns(now - stamp));
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* rate_of - register A's rate select for hz, or 0 if hz is not valid. */
static u8 rate_of(u32 hz)
{
	u8 rate = 16;

	if (hz < 2 || hz > 8192 || (hz & (hz - 1)))
		return 0;
	while (hz > 1) {
		hz >>= 1;
		rate--;
	}
	return rate;		/* 2^k Hz: 16 - k */
}

/* Programs A's rate and B's PIE; reads C to drop a stale flag. */
static void rtc_program(u8 rate, bool on)
{
	unsigned long flags;
	u8 b;

	raw_spin_lock_irqsave(&rtc_lock, flags);
	if (on)
		cmos_write(RTC_REG_A, (cmos_read(RTC_REG_A) & ~RTC_RATE_MASK) |
					      rate);
	b = cmos_read(RTC_REG_B);
	cmos_write(RTC_REG_B, on ? (b | RTC_PIE) : (b & ~RTC_PIE));
	(void)cmos_read(RTC_REG_C);
	stamp_valid = false;
	raw_spin_unlock_irqrestore(&rtc_lock, flags);
}

int rtc_start(u32 hz)
{
	struct sched_param sp = { .sched_priority = IRQ_THREAD_PRIO };
	u8 rate = rate_of(hz);
	int ret;

	might_sleep();
	if (!rate)
		return -EINVAL;
	if (__atomic_exchange_n(&rtc_busy, 1, __ATOMIC_ACQUIRE))
		return -EBUSY;
	ret = -EBUSY;
	if (rtc_hz)
		goto out_unbusy;
	lat_stat_init(&rtc_stat, rtc_buckets, RTC_HIST_US);
	rtc_stat.prio = IRQ_THREAD_PRIO;
	rtc_stat.interval_us = 1000000 / hz;
	rtc_irqs = rtc_missed = 0;
	ret = -ENOMEM;
	rtc_thread = kthread_create(rtc_thread_fn, NULL, "irq/8-rtc-hist");
	if (!rtc_thread)
		goto out_unbusy;
	rtc_stat.tid = rtc_thread->pid;
	sched_setscheduler(rtc_thread, SCHED_FIFO, &sp);
	wake_up_process(rtc_thread);
	ret = request_irq(RTC_IRQ, rtc_interrupt, SA_NODELAY, "rtc", &rtc_stat);
	if (ret)
		goto out_thread;
	rtc_program(rate, true);
	rtc_hz = hz;
	__atomic_store_n(&rtc_busy, 0, __ATOMIC_RELEASE);
	return 0;
out_thread:
	kthread_stop(rtc_thread);
	rtc_thread = NULL;
out_unbusy:
	__atomic_store_n(&rtc_busy, 0, __ATOMIC_RELEASE);
	return ret;
}

int rtc_stop(void)
{
	int ret = -EINVAL;

	might_sleep();
	if (__atomic_exchange_n(&rtc_busy, 1, __ATOMIC_ACQUIRE))
		return -EBUSY;
	if (rtc_hz) {
		rtc_program(0, false);
		free_irq(RTC_IRQ, &rtc_stat);
		kthread_stop(rtc_thread);
		rtc_thread = NULL;
		rtc_hz = 0;
		ret = 0;
	}
	__atomic_store_n(&rtc_busy, 0, __ATOMIC_RELEASE);
	return ret;
}

void rtc_hist_read(struct rtc_hist_stats *out)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&rtc_lock, flags);
	out->irqs = rtc_irqs;
	out->missed = rtc_missed;
	raw_spin_unlock_irqrestore(&rtc_lock, flags);
	out->hz = READ_ONCE(rtc_hz);
	out->st = rtc_stat;
}
