/*
 * kernel/locking/raw_spinlock.c - the ticket lock's out-of-line parts:
 * the spin loop with its "spinning far too long" report, trylock, and
 * the holder bookkeeping (see kernel/locking/raw_spinlock.h).
 *
 * Ordering: taking the ticket is a relaxed fetch-add; the acquire load of
 * owner that sees our ticket orders the critical section after the
 * previous holder's release store in do_raw_spin_unlock (pairs with it).
 * Linux counterpart: kernel/locking/spinlock_debug.c (the owner fields
 * and spin_bug report), arch/x86 __ticket_spin_lock of 2.6.2x.
 */
#include "kernel/locking/raw_spinlock.h"
#include "kernel/sched/sched.h"
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/time/ktime.h"
#include "kernel/ksyms.h"
#include "kernel/smp.h"
#include "kernel/debug/hooks.h"
#include "lib/vsnprintf.h"

/* Spinning longer than this is a deadlock or a holder that never lets
 * go: no raw critical section in rtk runs anywhere near a second, and
 * TCG on a loaded host can stretch a few ms into a few hundred. */
#define RAW_SPIN_REPORT_NS (5LL * NSEC_PER_SEC)

/* The test-only knobs (raw_spinlock.h), for locks with test_hooks set. */
s64 raw_spin_test_stuck_ns = RAW_SPIN_REPORT_NS;
unsigned long raw_spin_test_reports;
DEFINE_RACE_WINDOW(raw_spin_handover_window);

/* raw_spin_stuck_limit - how long lock may spin before it is reported. */
static inline s64 raw_spin_stuck_limit(raw_spinlock_t *lock)
{
	return unlikely(lock->test_hooks) ? READ_ONCE(raw_spin_test_stuck_ns)
					  : RAW_SPIN_REPORT_NS;
}

/*
 * The tickets this CPU waits for, innermost last: a spinner interrupted
 * by a handler that spins too (hard irq, NMI) nests.  Written only by the
 * CPU itself, read by raw_spin_report on another CPU, so that a report
 * tells the two ways a ticket lock stalls apart:
 *	- the ticket now served belongs to a CPU that is spinning for it but
 *	  has not looked since it was handed over (a vCPU the host does not
 *	  run: no lost ticket), or to an outer spin on the same CPU that an
 *	  interrupt handler spinning on the same lock sits on (self-deadlock);
 *	- nobody spins for it: a ticket was taken and never waited for or
 *	  given back (lost).
 * Depth 4: task, softirq-free hard irq, NMI, and one to spare.
 */
#define RAW_SPIN_WAIT_DEPTH 4

struct raw_spin_wait {
	raw_spinlock_t *lock; /* NULL: slot unused */
	u16 ticket;
	struct task_struct *task; /* the spinner: a task not running on
				   * that CPU was preempted while spinning */
};

static DEFINE_PER_CPU(struct raw_spin_wait,
		      raw_spin_waits[RAW_SPIN_WAIT_DEPTH]);
static DEFINE_PER_CPU(int, raw_spin_wait_depth);

void __raw_spin_lock_init(raw_spinlock_t *lock, const char *name,
			  const char *file, int line)
{
	*lock = (raw_spinlock_t)__RAW_SPIN_LOCK_UNLOCKED(lock);
	lock->name = name;
	lockdep_init_map(&lock->dep_map, name, file, line, LD_WAIT_SPIN);
}

static void raw_spin_set_owner(raw_spinlock_t *lock, unsigned long ip)
{
	lock->owner_cpu = raw_smp_processor_id();
	lock->owner_task = current_or_null();
	lock->acquire_ip = ip;
}

bool raw_spin_is_held_here(raw_spinlock_t *lock)
{
	return raw_spin_is_locked(lock) &&
	       READ_ONCE(lock->owner_cpu) == raw_smp_processor_id();
}

bool raw_spin_cpu_waits_for(int cpu, raw_spinlock_t *lock, u16 *ticket,
			    struct task_struct **task)
{
	int depth = READ_ONCE(per_cpu(raw_spin_wait_depth, cpu)), i;

	for (i = 0; i < depth && i < RAW_SPIN_WAIT_DEPTH; i++) {
		struct raw_spin_wait *w = per_cpu_ptr(&raw_spin_waits[i], cpu);

		if (READ_ONCE(w->lock) == lock) {
			*ticket = READ_ONCE(w->ticket);
			*task = READ_ONCE(w->task);
			return true;
		}
	}
	return false;
}

/*
 * raw_spin_report_waiters - one line per CPU spinning on lock (read
 * without synchronisation: a snapshot for the report), saying whether
 * the ticket being served now is one a CPU spins for.
 * Context: the reporting CPU, before panic.
 */
