/*
 * kernel/debug/softlockup.c - the soft-lockup detector (softlockup.h).
 *
 * Per CPU: touch_ts[cpu] is written by watchdog/cpu (SCHED_FIFO 99)
 * each time it runs; check_timer[cpu] fires every thresh/5 on that CPU,
 * wakes the thread and compares now with touch_ts.  A CPU that keeps
 * preemption off (or, under none/voluntary, just never reaches a
 * scheduling point) cannot run its watchdog thread, so its timestamp
 * ages while its timer still fires: that is the lockup.
 * Locking: touch_ts/reported are per CPU, written by that CPU only (the
 * thread and the timer of one CPU never run at once); the last report is
 * written under report_lock (several CPUs may lock up together).
 */
#include "kernel/debug/softlockup.h"
#include "kernel/sched/kthread.h"
#include "kernel/time/hrtimer.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/bug.h"

#define DEFAULT_THRESH_MS 10000

static u64 thresh_ms = DEFAULT_THRESH_MS;
static ktime_t touch_ts[NR_CPUS];
static ktime_t kick_ts[NR_CPUS];	/* first unanswered kick, 0: none */
static bool reported[NR_CPUS];
static struct hrtimer check_timer[NR_CPUS] __attribute__((unused));
static struct task_struct *watchdog_task[NR_CPUS];
static bool running;
static unsigned long nr_reports;
static struct softlockup_report last = { .cpu = -1 };
static DEFINE_RAW_SPINLOCK(report_lock);

static __attribute__((unused)) s64 check_period_ns(void)
{
	return (s64)(READ_ONCE(thresh_ms) * NSEC_PER_MSEC / 5);
}

int softlockup_set_thresh_ms(u64 ms)
{
	if (ms < SOFTLOCKUP_MIN_THRESH_MS || ms > SOFTLOCKUP_MAX_THRESH_MS)
		return -EINVAL;
	WRITE_ONCE(thresh_ms, ms);
	return 0;
}

u64 softlockup_thresh_ms(void)
{
	return READ_ONCE(thresh_ms);
}

static int __init parse_thresh(const char *val)
{
	unsigned long s;

	if (!val || kstrtoul(val, 10, &s))
		return -EINVAL;
	return softlockup_set_thresh_ms((u64)s * 1000);
}
CMDLINE_PARAM("softlockup_thresh", parse_thresh);

void touch_softlockup_watchdog(void)
{
	int cpu = raw_smp_processor_id();

	WRITE_ONCE(touch_ts[cpu], ktime_get());
	WRITE_ONCE(kick_ts[cpu], 0);
	WRITE_ONCE(reported[cpu], false);
}

u64 softlockup_stuck_ms(int cpu)
{
	if (cpu < 0 || cpu >= NR_CPUS || !READ_ONCE(watchdog_task[cpu]))
		return 0;
	return (u64)(ktime_get() - READ_ONCE(touch_ts[cpu])) / NSEC_PER_MSEC;
}

unsigned long softlockup_reports(void)
{
	return READ_ONCE(nr_reports);
}

struct softlockup_report softlockup_last(void)
{
	struct softlockup_report r;
	unsigned long flags;

	raw_spin_lock_irqsave(&report_lock, flags);
	r = last;
	raw_spin_unlock_irqrestore(&report_lock, flags);
	return r;
}

bool softlockup_running(void)
{
	return READ_ONCE(running);
}

#ifdef CONFIG_DETECT_SOFTLOCKUP
/*
 * report - [1] remember it, [2] print the task and this CPU's backtrace
 * (we are in the stuck CPU's own timer interrupt: the walk goes through
 * the interrupt frame into the code that does not schedule).
 * Context: hard irq on the stuck CPU.
 */
