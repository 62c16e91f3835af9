/*
 * kernel/debug/sched_trace.c - the scheduling trace (see sched_trace.h):
 * per-CPU rings and their merged reading.
 *
 * Each CPU appends only to its own ring, with interrupts off, so a ring
 * has one writer at a time and needs no lock; head counts every event
 * since the start (the slot is head % ST_EVENTS, so past ST_EVENTS the
 * oldest are overwritten and counted as lost).  Readers stop the trace
 * first and wait for every CPU to leave its append (the per-CPU busy
 * flag), so they see quiet rings.
 *
 * Linux counterpart: kernel/trace/ring_buffer.c (per-CPU buffers,
 * overwrite mode), trace_sched_switch.c.
 */
#include "kernel/debug/sched_trace.h"
#include "kernel/mm/slab.h"
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

struct st_ring {
	struct st_event *ev;		/* ST_EVENTS; NULL before the first start */
	u64 head;			/* events appended since the start */
	int busy;			/* inside st_append (readers wait) */
};

static struct st_ring st_rings[NR_CPUS];
bool sched_trace_on;

static void copy_comm(char *dst, const struct task_struct *p)
{
	size_t i;

	for (i = 0; i < 15 && p && p->name[i]; i++)
		dst[i] = p->name[i] == ' ' ? '_' : p->name[i];
	if (!p)
		dst[i++] = '-';
	dst[i] = '\0';
}

/*
 * st_append - one event on this CPU: a about b.  Context: any; irqs off
 * inside.  Locking: none (this CPU is the ring's only writer).
 */
static void st_append(int type, struct task_struct *a, int a_prio,
		      struct task_struct *b, int b_prio, long val)
{
	unsigned long flags = arch_local_irq_save();
	int cpu = raw_smp_processor_id();
	struct st_ring *r = &st_rings[cpu];
	struct st_event *e;

	WRITE_ONCE(r->busy, 1);
	if (!READ_ONCE(sched_trace_on) || !r->ev)
		goto out;
	e = &r->ev[r->head % ST_EVENTS];
	e->ns = ktime_get_ns();
	e->type = (u16)type;
	e->cpu = (u16)cpu;
	e->a_pid = a ? a->pid : -1;
	e->a_prio = a_prio;
	e->b_pid = b ? b->pid : -1;
	e->b_prio = b_prio;
	e->val = val;
	copy_comm(e->a_comm, a);
	copy_comm(e->b_comm, b);
	WRITE_ONCE(r->head, r->head + 1);
out:
	__atomic_store_n(&r->busy, 0, __ATOMIC_RELEASE);
	arch_local_irq_restore(flags);
}

void __sched_trace_switch(struct task_struct *prev, struct task_struct *next)
{
	st_append(ST_SWITCH, prev, prev->prio, next, next->prio,
		  READ_ONCE(prev->state));
	if (!strncmp(next->name, "irq/", 4))
		st_append(ST_IRQRUN, next, next->prio, NULL, 0, 0);
}

void __sched_trace_wakeup(struct task_struct *p, int cpu)
{
	struct task_struct *by = current_or_null();

	st_append(ST_WAKEUP, p, p->prio, by, by ? by->prio : 0, cpu);
}

void __sched_trace_prio(struct task_struct *p, int prio)
{
	st_append(ST_PRIO, p, p->prio, current_or_null(), prio, 0);
}

void __sched_trace_contend(struct task_struct *waiter,
			   struct task_struct *owner, const void *lock)
{
	st_append(ST_CONTEND, waiter, waiter->prio, owner,
		  owner ? owner->prio : 0, (long)lock);
}

int sched_trace_start(void)
{
	int cpu;

	might_sleep();
	sched_trace_stop();
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		if (!st_rings[cpu].ev)
			st_rings[cpu].ev = kmalloc(ST_EVENTS *
						   sizeof(struct st_event),
						   GFP_KERNEL);
		if (!st_rings[cpu].ev)
			return -ENOMEM;
		st_rings[cpu].head = 0;
	}
	__atomic_store_n(&sched_trace_on, true, __ATOMIC_SEQ_CST);
	return 0;
}

