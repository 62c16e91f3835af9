/*
 * kernel/sched/idle.c - the per-CPU idle tasks, and the boot flow as
 * the first task.
 *
 * Boot CPU: kmain's flow becomes the task "init" (pid 2, SCHED_OTHER,
 * on the boot stack) at sched_init(); its idle task "swapper/0" gets a
 * fresh kernel stack.  Application processors: the SMP code calls
 * idle_init(cpu) on the boot CPU before it starts the AP (the idle task
 * "swapper/N" becomes that CPU's rq->curr), then the AP calls
 * cpu_startup_entry(cpu) on its boot stack, which becomes swapper/N's.
 * An idle task is never on a run queue: pick_next_task() falls back to
 * it.  It runs with TASK_RUNNING and
 * preempt_count 0 and halts with interrupts on until TIF_NEED_RESCHED.
 * Linux counterpart: kernel/sched/idle.c (do_idle, cpu_startup_entry),
 * init/main.c rest_init(), kernel/sched/core.c init_idle().
 */
#include "kernel/sched/rq.h"
#include "kernel/cmdline.h"
#include "kernel/debug/hooks.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/slab.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "kernel/version.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"


static struct task_struct init_task;
static struct task_struct idle_tasks[NR_CPUS];

/*
 * ap_startup_window - between an AP going online (set_cpu_online in
 * ap_start: from then on the boot CPU's for_each_online_cpu loops,
 * softirq_init's ksoftirqd/N among them, wake tasks bound to it) and
 * the AP's first scheduler step below.  Armed at boot by
 * `sched.ap_startup_race`; released by the racing side, softirq_init
 * (kernel/irq/softirq.c), after its wake-ups.  ap_early_wakeups[cpu]
 * counts tasks found queued on cpu's run queue when its AP got here:
 * test_ap_startup.c checks that the wake-up did land in the window.
 */
DEFINE_RACE_WINDOW(ap_startup_window);
static unsigned int ap_early_wakeups[NR_CPUS];

/* `sched.ap_startup_race`: the first AP to reach cpu_startup_entry
 * parks there (up to RACE_WINDOW_MAX_NS) until softirq_init is done. */
static int __init parse_ap_startup_race(const char *val)
{
	race_window_arm(&ap_startup_window, NULL);
	return 0;
}
CMDLINE_PARAM("sched.ap_startup_race", parse_ap_startup_race);

unsigned int sched_ap_early_wakeups(int cpu)
{
	BUG_ON(cpu < 0 || cpu >= NR_CPUS);
	return READ_ONCE(ap_early_wakeups[cpu]);
}

/*
 * do_idle - halt until there is something to run, then schedule.  The
 * need_resched() test runs with interrupts off and arch_idle() enables
 * them and halts as one step, so a wakeup's interrupt cannot land
 * between the test and the halt.  With NO_HZ idle on:
 * tick_nohz_idle_enter() may stop the tick for the halt (the scheduler
 * restarts it when it switches away from this task, tick_nohz_idle_exit
 * in __schedule); a task already queued here is not slept over (no tick
 * would come to notice it, scheduler_tick's idle check) -- but for the
 * RT tasks of a throttled CPU, which wait for the period timer's
 * reschedule (rq_rt_runnable_hint; rt_bandwidth.c); and a tickless
 * CPU, which runs no periodic balance, pulls waiting SCHED_OTHER work
 * when a busy CPU's tick kicks it (nohz_balance_kick; only then: see
 * nohz_idle_balance for what a pull on every way into idle cost).
 * Context: the idle task, preempt_count 0.
 */
static __noreturn void do_idle(void)
{
	struct rq *rq = this_rq();
	bool nohz = tick_nohz_enabled();

	for (;;) {
		if (nohz && !need_resched())
			nohz_idle_balance(rq);	/* pull if a busy CPU asked */
		raw_local_irq_disable();
		if (!need_resched() &&
		    !(nohz && (READ_ONCE(rq->nr_fair) ||
			       rq_rt_runnable_hint(rq)))) {
			tick_nohz_idle_enter();	/* exit: leaving this task */
			stop_critical_timings();	/* arch_idle's sti is unhooked */
			arch_idle();
		} else
			raw_local_irq_enable();
		if (need_resched() || READ_ONCE(rq->nr_fair) ||
		    rq_rt_runnable_hint(rq))
			schedule();
	}
}

static int idle_entry(void *unused)
{
	do_idle();
}

/* idle_task_init - the fields of cpu's idle task.  Context: boot. */
void idle_task_init(struct rq *rq, struct task_struct *idle, int cpu)
{
	char name[TASK_COMM_LEN];

	snprintf(name, sizeof(name), "swapper/%d", cpu);
	sched_task_init(idle, name);
	/* swapper/0 is the first task: its number is INIT_PID, which no
	 * kernel task shows then (tasklist.c next_pid) */
	BUG_ON(cpu == 0 && idle->pid != INIT_PID);
	idle->pid = 0;
	idle->flags = PF_KTHREAD | PF_IDLE | PF_NO_SETAFFINITY;
	idle->state = TASK_RUNNING;
	idle->policy = SCHED_IDLE_TASK;
	idle->prio = idle->normal_prio = idle->static_prio = IDLE_PRIO;
	idle->cpus_allowed.bits = 1ULL << cpu;
	idle->cpu = cpu;
	idle->refcount = 1;	/* never dropped */
	rq->idle = idle;
}

