/*
 * kernel/debug/hooks.h - every call from a mechanism into an instrument,
 * in one family a reader learns once: trace_<event>(args).
 *
 * A mechanism (kernel/sched, locking, time, irq, rcu, mm, futex, user)
 * includes this header and no other from kernel/debug or
 * kernel/workloads.  Each hook is an inline that costs one load and a
 * predicted branch while its instruments are off, or nothing at all when
 * the instrument is a build option that is off (the article's timing
 * options, "Debugging Configuration Options"); the work is done out of
 * line by the instrument, in the function the hook names (__latbreak_*,
 * __sched_trace_*, __trace_* of latency_timing.c, __rttester_* of the
 * PI tester), so grep finds each one.  A hot function (the tick handler,
 * irq_enter/irq_exit, try_to_wake_up, __schedule, rt_mutex_slowlock's
 * sleep loop) calls at most one hook; a hook that feeds several
 * instruments calls each of them here, in the order given.
 *
 *	hook				caller			instruments
 *	trace_preempt_off/on		preempt_disable/enable	CRITICAL_PREEMPT_TIMING
 *	trace_hardirqs_off/on		raw_local_irq_*		CRITICAL_IRQSOFF_TIMING
 *	stop_critical_timings		the idle loop		CRITICAL_IRQSOFF_TIMING
 *	trace_irq_enter			irq_enter		IRQSOFF_TIMING, latbreak [0]
 *	trace_tick_entry		tick_timer_interrupt	latbreak [1], event check
 *	trace_hrtimer_sleeper_expire	abs_sleeper_fn		latbreak [2]
 *	trace_sched_wakeup		try_to_wake_up		WAKEUP_TIMING, sched_trace,
 *								latbreak [3]
 *	trace_tick_reprogram		tick_reprogram		latbreak [4]
 *	trace_irq_handler_exit		handle_percpu_irq	latbreak [5]
 *	trace_irq_exit			irq_exit		latbreak [6]
 *	trace_sched_switch		__schedule		WAKEUP_TIMING, sched_trace
 *	trace_hrtimer_sleeper_running	schedule_hrtimeout_abs	latbreak [7]
 *	trace_sched_pi_setprio		rt_mutex_setprio	sched_trace
 *	trace_contention_begin		task_blocks_on_rt_mutex	sched_trace
 *	trace_rt_mutex_block/wakeup	rt_mutex_slowlock	the PI tester
 *	trace_race_window		32 race windows		the race-window tests
 *
 * The race windows are the one test-only seam (race_window.h has the
 * test side): each point is a struct race_window defined beside its
 * window and declared in that file's header.
 * Linux counterpart: the tracepoints of include/trace/events/ (sched.h:
 * sched_switch, sched_wakeup, sched_pi_setprio; lock.h:
 * contention_begin; irq.h) and include/linux/irqflags.h,
 * kernel/trace/trace_preemptirq.c for the timing hooks.  rtk has no
 * registration: each hook calls its instruments directly.
 */
#ifndef KERNEL_DEBUG_HOOKS_H
#define KERNEL_DEBUG_HOOKS_H

#include "lib/types.h"
#include "lib/compiler.h"

struct task_struct;
struct rt_mutex;

/* ---- the article's timing options (kernel/debug/latency_timing.c) */
#if defined(CONFIG_CRITICAL_PREEMPT_TIMING) || \
	defined(CONFIG_CRITICAL_IRQSOFF_TIMING) || defined(CONFIG_WAKEUP_TIMING)
#define CONFIG_LATENCY_TIMING 1	/* any of them: the `latency` command */
#endif

void __trace_preempt_off(unsigned long ip, unsigned long parent);
void __trace_preempt_on(unsigned long ip, unsigned long parent);
void __trace_hardirqs_off(unsigned long ip, unsigned long parent);
void __trace_hardirqs_on(unsigned long ip, unsigned long parent);
void __trace_hardirqs_entry(void);
void latency_wakeup_mark(struct task_struct *p, unsigned long ip);
void latency_wakeup_switch(struct task_struct *next, unsigned long ip);

/*
 * trace_preempt_off/on - the outermost preempt_disable() / the matching
 * preempt_enable() (preempt_count 1 after the increment, before the
 * decrement).  Macros: _RET_IP_ must be the caller's caller.
 */
#ifdef CONFIG_CRITICAL_PREEMPT_TIMING
#define trace_preempt_off()                                                  \
	do {                                                                 \
		if (preempt_count() == 1)                                    \
			__trace_preempt_off(_THIS_IP_, _RET_IP_);            \
	} while (0)
