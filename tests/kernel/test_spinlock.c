/*
 * tests/kernel/test_spinlock.c - the spinlock suite: spinlock_t versus
 * raw_spinlock_t under the preemption model (kernel/locking/spinlock.h,
 * kernel/locking/spinlock_rt.c; article, "Preemptible critical sections"
 * and "Summary of PREEMPT_RT primitives").
 *
 * Under rt a spinlock_t is a sleeping lock: its sections are preemptible,
 * spin_lock_irqsave leaves RFLAGS.IF set, taking it atomic warns, and a
 * contended spin_lock keeps the caller's task state (Ingo Molnar's
 * mylock1/mylock2 example).  Under none/voluntary/desktop it is the raw
 * lock.  raw_spinlock_t spins and disables what it says under every
 * model.  Each case asserts the behaviour of the model it was built for.
 */
#include "kernel/ktest.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/time/ktime.h"
#include "kernel/version.h"
#include "tests/kernel/sched_helpers.h"

#define FIFO(p) (MAX_RT_PRIO - 1 - (p))
#define WAIT_NS (3 * NSEC_PER_SEC)

/* One call site for both lock types (the article's "C++ overloaded
 * function"): the section's preempt count and IF, seen from inside. */
struct section_view {
	int preempt_delta;
	bool irqs_off;
	bool locked;
};

#define LOOK_INSIDE_IRQSAVE(lock, view)                                      \
	do {                                                                 \
		unsigned long __f;                                           \
		int __pc = preempt_count();                                  \
		spin_lock_irqsave(lock, __f);                                \
		(view)->preempt_delta = preempt_count() - __pc;              \
		(view)->irqs_off = raw_irqs_disabled();                      \
		(view)->locked = spin_is_locked(lock);                       \
		spin_unlock_irqrestore(lock, __f);                           \
	} while (0)

#define LOOK_INSIDE_IRQ(lock, view)                                          \
	do {                                                                 \
		int __pc = preempt_count();                                  \
		spin_lock_irq(lock);                                         \
		(view)->preempt_delta = preempt_count() - __pc;              \
		(view)->irqs_off = raw_irqs_disabled();                      \
		(view)->locked = spin_is_locked(lock);                       \
		spin_unlock_irq(lock);                                       \
	} while (0)

/* spin_lock_irqsave / spin_lock_irq on spinlock_t: under rt IF stays set
 * and the section is preemptible; elsewhere IF is cleared and preemption
 * is off.  On raw_spinlock_t both are off under every model. */
static void test_irq_variants_per_type_and_model(struct ktest *t)
{
	DEFINE_SPINLOCK(sl);
	DEFINE_RAW_SPINLOCK(rl);
	struct section_view v;

	KTEST_ASSERT(t, !raw_irqs_disabled(), "test entered with IF clear");
	LOOK_INSIDE_IRQSAVE(&sl, &v);
	KTEST_EXPECT(t, v.locked, "spinlock_t not locked inside its section");
	KTEST_EXPECT_EQ(t, v.irqs_off, !SPINLOCK_SLEEPS);
	KTEST_EXPECT_EQ(t, v.preempt_delta, SPINLOCK_SLEEPS ? 0 : 1);
	LOOK_INSIDE_IRQ(&sl, &v);
	KTEST_EXPECT_EQ(t, v.irqs_off, !SPINLOCK_SLEEPS);
	KTEST_EXPECT_EQ(t, v.preempt_delta, SPINLOCK_SLEEPS ? 0 : 1);

	LOOK_INSIDE_IRQSAVE(&rl, &v);
	KTEST_EXPECT(t, v.locked, "raw_spinlock_t not locked inside");
	KTEST_EXPECT(t, v.irqs_off, "raw spin_lock_irqsave left IF set");
	KTEST_EXPECT_EQ(t, v.preempt_delta, 1);
	LOOK_INSIDE_IRQ(&rl, &v);
	KTEST_EXPECT(t, v.irqs_off, "raw spin_lock_irq left IF set");
	KTEST_EXPECT_EQ(t, v.preempt_delta, 1);

	KTEST_EXPECT(t, !raw_irqs_disabled(), "IF not restored after unlock");
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	KTEST_EXPECT(t, !spin_is_locked(&sl) && !spin_is_locked(&rl),
		     "a lock stayed locked after its unlock");
}

