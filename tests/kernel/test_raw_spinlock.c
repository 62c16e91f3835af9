/*
 * tests/kernel/test_raw_spinlock.c - the raw ticket lock itself
 * (kernel/locking/raw_spinlock.h, .c; article, "Preemptible critical
 * sections": raw_spinlock_t is the lock that still spins under rt).
 *
 * What a ticket lock promises beyond mutual exclusion (which the
 * spinlock suite's test_mutual_exclusion_from_every_cpu checks): a
 * spinning waiter holds a ticket, so waiters enter in arrival order; and
 * what its irq-safe unlocks promise: dropping the lock is a preemption
 * point (under desktop and rt) because preemption is re-enabled only
 * after the interrupt flag, so a wakeup made inside the section runs at
 * the unlock and not at the next interrupt.  Lab "spinlock" (labs/spinlock)
 * grades its regions with these cases.
 */
#include "kernel/ktest.h"
#include "lib/string.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/preempt_model.h"
#include "tests/kernel/sched_helpers.h"

/* Bound of the waits for a waiter to reach the lock; under the 5 s after
 * which a spinning waiter reports the lock stuck (raw_spinlock.c). */
#define TICKET_WAIT_NS (2LL * NSEC_PER_SEC)
#define NR_WAITERS 2

struct ticket_case {
	raw_spinlock_t lock;
	int go[NR_WAITERS];		/* waiter i may take the lock */
	int ready[NR_WAITERS];		/* waiter i spins on go[i] */
	int order[NR_WAITERS];		/* who entered first, second */
	int entered;			/* under lock */
	struct completion done;
};

struct ticket_arg {
	struct ticket_case *c;
	int id;
};

static int ticket_waiter_fn(void *data)
{
	struct ticket_arg *a = data;
	struct ticket_case *c = a->c;
	ktime_t end = ktime_get() + SAFETY_NS;

	WRITE_ONCE(c->ready[a->id], 1);
	while (!READ_ONCE(c->go[a->id]) && ktime_get() < end)
		cpu_relax();
	raw_spin_lock(&c->lock);
	c->order[c->entered++] = a->id;
	raw_spin_unlock(&c->lock);
	complete(&c->done);
	return 0;
}

/* tickets_out - waiters holding a ticket, plus the holder (next - owner) */
static int tickets_out(raw_spinlock_t *l)
{
	return (u16)(__atomic_load_n(&l->next, __ATOMIC_RELAXED) -
		     __atomic_load_n(&l->owner, __ATOMIC_RELAXED));
}

/* wait_tickets - spin (the lock held, preemption off) until want tickets
 * are out or TICKET_WAIT_NS passed; returns what was seen. */
static int wait_tickets(raw_spinlock_t *l, int want)
{
	ktime_t end = ktime_get() + TICKET_WAIT_NS;
	int seen;

	while ((seen = tickets_out(l)) != want && ktime_get() < end)
		cpu_relax();
	return seen;
}

/*
 * Scenario (n waiters, CPUs 1..n, the test on CPU 0): each waiter W(i)
 * is a FIFO 10 kthread bound to CPU i+1 spinning on its go flag.  The
 * test takes the lock, lets W0 go and waits until W0 holds a ticket
 * (next - owner == 2), then W1 (== 3), then unlocks.  Observable: every
 * ticket taken while spinning, and W0 enters before W1.  A test-and-set
 * lock (the lab's fallback) never shows a waiter's ticket.
 */