#define trace_preempt_on()                                                   \
	do {                                                                 \
		if (preempt_count() == 1)                                    \
			__trace_preempt_on(_THIS_IP_, _RET_IP_);             \
	} while (0)
#else
#define trace_preempt_off() do { } while (0)
#define trace_preempt_on() do { } while (0)
#endif

/*
 * trace_irq_flags - the flags raw_local_irq_disable() reads before cli
 * and hands to trace_hardirqs_off(); trace_hardirqs_off(was) after cli
 * opens a section if interrupts were on; trace_hardirqs_on(new) before
 * sti or a restore closes it if new has them on.  stop_critical_timings
 * closes a section whose end the hooks cannot see (the idle loop's sti
 * is inside arch_idle).
 */
#ifdef CONFIG_CRITICAL_IRQSOFF_TIMING
#define trace_irq_flags() arch_local_save_flags()
#define trace_hardirqs_off(was_flags)                                        \
	do {                                                                 \
		if (!arch_irqs_disabled_flags(was_flags))                    \
			__trace_hardirqs_off(_THIS_IP_, _RET_IP_);           \
	} while (0)
#define trace_hardirqs_on(new_flags)                                         \
	do {                                                                 \
		if (!arch_irqs_disabled_flags(new_flags))                    \
			__trace_hardirqs_on(_THIS_IP_, _RET_IP_);            \
	} while (0)
#define stop_critical_timings() __trace_hardirqs_on(_THIS_IP_, _RET_IP_)
#define trace_hardirqs_entry() __trace_hardirqs_entry()
#else
#define trace_irq_flags() 0UL
#define trace_hardirqs_off(was_flags) do { (void)(was_flags); } while (0)
#define trace_hardirqs_on(new_flags) do { (void)(new_flags); } while (0)
#define stop_critical_timings() do { } while (0)
#define trace_hardirqs_entry() do { } while (0)
#endif

#ifdef CONFIG_WAKEUP_TIMING
#define trace_wakeup_timing_mark(p) latency_wakeup_mark((p), _RET_IP_)
#define trace_wakeup_timing_switch(next) latency_wakeup_switch((next), _THIS_IP_)
#else
#define trace_wakeup_timing_mark(p) do { (void)(p); } while (0)
#define trace_wakeup_timing_switch(next) do { (void)(next); } while (0)
#endif

/* ---- latbreak: one cyclictest wake-up in stages (latbreak.h) */
extern bool latbreak_enabled;
void __latbreak_irq_vector(void);
void __latbreak_tick_entry(s64 armed, s64 next_tick, s64 now);
void __latbreak_expiry(struct task_struct *task, s64 expires);
void __latbreak_woken(struct task_struct *p);
void __latbreak_reprogram(void);
void __latbreak_handler_exit(void);
void __latbreak_irq_exit(void);
void __latbreak_sleeper_running(void);

/* ---- the scheduling trace (sched_trace.h) */
extern bool sched_trace_on;
void __sched_trace_switch(struct task_struct *prev, struct task_struct *next);
void __sched_trace_wakeup(struct task_struct *p, int cpu);
void __sched_trace_prio(struct task_struct *p, int prio);
void __sched_trace_contend(struct task_struct *waiter,
			   struct task_struct *owner, const void *lock);

/* ---- the PI tester (kernel/workloads/rttester.h) */
extern bool rttester_active;
void __rttester_block(struct rt_mutex *lock);
void __rttester_wakeup(struct rt_mutex *lock);

/* trace_irq_enter - any interrupt's entry.  Context: hardirq, irqs off. */
static inline void trace_irq_enter(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_irq_vector();	/* latbreak's stage [0] ends */
	trace_hardirqs_entry();		/* IF was on: drop a stale irqs-off */
}

/* trace_irq_exit - irq_exit() reached its preemption point.
 * Context: hardirq exit, irqs off. */
static inline void trace_irq_exit(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_irq_exit();
}

/* trace_irq_handler_exit - a per-CPU line's handler returned.
 * Context: hardirq, irqs off. */
static inline void trace_irq_handler_exit(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_handler_exit();
}

/* trace_tick_entry - the tick handler's entry: armed is the event the
 * CPU had programmed, next_tick the tick it was due for, now the
 * handler's clock read.  Context: hardirq, irqs off. */
static inline void trace_tick_entry(s64 armed, s64 next_tick, s64 now)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_tick_entry(armed, next_tick, now);
}

/* trace_tick_reprogram - the next timer event is about to be
 * programmed.  Context: irqs off. */
static inline void trace_tick_reprogram(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_reprogram();
}