/* irqsave nested inside a raw irq-off section returns flags with IF
 * clear, and restore keeps IF clear: the flags are the caller's. */
static void test_irqsave_flags_are_the_callers(struct ktest *t)
{
	DEFINE_RAW_SPINLOCK(outer);
	DEFINE_RAW_SPINLOCK(inner);
	unsigned long fo, fi;

	spin_lock_irqsave(&outer, fo);
	spin_lock_irqsave(&inner, fi);
	KTEST_EXPECT(t, raw_irqs_disabled_flags(fi),
		     "inner flags 0x%lx have IF set", fi);
	spin_unlock_irqrestore(&inner, fi);
	KTEST_EXPECT(t, raw_irqs_disabled(), "inner restore set IF");
	spin_unlock_irqrestore(&outer, fo);
	KTEST_EXPECT(t, !raw_irqs_disabled_flags(fo),
		     "outer flags 0x%lx have IF clear", fo);
	KTEST_EXPECT(t, !raw_irqs_disabled(), "outer restore left IF clear");
}

/* Taking a spinlock_t with preemption or irqs off is a might_sleep bug
 * under rt only; a raw lock never warns; trylock never warns. */
static void test_might_sleep_warning_when_taken_atomic(struct ktest *t)
{
	DEFINE_SPINLOCK(sl);
	DEFINE_RAW_SPINLOCK(rl);
	unsigned long before = might_sleep_warnings;
	unsigned long flags;

	spin_lock(&sl);
	spin_unlock(&sl);
	KTEST_EXPECT_EQ(t, might_sleep_warnings - before, 0);

	might_sleep_expect_begin();	/* rt: the two warnings below */
	preempt_disable();
	spin_lock(&sl);			/* uncontended: warns, does not sleep */
	spin_unlock(&sl);
	spin_lock(&rl);
	spin_unlock(&rl);
	KTEST_EXPECT(t, spin_trylock(&sl), "trylock of a free lock failed");
	spin_unlock(&sl);
	preempt_enable();
	KTEST_EXPECT_EQ(t, might_sleep_warnings - before, SPINLOCK_SLEEPS);

	raw_local_irq_save(flags);
	spin_lock(&sl);
	spin_unlock(&sl);
	raw_local_irq_restore(flags);
	might_sleep_expect_end();
	KTEST_EXPECT_EQ(t, might_sleep_warnings - before, 2 * SPINLOCK_SLEEPS);
}

/* A helper thread that takes a lock and holds it until told. */
struct holder {
	spinlock_t *lock;
	struct completion taken, release, done;
};

static int holder_fn(void *data)
{
	struct holder *h = data;

	spin_lock(h->lock);
	complete(&h->taken);
	wait_for_completion(&h->release);
	spin_unlock(h->lock);
	complete(&h->done);
	return 0;
}

static struct task_struct *holder_start(struct ktest *t, struct holder *h,
					spinlock_t *lock)
{
	struct task_struct *p;

	h->lock = lock;
	init_completion(&h->taken);
	init_completion(&h->release);
	init_completion(&h->done);
	p = kthread_create(holder_fn, h, "sl-holder");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	get_task_struct(p);
	wake_up_process(p);
	KTEST_ASSERT(t, wait_for_completion_timeout(&h->taken, WAIT_NS) > 0,
		     "holder never took the lock");
	return p;
}

static void holder_stop(struct holder *h, struct task_struct *p)
{
	complete(&h->release);
	wait_for_completion_timeout(&h->done, WAIT_NS);
	kthread_stop(p);
	put_task_struct(p);
}

/*
 * spin_trylock on a held lock fails at once, without a context switch
 * and without a might_sleep warning, even with preemption disabled (the
 * article's one exception to "never take a spinlock_t atomic").  Under
 * rt another task holds the spinlock_t (it may sleep holding it); a raw
 * lock, and the non-rt spinlock_t, are held by the caller itself (a
 * spinning acquisition would hang there).
 */
