/*
 * kernel/debug/race_window.h - test-only hooks that hold a race window open.
 *
 * A race between two CPUs usually needs them to meet inside a window of a
 * few instructions, so a test that waits for it to happen by chance fails
 * once a month.  A race window makes it happen every time: the code under
 * test marks the window with trace_race_window(&point) (hooks.h), and a
 * test arms the point, waits until a CPU is parked inside the window,
 * runs the other side of the race from another CPU, and lets the parked
 * CPU go on:
 *
 *	CPU0 (code under test)			CPU1 (the test)
 *	race_window_arm(&p, task)
 *	... trace_race_window(&p):
 *	    p.parked = 1; spin			race_window_wait_parked(&p)
 *						<the racing operation>
 *	    sees p.released, returns		race_window_release(&p)
 *
 * Each point is defined next to its window (DEFINE_RACE_WINDOW(name)) and
 * declared in the header of that file, so grep finds both.  An unarmed
 * point costs one load and a predicted branch; a point fires once per
 * arming, only for the armed task (or any task if NULL), and never parks
 * longer than RACE_WINDOW_MAX_NS, so a test that forgets to release does
 * not hang the machine (the expired wait is counted and reported).
 *
 * Context: trace_race_window() may be called anywhere, with locks held and
 * interrupts off: it only spins.  The racing side must therefore not need
 * anything the parked CPU holds (that is the point: it races the window).
 * Linux counterpart: none in mainline; its tests use fault injection and
 * KCSAN's delays (kernel/kcsan) for the same purpose.
 */
#ifndef KERNEL_DEBUG_RACE_WINDOW_H
#define KERNEL_DEBUG_RACE_WINDOW_H

#include "kernel/debug/hooks.h"	/* struct race_window, trace_race_window */

/*
 * race_window_wait_parked - spin until a CPU is parked in w; false if none
 * arrived within timeout_ns.  Context: task, on another CPU than the one
 * that will park (else it could wait for itself).
 */
bool race_window_wait_parked(struct race_window *w, u64 timeout_ns);
/*
 * race_window_run_until_parked - the usual opening of a race test: arm w
 * for task, wake task (created or sleeping, bound to another CPU than the
 * caller's), and wait until it parks in w.  Returns true with task parked
 * (the caller races it, then race_window_release()), or false with w
 * disarmed when task did not park within timeout_ns (it ran through w, or
 * never got there: the caller reports it).  Context: task.
 */
bool race_window_run_until_parked(struct race_window *w,
				  struct task_struct *task, u64 timeout_ns);
/* race_window_arm, race_window_release, race_window_disarm: hooks.h
 * (a boot parameter arms a window in the kernel: sched.ap_startup_race). */

#endif /* KERNEL_DEBUG_RACE_WINDOW_H */