/* trace_hrtimer_sleeper_expire - an hrtimer sleeper's callback starts,
 * before it wakes task.  Context: hardirq (the timer interrupt). */
static inline void trace_hrtimer_sleeper_expire(struct task_struct *task,
						s64 expires)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_expiry(task, expires);
}

/* trace_hrtimer_sleeper_running - the sleeper runs again after its
 * timer fired.  Context: task. */
static inline void trace_hrtimer_sleeper_running(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_sleeper_running();
}

/* trace_sched_wakeup - p was queued on cpu by a wake-up.
 * Context: any, p->pi_lock and the run-queue lock held. */
#define trace_sched_wakeup(p, cpu)                                           \
	do {                                                                 \
		trace_wakeup_timing_mark(p);                                 \
		if (unlikely(READ_ONCE(sched_trace_on)))                     \
			__sched_trace_wakeup((p), (cpu));                    \
		if (unlikely(READ_ONCE(latbreak_enabled)))                   \
			__latbreak_woken(p);                                 \
	} while (0)

/* trace_sched_switch - next is about to run instead of prev.
 * Context: __schedule, irqs off, rq->lock held. */
#define trace_sched_switch(prev, next)                                       \
	do {                                                                 \
		trace_wakeup_timing_switch(next);                            \
		if (unlikely(READ_ONCE(sched_trace_on)))                     \
			__sched_trace_switch((prev), (next));                \
	} while (0)

/* trace_sched_pi_setprio - p's priority becomes prio (a boost or a
 * deboost).  Context: any, p->pi_lock held. */
static inline void trace_sched_pi_setprio(struct task_struct *p, int prio)
{
	if (unlikely(READ_ONCE(sched_trace_on)))
		__sched_trace_prio(p, prio);
}

/* trace_contention_begin - waiter is about to block on lock, held by
 * owner.  Context: task, lock->wait_lock held. */
static inline void trace_contention_begin(struct task_struct *waiter,
					  struct task_struct *owner,
					  const void *lock)
{
	if (unlikely(READ_ONCE(sched_trace_on)))
		__sched_trace_contend(waiter, owner, lock);
}

/* trace_rt_mutex_block - current is queued on lock and its PI chain is
 * walked; it is about to sleep (Locking: lock->wait_lock held, irqs
 * off).  trace_rt_mutex_wakeup - current woke in the slow path's sleep,
 * before it retries lock: the PI tester may stop it there
 * (kernel/workloads/rttester.c; Locking: none held).  Both: Context:
 * task, current->state set. */
static inline void trace_rt_mutex_block(struct rt_mutex *lock)
{
	if (unlikely(READ_ONCE(rttester_active)))
		__rttester_block(lock);
}

static inline void trace_rt_mutex_wakeup(struct rt_mutex *lock)
{
	if (unlikely(READ_ONCE(rttester_active)))
		__rttester_wakeup(lock);
}

/* ---- race windows (race_window.h: the tests' side) */

/* 1 s: far longer than any racing operation a test performs, short enough
 * that a broken test still finishes. */
#define RACE_WINDOW_MAX_NS 1000000000ULL

struct race_window {
	const char *name;
	/* written by the test, read by the window: */
	int armed;			/* 1: the next matching pass parks */
	struct task_struct *task;	/* park only this task; NULL: any */
	int released;			/* 1: the parked CPU may go on */
	/* written by the window, read by the test: */
	int parked;			/* 1: a CPU is inside the window now */
	unsigned long hits;		/* parks since boot */
	unsigned long expired;		/* parks ended by RACE_WINDOW_MAX_NS */
};

#define DEFINE_RACE_WINDOW(wname) \
	struct race_window wname = { .name = #wname }

void __race_window_park(struct race_window *w);

/* trace_race_window - park here if w is armed for this task.
 * Context: any (it only spins). */
static inline void trace_race_window(struct race_window *w)
{
	if (unlikely(READ_ONCE(w->armed)))
		__race_window_park(w);
}

/* The test side (race_window.h has the rest); here because a boot
 * parameter arms a window from kernel code (sched.ap_startup_race). */
/*
 * race_window_arm - make the next pass of task (NULL: any task) through w
 * park until race_window_release().  Context: task.  Locking: none.
 */
void race_window_arm(struct race_window *w, struct task_struct *task);
/* race_window_release - let the parked CPU go on; disarms w.  Context: any. */
void race_window_release(struct race_window *w);
/* race_window_disarm - disarm w whether or not it fired.  Context: any. */
void race_window_disarm(struct race_window *w);

#endif /* KERNEL_DEBUG_HOOKS_H */