/* Waits for the CPUs inside st_append to leave it. */
void sched_trace_stop(void)
{
	__atomic_store_n(&sched_trace_on, false, __ATOMIC_SEQ_CST);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		while (__atomic_load_n(&st_rings[cpu].busy, __ATOMIC_ACQUIRE) &&
		       cpu != raw_smp_processor_id())
			arch_cpu_relax();
}

u64 sched_trace_lost(void)
{
	u64 lost = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (st_rings[cpu].head > ST_EVENTS)
			lost += st_rings[cpu].head - ST_EVENTS;
	return lost;
}

/*
 * sched_trace_for_each - [1] stop; [2] each ring's oldest kept event is
 * its cursor; [3] repeatedly take the earliest cursor (a k-way merge).
 */
int sched_trace_for_each(int (*fn)(const struct st_event *e, void *arg),
			 void *arg)
{
	u64 pos[NR_CPUS];
	int cpu, best, ret;

	sched_trace_stop();					/* [1] */
	for (cpu = 0; cpu < NR_CPUS; cpu++) {			/* [2] */
		struct st_ring *r = &st_rings[cpu];

		pos[cpu] = r->head > ST_EVENTS ? r->head - ST_EVENTS : 0;
	}
	for (;;) {						/* [3] */
		const struct st_event *e, *be = NULL;

		best = -1;
		for (cpu = 0; cpu < NR_CPUS; cpu++) {
			struct st_ring *r = &st_rings[cpu];

			if (!r->ev || pos[cpu] >= r->head)
				continue;
			e = &r->ev[pos[cpu] % ST_EVENTS];
			if (!be || e->ns < be->ns) {
				be = e;
				best = cpu;
			}
		}
		if (best < 0)
			return 0;
		pos[best]++;
		ret = fn(be, arg);
		if (ret)
			return ret;
	}
}

int sched_trace_format(char *buf, size_t size, const struct st_event *e)
{
	int n = scnprintf(buf, size, "ST %llu %u ", (unsigned long long)e->ns,
			  e->cpu);

	switch (e->type) {
	case ST_SWITCH:
		return n + scnprintf(buf + n, size - n,
			"switch prev_pid=%d prev_comm=%s prev_prio=%d "
			"prev_state=%ld next_pid=%d next_comm=%s next_prio=%d",
			e->a_pid, e->a_comm, e->a_prio, e->val, e->b_pid,
			e->b_comm, e->b_prio);
	case ST_WAKEUP:
		return n + scnprintf(buf + n, size - n,
			"wakeup pid=%d comm=%s prio=%d target_cpu=%ld by_pid=%d",
			e->a_pid, e->a_comm, e->a_prio, e->val, e->b_pid);
	case ST_PRIO:
		return n + scnprintf(buf + n, size - n,
			"%s pid=%d comm=%s old_prio=%d new_prio=%d by_pid=%d",
			e->b_prio < e->a_prio ? "boost" : "deboost", e->a_pid,
			e->a_comm, e->a_prio, e->b_prio, e->b_pid);
	case ST_CONTEND:
		return n + scnprintf(buf + n, size - n,
			"contend pid=%d comm=%s prio=%d owner_pid=%d "
			"owner_comm=%s lock=%#lx", e->a_pid, e->a_comm,
			e->a_prio, e->b_pid, e->b_comm, (unsigned long)e->val);
	case ST_IRQRUN:
		return n + scnprintf(buf + n, size - n,
			"irqrun pid=%d comm=%s prio=%d", e->a_pid, e->a_comm,
			e->a_prio);
	default:
		return n + scnprintf(buf + n, size - n, "unknown type=%u",
				     e->type);
	}
}