static void report(int cpu, u64 stuck_ms)
{
	struct task_struct *p = current;
	unsigned long flags;

	raw_spin_lock_irqsave(&report_lock, flags);		/* [1] */
	last.cpu = cpu;
	last.pid = p->pid;
	strscpy(last.comm, p->name, sizeof(last.comm));
	last.stuck_ms = stuck_ms;
	WRITE_ONCE(nr_reports, nr_reports + 1);
	raw_spin_unlock_irqrestore(&report_lock, flags);

	printk(KERN_EMERG "BUG: soft lockup - CPU#%d stuck for %llus! [%s:%d]\n",
	       cpu, (unsigned long long)(stuck_ms / 1000), p->name, p->pid);
	arch_show_backtrace((unsigned long)__builtin_frame_address(0)); /* [2] */
}

/*
 * check_fn - [0] if this timer itself fired a whole period late, start
 * measuring again; [1] kick the watchdog thread, remembering the first
 * kick it has not answered; [2] if that kick is a threshold old, report
 * once; [3] re-arm.
 *
 * Measuring from the kick, not from the last touch, keeps a vCPU the
 * host did not run for a while (TCG) from looking stuck: its timer and
 * its thread were both frozen, and the thread answers the first kick
 * after it.  [0] covers a freeze that falls between a kick and the
 * thread's answer: a CPU in a soft lockup still takes its timer
 * interrupts on time, so a late timer means the CPU did not run at all
 * (a descheduled vCPU; or interrupts off, which is a hard lockup and not
 * this detector's to report).  Context: hard irq (hrtimer), on the CPU
 * it watches.
 */
static enum hrtimer_restart check_fn(struct hrtimer *timer)
{
	int cpu = raw_smp_processor_id();
	ktime_t now = ktime_get();
	u64 stuck_ms;

	if (WARN_ON_ONCE(timer != &check_timer[cpu]))
		return HRTIMER_NORESTART;
	if (now - timer->expires > check_period_ns())		/* [0] */
		WRITE_ONCE(kick_ts[cpu], 0);
	wake_up_process(watchdog_task[cpu]);			/* [1] */
	if (!kick_ts[cpu])
		WRITE_ONCE(kick_ts[cpu], now);
	stuck_ms = (u64)(now - kick_ts[cpu]) / NSEC_PER_MSEC;
	if (stuck_ms >= READ_ONCE(thresh_ms) && !reported[cpu]) { /* [2] */
		WRITE_ONCE(reported[cpu], true);
		report(cpu, (u64)(now - touch_ts[cpu]) / NSEC_PER_MSEC);
	}
	timer->expires = now + check_period_ns();		/* [3] */
	return HRTIMER_RESTART;
}

/* watchdog_fn - watchdog/N: touch, sleep until the timer kicks us.
 * Context: kthread bound to its CPU, SCHED_FIFO 99. */
static int watchdog_fn(void *arg)
{
	int cpu = (int)(long)arg;

	BUG_ON(raw_smp_processor_id() != cpu);
	touch_softlockup_watchdog();
	hrtimer_start(&check_timer[cpu], ktime_get() + check_period_ns());
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
		__set_current_state(TASK_RUNNING);
		touch_softlockup_watchdog();
	}
	return 0;
}

void softlockup_init(void)
{
	struct sched_param sp = { .sched_priority = 99 };
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct task_struct *p;

		if (!cpu_online(cpu))
			continue;
		hrtimer_init(&check_timer[cpu], check_fn);
		p = kthread_create(watchdog_fn, (void *)(long)cpu,
				   "watchdog/%d", cpu);
		if (!p) {
			pr_err("softlockup: no watchdog thread for CPU %d\n",
			       cpu);
			continue;
		}
		kthread_bind(p, cpu);
		/* Linux's check runs in the stopper class, above RT and
		 * never throttled: kernel/sched/rt_bandwidth.c */
		p->flags |= PF_UNTHROTTLED;
		sched_setscheduler(p, SCHED_FIFO, &sp);
		touch_ts[cpu] = ktime_get();
		WRITE_ONCE(watchdog_task[cpu], p);
		wake_up_process(p);
	}
	WRITE_ONCE(running, true);
	pr_info("softlockup: watchdog on %d CPUs, threshold %llu ms\n",
		num_online_cpus(), (unsigned long long)thresh_ms);
}
#endif
