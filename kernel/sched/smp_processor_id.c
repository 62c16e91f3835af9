/*
 * kernel/sched/smp_processor_id.c - DEBUG_PREEMPT's smp_processor_id():
 * the CPU number is only meaningful while the caller cannot move to
 * another CPU, so reading it from code that can be preempted and
 * migrated is a bug that shows up only when the migration happens
 * between the read and the use:
 *
 *	CPU0 (task T, preemptible)		CPU1
 *	cpu = smp_processor_id();  -> 0
 *	  <preempted; T migrates>
 *						T: per_cpu(x, cpu)++ on CPU 0's
 *						  copy, racing CPU 0's own users
 *
 * Under PREEMPT=rt far more code is preemptible (spinlock_t sections,
 * threaded handlers, softirqs), which is how preemption flushes out such
 * bugs (the article's "unintended side-effects").  The check passes when
 * something pins the caller: preemption or interrupts off, an affinity
 * of this CPU alone, or the idle task; otherwise it reports the caller,
 * once per call site and with a count for tests.
 * Linux counterpart: lib/smp_processor_id.c (check_preemption_disabled).
 * Build option: make DEBUG_PREEMPT=1 (Linux's CONFIG_DEBUG_PREEMPT).
 */
#include "kernel/sched/sched.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/ksyms.h"
#include "kernel/panic.h"

#if defined(CONFIG_DEBUG_PREEMPT)
#define SEEN_SITES 16

unsigned long smp_processor_id_warnings;
static unsigned long seen[SEEN_SITES];	/* call sites reported once */

/* first_report - true the first time site is seen (a full table reports
 * every time: better noisy than silent). */
static bool first_report(unsigned long site)
{
	for (int i = 0; i < SEEN_SITES; i++) {
		unsigned long old = 0;

		if (READ_ONCE(seen[i]) == site)
			return false;
		if (__atomic_compare_exchange_n(&seen[i], &old, site, false,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return true;
		if (old == site)
			return false;
	}
	return true;
}

/*
 * debug_smp_processor_id - this CPU's number, after checking that the
 * caller cannot migrate before it uses it.
 * Context: any.  Locking: none.
 */
int debug_smp_processor_id(void)
{
	int cpu = raw_smp_processor_id();
	struct task_struct *p = current_or_null();
	unsigned long site = _RET_IP_;
	char where[96];

	if (!p || preempt_count() || raw_irqs_disabled() ||
	    (p->flags & PF_IDLE) || p->cpus_allowed.bits == 1ULL << cpu)
		return cpu;
	__atomic_add_fetch(&smp_processor_id_warnings, 1, __ATOMIC_RELAXED);
	if (!first_report(site))
		return cpu;
	ksym_snprint(where, sizeof(where), site);
	pr_err("BUG: using smp_processor_id() in preemptible code: %s/%d, "
	       "caller %s\n", p->name, p->pid, where);
	dump_stack();
	return cpu;
}
#endif /* CONFIG_DEBUG_PREEMPT */