static void test_trylock_never_sleeps(struct ktest *t)
{
	DEFINE_SPINLOCK(sl);
	DEFINE_RAW_SPINLOCK(rl);
	struct holder h;
	struct task_struct *p = NULL;
	unsigned long warns = might_sleep_warnings;
	unsigned long sw;
	int got, got_raw;

	if (SPINLOCK_SLEEPS)
		p = holder_start(t, &h, &sl);
	else
		spin_lock(&sl);
	preempt_disable();
	sw = sched_nr_switches(smp_processor_id());
	got = spin_trylock(&sl);
	spin_lock(&rl);
	got_raw = spin_trylock(&rl);
	spin_unlock(&rl);
	KTEST_EXPECT_EQ(t, sched_nr_switches(smp_processor_id()) - sw, 0);
	preempt_enable();
	KTEST_EXPECT_EQ(t, got, 0);
	KTEST_EXPECT_EQ(t, got_raw, 0);
	KTEST_EXPECT_EQ(t, might_sleep_warnings - warns, 0);
	if (p)
		holder_stop(&h, p);
	else
		spin_unlock(&sl);
	KTEST_EXPECT_EQ(t, spin_trylock(&sl), 1);
	spin_unlock(&sl);
}

/* The article's example: mylock1 held, state set, contended mylock2. */
struct mylock_task {
	spinlock_t mylock1, mylock2;
	long state_after;
	int late_wake;		/* wake_up_state(self) once both are released */
	long saved_after;	/* saved_state just before that */
	struct completion done;
};

static struct mylock_task mylock;

static int mylock_fn(void *data)
{
	struct mylock_task *m = data;

	spin_lock(&m->mylock1);
	set_current_state(TASK_UNINTERRUPTIBLE);
	spin_lock(&m->mylock2);			/* [*] may sleep */
	m->state_after = READ_ONCE(current->state);
	__set_current_state(TASK_RUNNING);
	spin_unlock(&m->mylock2);
	spin_unlock(&m->mylock1);
	/* running, no lock sleep: nothing kept, and a wake-up of the state
	 * set before the lock finds nothing to wake */
	m->saved_after = READ_ONCE(current->saved_state);
	m->late_wake = wake_up_state(current, TASK_UNINTERRUPTIBLE);
	complete(&m->done);
	return 0;
}

/*
 * run_mylock - TASK_RUNNING_MUTEX: while blocked on mylock2 the task
 * sleeps in TASK_RUNNING_MUTEX with TASK_UNINTERRUPTIBLE parked in
 * saved_state, and after the acquisition the state is the one set before
 * it.  With wake, an ordinary wake_up_process() meanwhile does not end the
 * lock sleep and is not lost either: the kept state becomes TASK_RUNNING.
 * Without sleeping spinlocks the contended lock spins (on another CPU)
 * and the state is untouched.
 */
static void run_mylock(struct ktest *t, bool wake)
{
	struct task_struct *p;
	bool blocked = false;
	ktime_t end;

	if (!SPINLOCK_SLEEPS && num_online_cpus() < 2)
		ktest_skip(t, "a spinning contender needs a second CPU");
	spin_lock_init(&mylock.mylock1);
	spin_lock_init(&mylock.mylock2);
	init_completion(&mylock.done);
	mylock.state_after = mylock.saved_after = -1;
	mylock.late_wake = -1;
	p = kthread_create(mylock_fn, &mylock, "mylock");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	get_task_struct(p);
	if (!SPINLOCK_SLEEPS)
		kthread_bind(p, (pin_here() + 1) % num_online_cpus());
	spin_lock(&mylock.mylock2);
	wake_up_process(p);
	end = ktime_get() + WAIT_NS;
	while (!blocked && ktime_get() < end) {
#if SPINLOCK_SLEEPS
		blocked = READ_ONCE(p->pi_blocked_on) &&
			  READ_ONCE(p->state) == TASK_RUNNING_MUTEX &&
			  !READ_ONCE(p->on_cpu);
		if (!blocked)
			schedule();
#else
		/* a second ticket is out: the contender spins */
		blocked = (u16)(READ_ONCE(mylock.mylock2.rlock.next) -
				READ_ONCE(mylock.mylock2.rlock.owner)) == 2;
		if (!blocked)
			cpu_relax();
#endif
	}
	KTEST_EXPECT(t, blocked, "contender never seen waiting on mylock2");
#if SPINLOCK_SLEEPS
	KTEST_EXPECT_EQ(t, READ_ONCE(p->saved_state), TASK_UNINTERRUPTIBLE);
	if (wake) {
		wake_up_process(p);
		KTEST_EXPECT(t, READ_ONCE(p->pi_blocked_on) != NULL,
			     "wake_up_process ended a lock sleep");
		KTEST_EXPECT_EQ(t, READ_ONCE(p->state), TASK_RUNNING_MUTEX);
		KTEST_EXPECT_EQ(t, READ_ONCE(p->saved_state), TASK_RUNNING);
	}
#endif
	spin_unlock(&mylock.mylock2);
	KTEST_EXPECT(t, wait_for_completion_timeout(&mylock.done, WAIT_NS) > 0,
		     "contender did not finish");
	KTEST_EXPECT_EQ(t, mylock.state_after, SPINLOCK_SLEEPS && wake ?
			TASK_RUNNING : TASK_UNINTERRUPTIBLE);
	kthread_stop(p);
	put_task_struct(p);
}

