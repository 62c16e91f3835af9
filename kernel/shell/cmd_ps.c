/*
 * kernel/shell/cmd_ps.c - `ps`: one line per task.
 *
 *	PID NAME             POLICY PRI EPRI RTPRI NICE ST CPU AFFINITY
 *
 * PRI is the base priority (normal_prio: what the policy gives), EPRI the
 * effective one (prio: differs from PRI only while PI-boosted), both on
 * the kernel scale: 0..99 realtime (99 - rtprio, lower = more
 * important), 100..139 SCHED_OTHER (120 + nice), 140 idle.  RTPRI and
 * NICE are the user-side values chrt and nice take.  ST: R runnable
 * (R* = on a CPU now), S interruptible, D uninterruptible, M blocked on
 * a sleeping lock (TASK_RUNNING_MUTEX), X dead.  CPU: where it runs or
 * ran last; AFFINITY: cpus_allowed as a hex mask.  A user thread adds
 * "user TGID mm ADDR": its process and the mm_struct it runs on (the
 * address only names it: the mm may go while ps prints).
 * The task list lock is a raw spinlock taken with interrupts off, so the
 * fields are copied out under it (sched_for_each_task) and printed after.
 * Linux counterpart: procps `ps -eLo pid,comm,policy,pri,rtprio,ni,stat,
 * psr` and `taskset -p`.
 */
#include "kernel/shell/shell.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/mm/slab.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Tasks shown at most: the snapshot is one kmalloc, sized here because
 * fn of sched_for_each_task() cannot allocate (irqs off, raw lock). */
#define PS_MAX_TASKS 256

struct ps_row {
	char name[TASK_COMM_LEN];
	int pid, policy, normal_prio, prio, rt_priority, nice, cpu;
	long state;
	bool on_cpu;
	u64 affinity;
	int tgid;		/* 0: kernel thread */
	const void *mm;		/* identity only, never dereferenced */
};

struct ps_snapshot {
	struct ps_row *rows;
	int n;			/* rows filled */
	int total;		/* tasks seen (may exceed PS_MAX_TASKS) */
};

/* ps_copy - sched_for_each_task() callback.  Context: tasklist_lock held,
 * irqs off: copies only. */
static void ps_copy(struct task_struct *p, void *arg)
{
	struct ps_snapshot *snap = arg;
	struct ps_row *r;

	if (snap->total++ >= PS_MAX_TASKS)
		return;
	r = &snap->rows[snap->n++];
	memcpy(r->name, p->name, sizeof(r->name));
	r->name[sizeof(r->name) - 1] = '\0';
	r->pid = p->pid;
	r->policy = READ_ONCE(p->policy);
	r->normal_prio = READ_ONCE(p->normal_prio);
	r->prio = READ_ONCE(p->prio);
	r->rt_priority = READ_ONCE(p->rt_priority);
	r->nice = task_nice(p);
	r->cpu = task_cpu(p);
	r->state = READ_ONCE(p->state);
	r->on_cpu = __atomic_load_n(&p->on_cpu, __ATOMIC_RELAXED);
	r->affinity = __atomic_load_n(&p->cpus_allowed.bits, __ATOMIC_RELAXED);
	r->mm = READ_ONCE(p->mm);
	r->tgid = r->mm ? READ_ONCE(p->tgid) : 0;
}

static const char *state_name(long state, bool on_cpu)
{
	if (state == TASK_RUNNING)
		return on_cpu ? "R*" : "R";
	if (state & TASK_DEAD)
		return "X";
	if (state & TASK_RUNNING_MUTEX)
		return "M";
	if (state & TASK_UNINTERRUPTIBLE)
		return "D";
	if (state & TASK_INTERRUPTIBLE)
		return "S";
	return "?";
}

static int cmd_ps(int argc, char **argv)
{
	struct ps_snapshot snap = { 0 };

	(void)argv;
	if (argc > 1) {
		console_printf("usage: ps (no arguments)\n");
		return -EINVAL;
	}
	snap.rows = kmalloc(PS_MAX_TASKS * sizeof(*snap.rows), GFP_KERNEL);
	if (!snap.rows)
		return -ENOMEM;
	sched_for_each_task(ps_copy, &snap);
	console_printf("%5s %-16s %-6s %3s %4s %5s %4s %-2s %3s %s\n", "PID",
		       "NAME", "POLICY", "PRI", "EPRI", "RTPRI", "NICE", "ST",
		       "CPU", "AFFINITY");
	for (int i = 0; i < snap.n; i++) {
		const struct ps_row *r = &snap.rows[i];
		bool other = r->policy == SCHED_OTHER;

		console_printf("%5d %-16s %-6s %3d %4d %5d %4d %-2s %3d %#lx",
			       r->pid, r->name, sched_policy_name(r->policy),
			       r->normal_prio, r->prio, r->rt_priority,
			       other ? r->nice : 0,
			       state_name(r->state, r->on_cpu), r->cpu,
			       (unsigned long)r->affinity);
		if (r->tgid)
			console_printf(" user %d mm %p", r->tgid, r->mm);
		console_printf("\n");
	}
	if (snap.total > snap.n)
		console_printf("(%d more tasks not shown)\n",
			       snap.total - snap.n);
	kfree(snap.rows);
	return 0;
}
SHELL_COMMAND(ps, "one line per task: pid, name, policy, prio, state, CPU, affinity",
	      cmd_ps);
