/*
 * kernel/debug/softlockup.h - DETECT_SOFTLOCKUP (the article's debugging
 * option): a CPU that has not scheduled for softlockup_thresh (10 s by
 * default; `softlockup_thresh=S` on the command line, `softlockup thresh
 * MS` in the shell) prints the stuck task and a backtrace, once per
 * lockup.
 *
 * Like Linux's: a SCHED_FIFO 99 thread per CPU (watchdog/N) writes a
 * per-CPU timestamp whenever it runs, i.e. whenever that CPU schedules;
 * a per-CPU hrtimer (hard irq, on the stuck CPU itself) wakes it and
 * checks the timestamp, so the report and its backtrace come from the
 * stuck CPU's own interrupt.  Built unless `make DETECT_SOFTLOCKUP=0`.
 * Linux counterpart: kernel/watchdog.c (watchdog_timer_fn,
 * softlockup_fn, is_softlockup, touch_softlockup_watchdog).
 */
#ifndef KERNEL_DEBUG_SOFTLOCKUP_H
#define KERNEL_DEBUG_SOFTLOCKUP_H

#include "lib/types.h"

struct softlockup_report {
	int cpu;			/* -1: none yet */
	int pid;			/* the task that held the CPU */
	char comm[16];
	u64 stuck_ms;			/* how long it had not scheduled */
};

#ifdef CONFIG_DETECT_SOFTLOCKUP
/* softlockup_init - start watchdog/N and the check timer on every online
 * CPU.  Context: boot (init task), after smp_init(). */
void softlockup_init(void);
#else
static inline void softlockup_init(void) { }
#endif

/* softlockup_set_thresh_ms / softlockup_thresh_ms - the threshold
 * (minimum 100 ms); the check period follows it (a fifth). */
#define SOFTLOCKUP_MIN_THRESH_MS 100UL		/* the accepted range */
#define SOFTLOCKUP_MAX_THRESH_MS (3600UL * 1000)
int softlockup_set_thresh_ms(u64 ms);
u64 softlockup_thresh_ms(void);

/* softlockup_reports - reports printed so far; softlockup_last - the
 * last one (tests, the shell).  softlockup_running - the watchdog is up. */
unsigned long softlockup_reports(void);
struct softlockup_report softlockup_last(void);
bool softlockup_running(void);

/* softlockup_stuck_ms - how long cpu has gone without the watchdog thread
 * running (0 if it is not watched). */
u64 softlockup_stuck_ms(int cpu);

/* touch_softlockup_watchdog - this CPU is not stuck (a known long
 * section: early boot, a debugger).  Context: any. */
void touch_softlockup_watchdog(void);

#endif /* KERNEL_DEBUG_SOFTLOCKUP_H */