static void raw_spin_report_waiters(raw_spinlock_t *lock, u16 owner)
{
	int cpu, spinners = 0;
	const char *name = lock->name ? lock->name : "?";
	struct task_struct *task;
	bool served = false;
	u16 ticket;

	for_each_online_cpu (cpu) {
		if (!raw_spin_cpu_waits_for(cpu, lock, &ticket, &task))
			continue;
		spinners++;
		served |= ticket == owner;
		printk(KERN_EMERG "raw spinlock %s: CPU %d task %s%s spins for "
				  "ticket %u%s\n",
		       name, cpu, task ? task->name : "-",
		       task == READ_ONCE(per_cpu(current_task, cpu))
			       ? ""
			       : " (preempted, not running there)",
		       ticket,
		       ticket == owner ? " (served now, not seen yet)" : "");
	}
	printk(KERN_EMERG
	       "raw spinlock %s: %d spinner(s), next %u owner %u: %s\n",
	       name, spinners, __atomic_load_n(&lock->next, __ATOMIC_RELAXED),
	       owner,
	       served ? "the served ticket's CPU does not run (or spins under "
			"its own nested spin)"
		      : "nobody spins for the served ticket (lost ticket)");
}

int raw_spin_describe_holder(raw_spinlock_t *lock, char *buf, size_t size)
{
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	int cpu = READ_ONCE(lock->owner_cpu), c, by = -1;
	struct task_struct *holder = READ_ONCE(lock->owner_task), *task;
	char sym[64];
	u16 ticket;

	ksym_snprint(sym, sizeof(sym), READ_ONCE(lock->acquire_ip));
	if (!raw_spin_is_locked(lock))
		return scnprintf(buf, size, "not held (owner %u)", owner);
	if (cpu >= 0)
		return scnprintf(buf, size,
				 "holder CPU %d task %s acquired at %s "
				 "(owner %u)",
				 cpu, holder ? holder->name : "-", sym, owner);
	/* locked, no holder: unlock cleared owner_cpu and then advanced
	 * owner (do_raw_spin_unlock), so ticket owner is handed over and
	 * its CPU has not set owner_cpu yet (raw_spin_set_owner) */
	for_each_online_cpu (c) {
		if (raw_spin_cpu_waits_for(c, lock, &ticket, &task) &&
		    ticket == owner) {
			by = c;
			break;
		}
	}
	if (by < 0)
		return scnprintf(buf, size,
				 "handed to ticket %u (no CPU spins for it), "
				 "not yet taken; the previous holder took it "
				 "at %s",
				 owner, sym);
	return scnprintf(buf, size,
			 "handed to ticket %u (CPU %d), not yet taken; the "
			 "previous holder took it at %s",
			 owner, by, sym);
}

/*
 * raw_spin_report - the waiter on this CPU has seen the lock in one
 * holder's hands past the threshold: print both parties and panic.  A
 * test lock (test_hooks) is reported the same way but without the
 * panic, counted in raw_spin_test_reports; the waiter then spins on.
 * Context: the spinning CPU, preemption off.
 */
static void raw_spin_report(raw_spinlock_t *lock, u16 ticket, unsigned long ip)
{
	struct task_struct *me = current_or_null();
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	char wsym[64], holder[160];

	ksym_snprint(wsym, sizeof(wsym), ip);
	raw_spin_describe_holder(lock, holder, sizeof(holder));
	raw_spin_report_waiters(lock, owner);
	if (lock->test_hooks) {
		printk(KERN_ERR "raw spinlock %s: test lock, reported "
				"without a panic:\n",
		       lock->name ? lock->name : "?");
		printk(KERN_ERR "raw spinlock %s (%p) stuck: waiter CPU %d "
				"task %s at %s (ticket %u); %s\n",
		       lock->name ? lock->name : "?", (void *)lock,
		       raw_smp_processor_id(), me ? me->name : "-", wsym,
		       ticket, holder);
		__atomic_fetch_add(&raw_spin_test_reports, 1, __ATOMIC_RELAXED);
		return;
	}
	panic("raw spinlock %s (%p) stuck: waiter CPU %d task %s at %s "
	      "(ticket %u); %s",
	      lock->name ? lock->name : "?", (void *)lock,
	      raw_smp_processor_id(), me ? me->name : "-", wsym, ticket,
	      holder);
}

/* raw_spin_wait_begin - publish a spin in this CPU's slot for its
 * nesting level, before the first pass of do_raw_spin_lock's loop (a
 * few per-CPU stores, on the contended path only); raw_spin_wait_end
 * takes it back when the ticket comes up.  Context: any, preemption
 * off. */
static void raw_spin_wait_begin(raw_spinlock_t *lock, u16 ticket)
{
	int depth = this_cpu_read(raw_spin_wait_depth);
	struct raw_spin_wait *w;

	if (depth < RAW_SPIN_WAIT_DEPTH) {
		w = this_cpu_ptr(&raw_spin_waits[depth]);
		w->ticket = ticket;
		w->task = current_or_null();
		WRITE_ONCE(w->lock, lock);
	}
	/* the slot is filled before the depth covers it; an interrupt
	 * from here on uses the next one */
	barrier();
	this_cpu_write(raw_spin_wait_depth, depth + 1);
}

static void raw_spin_wait_end(void)
{
	int depth = this_cpu_read(raw_spin_wait_depth) - 1;

	BUG_ON(depth < 0);
	this_cpu_write(raw_spin_wait_depth, depth);
	barrier();
	if (depth < RAW_SPIN_WAIT_DEPTH)
		WRITE_ONCE(this_cpu_ptr(&raw_spin_waits[depth])->lock, NULL);
}

