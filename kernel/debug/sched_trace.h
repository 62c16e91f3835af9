/*
 * kernel/debug/sched_trace.h - the scheduling trace: context switches,
 * wake-ups, PI boosts and deboosts, rt_mutex contention and IRQ thread
 * runs, recorded into per-CPU rings between `trace start` and `trace
 * stop`; `trace show` prints them merged in time order, `trace dump` in
 * the line format tools/trace2json.py turns into Chrome/Perfetto
 * trace-event JSON:
 *
 *	ST <ns> <cpu> switch prev_pid=3 prev_comm=init prev_prio=120
 *		prev_state=0 next_pid=9 next_comm=pong next_prio=49
 *	ST <ns> <cpu> wakeup pid=9 comm=pong prio=49 target_cpu=1 by_pid=3
 *	ST <ns> <cpu> boost|deboost pid=4 comm=low old_prio=120 new_prio=49
 *		by_pid=9
 *	ST <ns> <cpu> contend pid=9 comm=high prio=49 owner_pid=4
 *		owner_comm=low lock=0xffff...
 *	ST <ns> <cpu> irqrun pid=10 comm=irq/4-ttyS0 prio=49
 * (one line each; between "# sched_trace dump begin" and "... end").
 *
 * Always built; while stopped each hook is one load and a branch.
 * Linux counterpart: the sched_switch / sched_wakeup / sched_pi_setprio
 * tracepoints (include/trace/events/sched.h), lock:contention_begin,
 * irq_handler_entry; trace-cmd / perfetto's conversion.  rtk leaves out
 * event filters and a reader that runs while recording.
 */
#ifndef KERNEL_DEBUG_SCHED_TRACE_H
#define KERNEL_DEBUG_SCHED_TRACE_H

#include "lib/types.h"
#include "kernel/debug/hooks.h"

#define ST_EVENTS 4096		/* per CPU; the oldest are overwritten */

enum st_type {
	ST_SWITCH,		/* a: prev, b: next, val: prev's state */
	ST_WAKEUP,		/* a: woken, b: waker, val: target CPU */
	ST_PRIO,		/* a: task (a_prio old, b_prio new), b: by */
	ST_CONTEND,		/* a: waiter, b: owner, val: lock address */
	ST_IRQRUN,		/* a: the IRQ thread switched to */
	ST_NR_TYPES,
};

struct st_event {
	u64 ns;			/* ktime_get() */
	u16 type;		/* enum st_type */
	u16 cpu;
	int a_pid, a_prio;
	int b_pid, b_prio;
	long val;
	char a_comm[16];
	char b_comm[16];
};

struct task_struct;

/*
 * The hooks are trace_sched_switch (__schedule, before the switch),
 * trace_sched_wakeup (after p is queued on cpu), trace_sched_pi_setprio
 * (before p's prio becomes prio) and trace_contention_begin (waiter is
 * about to block on lock held by owner), in kernel/debug/hooks.h; while
 * sched_trace_on is false each is one load and a branch, otherwise it
 * calls __sched_trace_switch/wakeup/prio/contend here, which disable
 * irqs around the append.
 */

/* sched_trace_start - empty the rings, start recording.  Returns 0 or
 * -ENOMEM (the rings are allocated at the first start).
 * Context: task, may sleep. */
int sched_trace_start(void);
/* sched_trace_stop - stop recording (the rings are kept).
 * Context: any. */
void sched_trace_stop(void);

/*
 * sched_trace_for_each - call fn on every recorded event in time order
 * until it returns non-zero (returned).  Context: task, with the trace
 * stopped (a running trace is stopped first).
 */
int sched_trace_for_each(int (*fn)(const struct st_event *e, void *arg),
			 void *arg);
/* sched_trace_lost - events overwritten since the start. */
u64 sched_trace_lost(void);

/* sched_trace_format - e as one dump line (no newline) into buf. */
int sched_trace_format(char *buf, size_t size, const struct st_event *e);

#endif /* KERNEL_DEBUG_SCHED_TRACE_H */