static void test_task_state_kept_across_contended_spin_lock(struct ktest *t)
{
	run_mylock(t, false);
}

static void test_wakeup_during_lock_sleep_is_kept(struct ktest *t)
{
	if (!SPINLOCK_SLEEPS)
		ktest_skip(t, "spinlock_t does not sleep in this model");
	run_mylock(t, true);
}

/*
 * Scenario (article, "Preemptible critical sections": the task state
 * kept across the lock sleep; the mylock example of run_mylock): C
 * sets TASK_UNINTERRUPTIBLE, blocks on mylock2 held by T (state parked
 * in saved_state), gets it once T unlocks, and runs on in TASK_RUNNING
 * with both locks released.  Observable in C then: nothing is kept for
 * a lock sleep (saved_state is TASK_RUNNING), and wake_up_state(C,
 * TASK_UNINTERRUPTIBLE) - a waker of the state C had before the lock,
 * arriving late - returns 0: C is running, nothing was woken.  A
 * restore that puts the state back but leaves it in saved_state too
 * makes that late wake-up match the stale copy: it "succeeds" (returns
 * 1) without waking anything, so a waker that tests the result believes
 * a sleep ended that never began.
 */
static void test_no_stale_saved_state_after_contended_spin_lock(struct ktest *t)
{
	run_mylock(t, false);
	KTEST_EXPECT_EQ(t, mylock.saved_after, TASK_RUNNING);
	KTEST_EXPECT(t, mylock.late_wake == 0, "wake_up_state(running C, "
		     "TASK_UNINTERRUPTIBLE) after its lock sleep returned %d, "
		     "expected 0 (saved_state then %ld, expected %d)",
		     mylock.late_wake, mylock.saved_after, TASK_RUNNING);
}

/* A low-prio holder wakes a high-prio task on its own CPU from inside a
 * spinlock_t section: under rt it runs there and then (the section is
 * preemptible); otherwise only after the unlock. */
struct preempt_case {
	spinlock_t lock;
	struct completion high_go, high_done, low_done;
	bool high_ran;
	bool high_ran_inside;
};

static int high_fn(void *data)
{
	struct preempt_case *c = data;

	wait_for_completion(&c->high_go);
	WRITE_ONCE(c->high_ran, true);
	complete(&c->high_done);
	return 0;
}

static int low_fn(void *data)
{
	struct preempt_case *c = data;
	ktime_t end;

	spin_lock(&c->lock);
	complete(&c->high_go);
	end = ktime_get() + 200 * NSEC_PER_MSEC;
	while (!READ_ONCE(c->high_ran) && ktime_get() < end)
		cpu_relax();
	c->high_ran_inside = READ_ONCE(c->high_ran);
	spin_unlock(&c->lock);
	wait_for_completion_timeout(&c->high_done, WAIT_NS);
	complete(&c->low_done);
	return 0;
}