static void run_ticket_case(struct ktest *t, int n)
{
	static struct ticket_case c;
	static struct ticket_arg a[NR_WAITERS];
	struct task_struct *p[NR_WAITERS];
	int seen[NR_WAITERS], i;
	ktime_t end;

	memset(&c, 0, sizeof(c));
	raw_spin_lock_init(&c.lock);
	init_completion(&c.done);
	set_cpus_allowed(current, one_cpu(0));
	for (i = 0; i < n; i++) {
		a[i] = (struct ticket_arg){ .c = &c, .id = i };
		p[i] = start_rt(ticket_waiter_fn, &a[i], SCHED_FIFO, 10, i + 1,
				"ticket-w");
		KTEST_ASSERT(t, p[i] != NULL, "kthread_create failed");
	}
	end = ktime_get() + SAFETY_NS;
	for (i = 0; i < n; i++)
		while (!READ_ONCE(c.ready[i]) && ktime_get() < end)
			schedule();
	raw_spin_lock(&c.lock);
	for (i = 0; i < n; i++) {
		WRITE_ONCE(c.go[i], 1);
		seen[i] = wait_tickets(&c.lock, i + 2);
		if (seen[i] != i + 2)
			break;
	}
	raw_spin_unlock(&c.lock);
	for (i = 0; i < n; i++)
		WRITE_ONCE(c.go[i], 1);
	for (i = 0; i < n; i++)
		KTEST_EXPECT(t, wait_for_completion_timeout(&c.done, SAFETY_NS) > 0,
			     "waiter %d never got the lock", i);
	for (i = 0; i < n; i++) {
		kthread_stop(p[i]);
		put_task_struct(p[i]);
	}
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });
	for (i = 0; i < n; i++) {
		KTEST_ASSERT(t, seen[i] == i + 2,
			     "waiter %d spins without a ticket: next - owner = %d, "
			     "want %d (holder + %d waiters)", i, seen[i], i + 2,
			     i + 1);
	}
	if (n > 1)
		KTEST_EXPECT(t, c.order[0] == 0 && c.order[1] == 1,
			     "entered in order %d, %d: want 0, 1 (arrival order)",
			     c.order[0], c.order[1]);
}

static void test_spinning_waiter_holds_a_ticket(struct ktest *t)
{
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the waiter spins on another CPU");
	run_ticket_case(t, 1);
}

static void test_waiters_enter_in_ticket_order(struct ktest *t)
{
	if (num_online_cpus() < NR_WAITERS + 1)
		ktest_skip(t, "needs 3 CPUs: two waiters and the holder");
	run_ticket_case(t, NR_WAITERS);
}

static int h_ran;

static int h_fn(void *unused)
{
	WRITE_ONCE(h_ran, 1);
	return 0;
}

#define PREEMPT_TRIES 10	/* a tick between the two steps of a wrong
				 * order could hide it once, not 10 times */

/*
 * Scenario (one CPU, every model with PREEMPT_ON_ENABLE): the test runs
 * at FIFO 10 on CPU 0; inside a raw _irq (irqsave) section it wakes H,
 * FIFO 20 bound to CPU 0.  Observable: H has run when the unlock
 * returns, PREEMPT_TRIES times out of PREEMPT_TRIES.  An unlock that
 * re-enables preemption before interrupts loses the preemption point
 * (preempt_schedule() refuses with IF clear) and H waits for the next
 * interrupt.
 */
static void run_unlock_preempts(struct ktest *t, bool irqsave)
{
	DEFINE_RAW_SPINLOCK(l);
	unsigned long flags;
	struct task_struct *h;
	int ran = 0;

	if (!PREEMPT_ON_ENABLE)
		ktest_skip(t, "preempt_enable() is no preemption point in this "
			   "model");
	me_rt(10, 0);
	for (int i = 0; i < PREEMPT_TRIES; i++) {
		h = kthread_create(h_fn, NULL, "unlock-h");
		KTEST_ASSERT(t, h != NULL, "kthread_create failed");
		kthread_bind(h, 0);
		sched_setscheduler(h, SCHED_FIFO, &(struct sched_param){ 20 });
		get_task_struct(h);
		WRITE_ONCE(h_ran, 0);
		if (irqsave) {
			raw_spin_lock_irqsave(&l, flags);
			wake_up_process(h);
			raw_spin_unlock_irqrestore(&l, flags);
		} else {
			raw_spin_lock_irq(&l);
			wake_up_process(h);
			raw_spin_unlock_irq(&l);
		}
		ran += READ_ONCE(h_ran);
		kthread_stop(h);
		put_task_struct(h);
	}
	me_restore();
	KTEST_EXPECT(t, ran == PREEMPT_TRIES,
		     "the woken FIFO 20 task ran at the unlock %d times of %d: "
		     "the unlock is no preemption point (preemption re-enabled "
		     "before interrupts?)", ran, PREEMPT_TRIES);
}

static void test_unlock_irq_is_a_preemption_point(struct ktest *t)
{
	run_unlock_preempts(t, false);
}

static void test_unlock_irqrestore_is_a_preemption_point(struct ktest *t)
{
	run_unlock_preempts(t, true);
}

KTEST_SUITE(raw_spinlock,
	    KTEST_CASE(test_spinning_waiter_holds_a_ticket),
	    KTEST_CASE(test_waiters_enter_in_ticket_order),
	    KTEST_CASE(test_unlock_irq_is_a_preemption_point),
	    KTEST_CASE(test_unlock_irqrestore_is_a_preemption_point));
