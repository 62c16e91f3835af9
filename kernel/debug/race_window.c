/*
 * kernel/debug/race_window.c - the parking side of race windows (see
 * kernel/debug/race_window.h for the protocol and a picture of it).
 */
#include "kernel/debug/race_window.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time/ktime.h"
#include "arch/x86_64/arch.h"

/*
 * __race_window_park - the slow path of trace_race_window(): claim the arming
 * (one pass parks per arming, even if two CPUs arrive together), publish
 * parked, spin until released or RACE_WINDOW_MAX_NS passed.
 * Context: any (may run with interrupts off and raw locks held; only
 * spins).  Locking: none; armed is claimed with a compare-and-swap.
 */
void __race_window_park(struct race_window *w)
{
	struct task_struct *want = READ_ONCE(w->task);
	int one = 1;
	u64 start;

	if (want && want != current_or_null())
		return;
	if (!__atomic_compare_exchange_n(&w->armed, &one, 0, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&w->parked, 1, __ATOMIC_RELEASE);
	w->hits++;
	start = ktime_get_ns();
	while (!__atomic_load_n(&w->released, __ATOMIC_ACQUIRE)) {
		if (ktime_get_ns() - start > RACE_WINDOW_MAX_NS) {
			w->expired++;
			printk(KERN_WARNING "race_window %s: not released within %llu ms, going on\n",
			       w->name, RACE_WINDOW_MAX_NS / 1000000ULL);
			break;
		}
		arch_cpu_relax();
	}
	__atomic_store_n(&w->parked, 0, __ATOMIC_RELEASE);
}

void race_window_arm(struct race_window *w, struct task_struct *task)
{
	/* a CPU still leaving the previous park must see its release first */
	while (__atomic_load_n(&w->parked, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	WRITE_ONCE(w->task, task);
	__atomic_store_n(&w->released, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&w->parked, 0, __ATOMIC_RELAXED);
	/* armed last: a window that sees it also sees task and released */
	__atomic_store_n(&w->armed, 1, __ATOMIC_RELEASE);
}

bool race_window_wait_parked(struct race_window *w, u64 timeout_ns)
{
	u64 start = ktime_get_ns();

	while (!__atomic_load_n(&w->parked, __ATOMIC_ACQUIRE)) {
		if (ktime_get_ns() - start > timeout_ns)
			return false;
		arch_cpu_relax();
	}
	return true;
}

bool race_window_run_until_parked(struct race_window *w,
				  struct task_struct *task, u64 timeout_ns)
{
	might_sleep();
	race_window_arm(w, task);
	wake_up_process(task);
	if (race_window_wait_parked(w, timeout_ns))
		return true;
	race_window_disarm(w);
	return false;
}

void race_window_release(struct race_window *w)
{
	__atomic_store_n(&w->armed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&w->released, 1, __ATOMIC_RELEASE);
}

void race_window_disarm(struct race_window *w)
{
	__atomic_store_n(&w->armed, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&w->released, 1, __ATOMIC_RELEASE);
}