static void test_spinlock_section_preemptible_only_under_rt(struct ktest *t)
{
	static struct preempt_case c;
	struct sched_param lo = { .sched_priority = 10 };
	struct sched_param hi = { .sched_priority = 20 };
	struct task_struct *pl, *ph;
	int cpu = raw_smp_processor_id();	/* a choice: both threads go there */

	spin_lock_init(&c.lock);
	init_completion(&c.high_go);
	init_completion(&c.high_done);
	init_completion(&c.low_done);
	c.high_ran = c.high_ran_inside = false;
	ph = kthread_create(high_fn, &c, "sl-high");
	pl = kthread_create(low_fn, &c, "sl-low");
	KTEST_ASSERT(t, ph && pl, "kthread_create failed");
	get_task_struct(ph);
	get_task_struct(pl);
	kthread_bind(ph, cpu);
	kthread_bind(pl, cpu);
	sched_setscheduler(ph, SCHED_FIFO, &hi);
	sched_setscheduler(pl, SCHED_FIFO, &lo);
	wake_up_process(ph);
	wake_up_process(pl);
	KTEST_EXPECT(t, wait_for_completion_timeout(&c.low_done, WAIT_NS) > 0,
		     "low task did not finish");
	KTEST_EXPECT(t, c.high_ran, "high task never ran");
	KTEST_EXPECT(t, c.high_ran_inside == (bool)SPINLOCK_SLEEPS,
		     "PREEMPT_%s: high ran inside the low task's spinlock_t "
		     "section: want %d, saw %d", RTK_PREEMPT_NAME,
		     SPINLOCK_SLEEPS, c.high_ran_inside);
	kthread_stop(ph);
	kthread_stop(pl);
	put_task_struct(ph);
	put_task_struct(pl);
}

/* Mutual exclusion from every CPU, on both types through one site. */
struct count_case {
	spinlock_t sl;
	raw_spinlock_t rl;
	unsigned long n_sl, n_rl;
	struct completion done;
};

#define COUNT_ITERS 500

static int counter_fn(void *data)
{
	struct count_case *c = data;
	unsigned long v;

	for (int i = 0; i < COUNT_ITERS; i++) {
		spin_lock(&c->sl);
		v = READ_ONCE(c->n_sl);
		cpu_relax();
		WRITE_ONCE(c->n_sl, v + 1);
		spin_unlock(&c->sl);
		spin_lock(&c->rl);
		v = READ_ONCE(c->n_rl);
		cpu_relax();
		WRITE_ONCE(c->n_rl, v + 1);
		spin_unlock(&c->rl);
		if ((i & 63) == 0)
			schedule();
	}
	complete(&c->done);
	return 0;
}

static void test_mutual_exclusion_from_every_cpu(struct ktest *t)
{
	static struct count_case c;
	struct task_struct *p[NR_CPUS];
	int n = num_online_cpus() + 1;

	if (n > NR_CPUS)
		n = NR_CPUS;
	spin_lock_init(&c.sl);
	spin_lock_init(&c.rl);
	c.n_sl = c.n_rl = 0;
	init_completion(&c.done);
	for (int i = 0; i < n; i++) {
		p[i] = kthread_create(counter_fn, &c, "sl-count%d", i);
		KTEST_ASSERT(t, p[i] != NULL, "kthread_create failed");
		get_task_struct(p[i]);
		kthread_bind(p[i], i % num_online_cpus());
		wake_up_process(p[i]);
	}
	for (int i = 0; i < n; i++)
		KTEST_EXPECT(t, wait_for_completion_timeout(&c.done,
							    10 * WAIT_NS) > 0,
			     "counter %d did not finish", i);
	KTEST_EXPECT_EQ(t, c.n_sl, (unsigned long)n * COUNT_ITERS);
	KTEST_EXPECT_EQ(t, c.n_rl, (unsigned long)n * COUNT_ITERS);
	for (int i = 0; i < n; i++) {
		kthread_stop(p[i]);
		put_task_struct(p[i]);
	}
}

KTEST_SUITE(spinlock,
	    KTEST_CASE(test_irq_variants_per_type_and_model),
	    KTEST_CASE(test_irqsave_flags_are_the_callers),
	    KTEST_CASE(test_might_sleep_warning_when_taken_atomic),
	    KTEST_CASE(test_trylock_never_sleeps),
	    KTEST_CASE(test_task_state_kept_across_contended_spin_lock),
	    KTEST_CASE(test_wakeup_during_lock_sleep_is_kept),
	    KTEST_CASE(test_no_stale_saved_state_after_contended_spin_lock),
	    KTEST_CASE(test_spinlock_section_preemptible_only_under_rt),
	    KTEST_CASE(test_mutual_exclusion_from_every_cpu));
