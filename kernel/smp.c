/*
 * kernel/smp.c - the online-CPU bookkeeping and the cross-CPU function
 * calls (see kernel/smp.h).
 *
 * Each CPU has a call queue: a lock-free singly linked list (Linux's
 * llist) of struct call_single_data, pushed by any CPU with one
 * compare-and-swap and emptied by its owner in one exchange.  No lock
 * is needed, which matters because there is no raw_spinlock_t below this
 * code and because the handler runs with interrupts off.
 *
 *   caller (CPU A)                       target (CPU B), IPI handler
 *   [1] lock A's call slot for B
 *       (spin while a previous async
 *       call through it is pending)
 *   [2] slot.func, slot.info = ...
 *   [3] push slot on B's queue (CAS);
 *       if the queue was empty: IPI B      [4] take the whole queue
 *                                              (exchange with NULL)
 *                                          [5] reverse it (FIFO order),
 *                                              for each slot: func(info),
 *   [6] wait: spin until the slot              then unlock it (release)
 *       is unlocked (acquire)
 * Sending the IPI only when the queue was empty is enough: a non-empty
 * queue has an IPI on the way that has not reached [4] yet, and [4]
 * takes the new slot too.  The slot is read at [5] before it is unlocked:
 * after the unlock its owner may reuse it at once.
 * The slots are per caller CPU (one per target), found through
 * raw_smp_processor_id(); the lock at [1] is an atomic flag, so a caller
 * that migrates between [1] and [6] still owns the slot it locked.
 * Linux counterpart: kernel/smp.c (call_single_queue, csd_lock,
 * generic_smp_call_function_single_interrupt, smp_call_function_many_cond),
 * arch/x86/kernel/smp.c.  rtk leaves out the conditional variants,
 * csd lock debugging by timestamps and CPU hotplug.
 */
#include "kernel/smp.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/sched.h"	/* scheduler_ipi */
#include "kernel/printk.h"
#include "kernel/time/ktime.h"
#include "kernel/debug/hooks.h"
#include "arch/x86_64/arch.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "kernel/irqflags.h"

cpumask_t cpu_online_mask;
int nr_cpu_ids = 1;

#define CSD_FLAG_LOCK 0x1
/* A wait longer than this reports the stuck target (once per wait):
 * a call-function handler is a few microseconds; even TCG with 64 CPUs
 * delivers an IPI in well under a second. */
#define CSD_WAIT_WARN_NS (5 * NSEC_PER_SEC)

struct call_single_data {
	struct call_single_data *next; /* on the target's queue */
	smp_call_func_t func;	       /* written under CSD_FLAG_LOCK */
	void *info;
	u32 flags;  /* CSD_FLAG_LOCK: queued or running */
	int target; /* CPU it was sent to (diagnostics) */
};

/* The caller's slot for each target CPU ([1]). */
static DEFINE_PER_CPU(struct call_single_data[NR_CPUS], call_slots);
/* This CPU's queue of slots to run ([3], [4]). */
static DEFINE_PER_CPU(struct call_single_data *, call_queue);
DEFINE_PER_CPU(u64[NR_IPI_TYPES], ipi_received);

const char *ipi_type_name(enum ipi_type type)
{
	static const char *const names[NR_IPI_TYPES] = {
		[IPI_RESCHEDULE] = "RES",
		[IPI_CALL_FUNC] = "CAL",
		[IPI_CALL_FUNC_SINGLE] = "CAS",
		[IPI_STOP] = "NMI-STOP",
	};

	return (unsigned)type < NR_IPI_TYPES ? names[type] : "?";
}

/* csd_lock - [1] take the slot; it is free once the last call made
 * through it has run.  Pairs with csd_unlock() in flush_call_queue(). */
static struct call_single_data *csd_lock(int target)
{
	struct call_single_data *csd;
	unsigned long flags;
	u32 unlocked;