bool raw_spin_stuck(struct raw_spin_watch *w, u16 owner, s64 now, s64 limit_ns)
{
	if (!w->timed || owner != w->owner) {
		/* first look, or the lock changed hands: a new holder's
		 * time starts */
		w->owner = owner;
		w->since = now;
		w->timed = true;
		return false;
	}
	return now - w->since > limit_ns;
}

/*
 * raw_spin_relax - one pass of do_raw_spin_lock's spin loop; owner is
 * the served ticket the loop just read:
 *  [1] on the first pass, publish the wait (raw_spin_cpu_waits_for), so
 *      that a report on another CPU finds every spinner, however short
 *      its spin;
 *  [2] relax;
 *  [3] now and then, read the clock and ask raw_spin_stuck whether the
 *      lock has stayed with one holder for the threshold: the clock
 *      restarts at each hand-over, so a convoy (a ticket lock is fair:
 *      the waiters ahead of us each take their turn, and a vCPU the host
 *      does not run holds its turn up; drawn in test_raw_spin_report.c
 *      at test_lock_handed_on_past_the_limit_is_not_stuck) is not a
 *      stuck lock, while a holder that never lets go, a lost ticket or a
 *      spin under its own CPU's interrupted spin still are.  A waiter
 *      with n tickets ahead of it is reported after n thresholds at most.
 * Context: any, preemption off.
 */
static inline void raw_spin_relax(raw_spinlock_t *lock,
				  struct raw_spin_watch *w, u16 ticket,
				  u16 owner, unsigned long ip)
{
	if (unlikely(!w->published)) { /* [1] */
		raw_spin_wait_begin(lock, ticket);
		w->published = true;
	}
	arch_cpu_relax(); /* [2] */
	/* [3] the clock costs more than the spin itself: every 4096 passes
	 * (microseconds, against a threshold of seconds) */
	if ((++w->spins & 0xfff) == 0 &&
	    raw_spin_stuck(w, owner, ktime_get(), raw_spin_stuck_limit(lock))) {
		raw_spin_report(lock, ticket, ip);
		w->timed = false; /* a test lock: once a threshold */
	}
}

/*
 * raw_spin_check_irqs_off - a lock an interrupt handler takes (rq->lock:
 * scheduler_tick) must be taken with irqs off everywhere, or the handler
 * can interrupt its own CPU's holder -- or its own CPU's spinner, whose
 * ticket then comes up while the handler spins behind it:
 *
 *	CPU0 (task, irqs on)              CPU1
 *	raw_spin_lock(&rq1->lock):         holds rq1->lock
 *	  ticket T, spins
 *	  tick: scheduler_tick, then a
 *	  wake-up locks rq1: ticket T+1     unlock: owner = T
 *	  spins behind its own task         ... nobody ever takes T
 *
 * The report then finds owner T "served, not seen" on CPU0 level 0.
 * Context: any.
 */
static inline void raw_spin_check_irqs_off(raw_spinlock_t *lock)
{
	if (unlikely(lock->irqs_off_only && !raw_irqs_disabled()))
		panic("raw spinlock %s (%p) taken with interrupts on",
		      lock->name ? lock->name : "?", (void *)lock);
}

void do_raw_spin_lock(raw_spinlock_t *lock, unsigned int subclass,
		      unsigned long ip)
{
	struct raw_spin_watch watch = {0};
	u16 ticket, owner;

	raw_spin_check_irqs_off(lock);

	/* validated before the wait; _RET_IP_: the site of the (inlined)
	 * raw_spin_lock, ip being its caller's */
	lock_acquire(&lock->dep_map, subclass, false, 0, _RET_IP_);
	/* LAB(spinlock:ticket) BEGIN */
	ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);
	while ((owner = __atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE)) !=
	       ticket)
		raw_spin_relax(lock, &watch, ticket, owner, ip);
	/* LAB(spinlock:ticket) END */
	/* test-only: the ticket is served, the lock not yet taken */
	if (unlikely(lock->test_hooks))
		trace_race_window(&raw_spin_handover_window);
	if (watch.published)
		raw_spin_wait_end();
	raw_spin_set_owner(lock, ip);
}

bool do_raw_spin_trylock(raw_spinlock_t *lock, unsigned long ip)
{
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	u16 expected = owner;

	raw_spin_check_irqs_off(lock);
	/* free iff next == owner: then take ticket `owner` */
	if (!__atomic_compare_exchange_n(&lock->next, &expected,
					 (u16)(owner + 1), false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	raw_spin_set_owner(lock, ip);
	lock_acquire(&lock->dep_map, 0, true, 0, _RET_IP_);
	return true;
}

void do_raw_spin_unlock(raw_spinlock_t *lock)
{
	BUG_ON(!raw_spin_is_locked(lock));
	lock_release(&lock->dep_map, _RET_IP_);
	lock->owner_cpu = -1;
	lock->owner_task = NULL;
	/* pairs with the acquire load in do_raw_spin_lock */
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1),
			 __ATOMIC_RELEASE);
}