/* sched_init_boot_task - the boot flow becomes the task "init"; called
 * by sched_init() (kernel/sched/core.c, declared in rq.h). */
void __init sched_init_boot_task(void)
{
	struct rq *rq = cpu_rq(0);
	struct task_struct *idle = &idle_tasks[0];
	unsigned long flags;

	idle_task_init(rq, idle, 0);
	idle->stack = kstack_alloc();
	if (!idle->stack)
		panic("sched: no stack for swapper/0");
	idle->sp = arch_task_stack_init(kstack_top(idle->stack), idle_entry,
					NULL);

	sched_task_init(&init_task, "init");
	init_task.state = TASK_RUNNING;
	init_task.preempt_count = 0;
	init_task.active_mm = &init_mm;	/* see idle_init */
	raw_spin_lock_irqsave(&rq->lock, flags);
	rq->curr = &init_task;
	init_task.on_cpu = true;
	init_task.exec_start_ns = ktime_get_ns();
	activate_task(rq, &init_task, false);
	rq->online = true;
	this_cpu_write(current_task, &init_task);
	/* taken before there was a current: init holds it now (lockdep) */
	lock_acquire(&rq->lock.dep_map, 0, true, 0, _THIS_IP_);
	raw_spin_unlock_irqrestore(&rq->lock, flags);
	pr_info("sched: init (pid %d) on CPU 0, model PREEMPT_%s\n",
		init_task.pid, RTK_PREEMPT_NAME);
}

/*
 * idle_init - cpu's idle task, made on the boot CPU before cpu is
 * started, and made cpu's rq->curr (and rq->idle): from the moment the
 * AP is online a wake-up may queue a task on its run queue, and
 * check_preempt() (like rq_update_cpu_prio, prio_changed_rt, the
 * placement code) reads rq->curr without testing it for NULL.  When the
 * AP set rq->curr itself, in cpu_startup_entry, it did so too late:
 *
 *	CPU0 (boot, init)                  CPU1 (AP)
 *	boot_ap(1): start it, wait online
 *	                                   ap_start: timer, tick,
 *	                                   set_cpu_online(1)
 *	sees CPU 1 online, smp_init done
 *	softirq_init: ksoftirqd/1, bound
 *	  to CPU 1; wake_up_process:
 *	  select_fallback_rq: CPU 1 (its
 *	  only CPU, rq1 not online yet)
 *	  lock rq1, enqueue
 *	  check_preempt(rq1): rq1->curr
 *	  is NULL: curr->prio faults      cpu_startup_entry: lock rq1
 *	  (page fault at 0x44, Oops)         (spins), rq1->curr = idle
 *
 * Seen once in 2 boots (SMP=2, TCG, loaded host); forced every time by
 * the boot parameter sched.ap_startup_race (ap_startup_window above;
 * tests/kernel/test_ap_startup.c, test_wakeup_before_the_ap_scheduler_
 * starts).  Like Linux (idle_threads_init -> init_idle(), which sets
 * rq->curr = rq->idle = idle for every CPU before it is brought up),
 * rq->curr is the idle task from before the AP runs: a task queued in
 * the window is picked by the AP's first schedule() (do_idle sees it
 * queued, or the resched_curr that check_preempt sent).  Refusing a
 * CPU that is not online in try_to_wake_up would not do: a bound
 * kthread has no other CPU (select_fallback_rq keeps it on its own), and
 * every other path that queues on a remote run queue would need the
 * same test.
 * Context: boot CPU, task, before the arch starts cpu.  Locking: takes
 * cpu's rq->lock (irqs off).
 */
void __init idle_init(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *idle = &idle_tasks[cpu];
	unsigned long flags;

	BUG_ON(cpu <= 0 || cpu >= NR_CPUS || cpu_online(cpu));
	idle_task_init(rq, idle, cpu);
	idle->preempt_count = 0;
	/* the AP runs on the kernel's page tables (the trampoline loaded
	 * them): its first task's active_mm (core.c switch_mm) */
	idle->active_mm = &init_mm;
	raw_spin_lock_irqsave(&rq->lock, flags);
	rq->curr = idle;
	idle->on_cpu = true;
	raw_spin_unlock_irqrestore(&rq->lock, flags);
}

/* cpu_startup_entry - an AP's first scheduler code, on its boot stack,
 * which from now on is its idle task's (made by idle_init before the
 * AP was started); see arch/x86_64/arch.h (called by ap_start() in
 * arch/x86_64/smpboot.c).
 * Context: the AP, irqs off; never returns. */
void cpu_startup_entry(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	struct task_struct *idle = &idle_tasks[cpu];

	BUG_ON(!raw_irqs_disabled());
	trace_race_window(&ap_startup_window);
	raw_spin_lock(&rq->lock);
	BUG_ON(rq->curr != idle || rq->idle != idle); /* idle_init */
	ap_early_wakeups[cpu] = rq->nr_fair + rq->rt.nr_queued;
	this_cpu_write(current_task, idle);
	/* taken before there was a current: idle holds it now (lockdep) */
	lock_acquire(&rq->lock.dep_map, 0, true, 0, _THIS_IP_);
	rq->online = true;
	rq_update_cpu_prio(rq);
	raw_spin_unlock(&rq->lock);
	do_idle();
}