	raw_local_irq_save(flags); /* the slot of the CPU we are on */
	csd = per_cpu_ptr(&call_slots[target], raw_smp_processor_id());
	raw_local_irq_restore(flags);
	for (;;) {
		unlocked = 0;
		if (__atomic_compare_exchange_n(
			    &csd->flags, &unlocked, CSD_FLAG_LOCK, false,
			    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return csd;
		cpu_relax();
	}
}

static void csd_unlock(struct call_single_data *csd)
{
	__atomic_store_n(&csd->flags, 0, __ATOMIC_RELEASE);
}

/* csd_wait - [6] until the target has run the call; reports a target
 * that takes far too long instead of hanging silently. */
static void csd_wait(struct call_single_data *csd)
{
	ktime_t warn_at = ktime_get() + CSD_WAIT_WARN_NS;
	bool warned = false;

	while (__atomic_load_n(&csd->flags, __ATOMIC_ACQUIRE) & CSD_FLAG_LOCK) {
		if (!warned && ktime_get() > warn_at) {
			pr_err("smp: CPU %d waits > %lld s for CPU %d to run "
			       "%p (interrupts off there?)\n",
			       raw_smp_processor_id(),
			       CSD_WAIT_WARN_NS / NSEC_PER_SEC, csd->target,
			       csd->func);
			warned = true;
		}
		cpu_relax();
	}
}

/* csd_queue - [2] and [3]: returns true when the target's queue was
 * empty, i.e. the caller must send the IPI. */
static bool csd_queue(struct call_single_data *csd, int target,
		      smp_call_func_t func, void *info)
{
	struct call_single_data **head = per_cpu_ptr(&call_queue, target);
	struct call_single_data *first =
		__atomic_load_n(head, __ATOMIC_RELAXED);

	csd->func = func;
	csd->info = info;
	csd->target = target;
	do {
		csd->next = first;
	} while (!__atomic_compare_exchange_n(
		head, &first, csd, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return first == NULL;
}

/* flush_call_queue - [4] and [5] on this CPU.
 * Context: hardirq (the call-function IPI), interrupts off. */
static void flush_call_queue(void)
{
	struct call_single_data *list, *prev = NULL, *next;

	list = __atomic_exchange_n(this_cpu_ptr(&call_queue), NULL,
				   __ATOMIC_ACQUIRE); /* [4] */
	while (list) { /* [5] newest first -> oldest first */
		next = list->next;
		list->next = prev;
		prev = list;
		list = next;
	}
	for (list = prev; list; list = next) {
		next = list->next; /* before the unlock frees the slot */
		list->func(list->info);
		csd_unlock(list);
	}
}

/* call_here - func(info) on this CPU with interrupts off, as it would
 * run in the IPI handler elsewhere. */
static void call_here(smp_call_func_t func, void *info)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	func(info);
	raw_local_irq_restore(flags);
}

DEFINE_RACE_WINDOW(smp_call_self_window);

/*
 * smp_call_function_single - see smp.h.  "Is cpu this CPU?" is only
 * true while the caller stays here: preemption is off from the check to
 * the end (Linux: get_cpu/put_cpu).  A caller preempted and migrated in
 * between ran func on the wrong CPU:
 *
 *	CPU1 (caller, asks for CPU1)	CPU0
 *	cpu == this CPU: run it here
 *	  <preempted>			set_cpus_allowed(caller, CPU0):
 *					the caller now runs here
 *					call_here: func on CPU0
 *
 * tests/kernel/test_smp_call_races.c (test_call_single_to_own_cpu_runs_
 * there) parks the caller in smp_call_self_window and moves it.
 * Context: not hardirq (asserted): the caller might wait for a CPU that
 * waits for it.  Locking: the caller's slot for cpu ([1]); preemption
 * off throughout, so the slot is this CPU's.
 */
int smp_call_function_single(int cpu, smp_call_func_t func, void *info,
			     bool wait)
{
	struct call_single_data *csd;

	BUG_ON(in_irq() || in_nmi());
	if (cpu < 0 || cpu >= NR_CPUS || !cpu_online(cpu))
		return -ENXIO;
	preempt_disable();
	if (cpu == raw_smp_processor_id()) {
		trace_race_window(&smp_call_self_window);
		call_here(func, info);
		goto out_enable;
	}
	csd = csd_lock(cpu);
	if (csd_queue(csd, cpu, func, info))
		arch_send_call_function_single_ipi(cpu);
	if (wait)
		csd_wait(csd);
out_enable:
	preempt_enable();
	return 0;
}

/*
 * smp_call_function_many - see smp.h.  All slots are queued before the
 * first wait, so the targets run func in parallel.
 * Context: not hardirq (asserted).  Locking: the caller's slots.
 */
void smp_call_function_many(const cpumask_t *mask, smp_call_func_t func,
			    void *info, bool wait)
{
	struct call_single_data *csd[NR_CPUS] = {NULL};
	int self, cpu;

	BUG_ON(in_irq() || in_nmi());
	preempt_disable();	/* "except this one" stays true */
	self = raw_smp_processor_id();
	for_each_online_cpu (cpu) {
		if (cpu == self || !cpumask_test_cpu(cpu, mask))
			continue;
		csd[cpu] = csd_lock(cpu);
		if (csd_queue(csd[cpu], cpu, func, info))
			arch_send_call_function_ipi(cpu);
	}
	if (wait) {
		for_each_online_cpu (cpu) {
			if (csd[cpu])
				csd_wait(csd[cpu]);
		}
	}
	preempt_enable();
}

void smp_call_function(smp_call_func_t func, void *info, bool wait)
{
	smp_call_function_many(&cpu_online_mask, func, info, wait);
}

/* on_each_cpu - see smp.h; "here" is the CPU the others were called
 * from (preemption off).  Context: as smp_call_function_single(). */
void on_each_cpu(smp_call_func_t func, void *info, bool wait)
{
	preempt_disable();
	smp_call_function(func, info, wait);
	call_here(func, info);
	preempt_enable();
}

/* generic_smp_call_function_interrupt - see smp.h. */
void generic_smp_call_function_interrupt(enum ipi_type type)
{
	BUG_ON(!raw_irqs_disabled());
	this_cpu_inc(ipi_received[type]);
	flush_call_queue();
}

/* generic_smp_reschedule_interrupt - see smp.h. */
void generic_smp_reschedule_interrupt(void)
{
	BUG_ON(!raw_irqs_disabled());
	this_cpu_inc(ipi_received[IPI_RESCHEDULE]);
	scheduler_ipi();
}

/*
 * smp_send_reschedule - see smp.h.  An offline or out-of-range cpu is a
 * caller bug (WARN); sending to oneself is allowed (the interrupt
 * arrives as soon as interrupts are on).
 */
void smp_send_reschedule(int cpu)
{
	if (WARN_ON(cpu < 0 || cpu >= NR_CPUS || !cpu_online(cpu)))
		return;
	arch_send_reschedule(cpu);
}

/* smp_send_reschedule_allbutself - one IPI per online CPU: the hardware
 * all-but-self shorthand would also hit CPUs left out by maxcpus=. */
void smp_send_reschedule_allbutself(void)
{
	int self = raw_smp_processor_id();
	int cpu;

	for_each_online_cpu (cpu) {
		if (cpu != self)
			arch_send_reschedule(cpu);
	}
}

/*
 * smp_init - see smp.h.
 *   [1] IPI handlers first: an AP may be sent one as soon as it is online;
 *   [2] start the APs;
 *   [3] the boot-log line the harness and the issue ask for.
 */
void __init smp_init(void)
{
	int n;

	BUG_ON(raw_smp_processor_id() != 0 || !cpu_online(0));
	arch_smp_init_ipis();		     /* [1] */
	n = smp_boot_cpus();		     /* [2] */
	pr_info("smp: %d CPUs online\n", n); /* [3] */
	WARN_ON(n != num_online_cpus());
}
