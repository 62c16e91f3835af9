/*
 * tests/kernel/test_rcu.c - the rcu suite (kernel/rcu/rcupdate.h):
 * grace periods wait for readers, preempted ones included under rt
 * (PREEMPT_RCU); read sections are not preemptible under the other
 * models; call_rcu order and context, rcu_barrier; publish-then-free
 * with readers on every CPU; boosting of a preempted reader (rt).
 * Article: "Preemptible critical sections", "PREEMPT_RT configuration
 * options" (PREEMPT_RCU).
 */
#include "tests/kernel/lock_probe.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/mm/slab.h"
#include "kernel/smp.h"
#include "lib/string.h"

#define NO_BOOST_MS 60000	/* boost delay while a test must not boost */
#define PREEMPTOR_FIFO 20

/* One reader scene: a reader thread, optionally preempted in its
 * section by a FIFO task woken from inside it, and a synchronize_rcu
 * caller. */
struct rcu_scene {
	struct task_struct *reader;
	struct task_struct *preemptor;	/* woken by the reader, or NULL */
	bool until_boost;		/* reader leaves once boosted */
	bool in_section;		/* reader -> main */
	bool leave;			/* main -> reader */
	bool left;			/* set just before rcu_read_unlock */
	bool preempted;			/* preemptor saw it switched out */
	bool saw_left;			/* synchronize_rcu returned after */
	bool cb_saw_left;		/* call_rcu from inside the section */
	bool cb_ran;
	int boosted_prio;		/* prio seen while boosted, or -1 */
	int prio_after;			/* prio after rcu_read_unlock */
	bool still_blocked;		/* on the list after unlock */
	struct rcu_head head;
};

static void scene_cb(struct rcu_head *head)
{
	struct rcu_scene *s = container_of(head, struct rcu_scene, head);

	WRITE_ONCE(s->cb_saw_left, READ_ONCE(s->left));
	WRITE_ONCE(s->cb_ran, true);
}

static int scene_reader(void *arg)
{
	struct rcu_scene *s = arg;
	ktime_t end = ktime_get() + PROBE_WAIT_NS;

	rcu_read_lock();
	call_rcu(&s->head, scene_cb);
	WRITE_ONCE(s->in_section, true);
	if (s->preemptor)
		wake_up_process(s->preemptor);	/* rt: preempts us here */
	while (!READ_ONCE(s->leave) && ktime_get() < end) {
		if (s->until_boost && current->prio != current->normal_prio) {
			s->boosted_prio = current->prio;
			break;
		}
		cpu_relax();
	}
	WRITE_ONCE(s->left, true);
	rcu_read_unlock();
	s->prio_after = current->prio;
	s->still_blocked = rcu_task_blocked(current);
	return 0;
}

static int scene_preemptor(void *arg)
{
	struct rcu_scene *s = arg;

	s->preempted = READ_ONCE(s->in_section) && rcu_task_blocked(s->reader) &&
		       !READ_ONCE(s->reader->on_cpu);
	return 0;
}

static int scene_sync(void *arg)
{
	struct rcu_scene *s = arg;

	synchronize_rcu();
	s->saw_left = READ_ONCE(s->left);
	return 0;
}

/* scene_cpu - where reader (and preemptor) run: another CPU if any. */
static int scene_cpu(void)
{
	int c = probe_other_cpu();

	return c < 0 ? raw_smp_processor_id() : c;	/* the only CPU */
}

/* wait_gp_held_by - poll until the running grace period waits for
 * reader: on its CPU (not preempted) or on the blocked list. */
static bool wait_gp_held_by(struct task_struct *reader, int cpu,
			    struct probe *sync)
{
	ktime_t end = ktime_get() + PROBE_WAIT_NS;
	struct rcu_stats st;
	int i;

	while (ktime_get() < end && !READ_ONCE(sync->done)) {
		rcu_get_stats(&st);
		if (st.phase == RCU_GP_WAIT_QS && st.cpus_pending == 1ULL << cpu &&
		    READ_ONCE(reader->on_cpu))
			return true;
		for (i = 0; i < st.nr_readers; i++)
			if (st.readers[i].holds_gp &&
			    st.readers[i].pid == reader->pid)
				return true;
		msleep(1);
	}
	return false;
}

/*
 * scene_start_preempted - start reader R (SCHED_OTHER) and preemptor P
 * (SCHED_FIFO 20), both pinned to cpu; R wakes P from inside its
 * section, P preempts it and checks it is off the CPU and on the
 * blocked list.  Returns with P gone and R still in its section.
 */
static void scene_start_preempted(struct ktest *t, struct rcu_scene *s,
				  struct probe *r, int cpu)
{
	struct probe p;

	probe_start(t, r, scene_reader, s, cpu, 0);
	probe_start(t, &p, scene_preemptor, s, cpu, PREEMPTOR_FIFO);
	s->reader = r->task;
	s->preemptor = p.task;
	wake_up_process(r->task);
	KTEST_EXPECT_EQ(t, probe_end(&p), 0);
	KTEST_EXPECT(t, s->preempted, "FIFO task did not find the reader "
		     "switched out and on the blocked list");
}

/*
 * scene_sync_waits - the common half of the waiting cases: start S,
 * see the grace period held by the reader and S still blocked, tell the
 * reader to leave, and check S returned only after it did.
 */
static void scene_sync_waits(struct ktest *t, struct rcu_scene *s,
			     struct probe *r, int cpu)
{
	struct probe sync;

	probe_start(t, &sync, scene_sync, s, -1, 0);
	wake_up_process(sync.task);
	KTEST_EXPECT(t, wait_gp_held_by(r->task, cpu, &sync),
		     "grace period never seen waiting for the reader");
	KTEST_EXPECT(t, !READ_ONCE(sync.done),
		     "synchronize_rcu returned while the reader was in its section");
	WRITE_ONCE(s->leave, true);
	KTEST_EXPECT_EQ(t, probe_end(&sync), 0);
	KTEST_EXPECT(t, s->saw_left, "synchronize_rcu returned before the "
		     "reader left (expected left=1, seen 0)");
	KTEST_EXPECT_EQ(t, probe_end(r), 0);
	rcu_barrier();
}

/*
 * Scenario: reader R (SCHED_OTHER, on another CPU when there is one)
 * enters a section, queues a callback from inside it and spins until
 * told to leave.  S calls synchronize_rcu().  Observable: the grace
 * period is seen waiting for R (its CPU pending, or R on the blocked
 * list), S has not returned then; after R is told to leave, S returns
 * and sees R's `left` store, and the callback ran after it too.  One CPU
 * under none/voluntary/desktop: R would hold the only CPU with
 * preemption off, so there is no way to run S beside it (skip).
 */
static void test_synchronize_rcu_waits_for_reader(struct ktest *t)
{
	struct rcu_scene s = { .boosted_prio = -1 };
	unsigned int delay = rcu_get_boost_delay();
	struct probe r;
	int cpu = scene_cpu();

	if (!PREEMPT_RCU && num_online_cpus() < 2)
		ktest_skip(t, "non-preemptible reader needs a second CPU");
	rcu_set_boost_delay(NO_BOOST_MS);
	probe_start(t, &r, scene_reader, &s, cpu, 0);
	s.reader = r.task;
	wake_up_process(r.task);
	while (!READ_ONCE(s.in_section))
		msleep(1);
	scene_sync_waits(t, &s, &r, cpu);
	KTEST_EXPECT(t, s.cb_ran, "callback from the section did not run");
	KTEST_EXPECT(t, s.cb_saw_left, "callback ran before its reader left");
	rcu_set_boost_delay(delay);
}

/*
 * Scenario (rt): R (SCHED_OTHER) and P (SCHED_FIFO 20) pinned to the
 * same CPU.  R enters a section and wakes P, which preempts it; P checks
 * that R is off the CPU and on the blocked list, and exits.  S calls
 * synchronize_rcu.  Observable: the grace period waits for R on the
 * blocked list (holds_gp), S stays blocked until R is told to leave,
 * and then sees R's `left` store.
 * Other models: a read section raises preempt_count (in_atomic() is
 * true, preemptible() false) and might_sleep() inside it warns; under
 * rt neither happens.
 */
static void test_preempted_reader_delays_grace_period(struct ktest *t)
{
	struct rcu_scene s = { .boosted_prio = -1 };
	unsigned int delay = rcu_get_boost_delay();
	unsigned long warns = might_sleep_warnings;
	struct probe r;
	int cpu = scene_cpu();
	bool atomic, can_preempt;

	might_sleep_expect_begin();	/* non-rt: the warning below */
	rcu_read_lock();
	atomic = in_atomic();
	can_preempt = preemptible();
	might_sleep();
	rcu_read_unlock();
	might_sleep_expect_end();
	KTEST_EXPECT_EQ(t, atomic, !PREEMPT_RCU);
	KTEST_EXPECT_EQ(t, can_preempt, PREEMPT_RCU);
	KTEST_EXPECT_EQ(t, might_sleep_warnings - warns, !PREEMPT_RCU);
	KTEST_EXPECT(t, !in_atomic(), "preempt_count %#x after rcu_read_unlock",
		     preempt_count());
	if (!PREEMPT_RCU)
		return;

	rcu_set_boost_delay(NO_BOOST_MS);
	scene_start_preempted(t, &s, &r, cpu);
	scene_sync_waits(t, &s, &r, cpu);
	KTEST_EXPECT(t, !s.still_blocked, "reader still on the blocked list "
		     "after rcu_read_unlock");
	rcu_set_boost_delay(delay);
}

#define NR_ORDER_CBS 8

struct order_cb {
	struct rcu_head head;
	int idx;
	unsigned long need;		/* gp covering the call */
};

static int order_seen[NR_ORDER_CBS];
static int order_n;
static int order_bad_ctx, order_early;

static void order_fn(struct rcu_head *head)
{
	struct order_cb *c = container_of(head, struct order_cb, head);
	int pos = __atomic_fetch_add(&order_n, 1, __ATOMIC_RELAXED);

	if (pos < NR_ORDER_CBS)
		order_seen[pos] = c->idx;
	if (in_interrupt() || preempt_count() || strcmp(current->name, "rcu_cb"))
		order_bad_ctx++;
	if (!rcu_gp_done(c->need))
		order_early++;
}

/*
 * Scenario: queue eight callbacks from this task, then rcu_barrier().
 * Observable: when rcu_barrier returns all eight have run (it waited),
 * in the order queued, each in the rcu_cb thread with preemption on
 * (task context), and each after the grace period that began after its
 * call_rcu had completed.
 */
static void test_call_rcu_runs_in_order_after_grace_period(struct ktest *t)
{
	static struct order_cb cbs[NR_ORDER_CBS];
	int i;

	order_n = order_bad_ctx = order_early = 0;
	for (i = 0; i < NR_ORDER_CBS; i++) {
		cbs[i].idx = i;
		cbs[i].need = rcu_gp_snapshot();
		call_rcu(&cbs[i].head, order_fn);
	}
	rcu_barrier();
	KTEST_EXPECT_EQ(t, READ_ONCE(order_n), NR_ORDER_CBS);
	for (i = 0; i < NR_ORDER_CBS && i < order_n; i++)
		KTEST_EXPECT(t, order_seen[i] == i, "position %d: expected "
			     "callback %d, seen %d", i, i, order_seen[i]);
	KTEST_EXPECT_EQ(t, order_bad_ctx, 0);
	KTEST_EXPECT_EQ(t, order_early, 0);
	rcu_barrier();	/* nothing queued: returns */
	KTEST_EXPECT_EQ(t, READ_ONCE(order_n), NR_ORDER_CBS);
}

#define OBJ_MAGIC 0x52435521u	/* "RCU!" */
#define OBJ_POISON 0xdeadbeefu
#define NR_REPLACE 300
#define MAX_READERS 8

struct rcu_obj {
	u32 magic;
	int gen;
	struct rcu_head rcu;
};

static struct rcu_obj *rcu_gp_obj;
static bool readers_stop;
static unsigned long reads_done, reads_bad, objs_freed;

static void obj_free(struct rcu_head *head)
{
	struct rcu_obj *o = container_of(head, struct rcu_obj, rcu);

	WRITE_ONCE(o->magic, OBJ_POISON);
	kfree(o);
	__atomic_fetch_add(&objs_freed, 1, __ATOMIC_RELAXED);
}

static int obj_reader(void *unused)
{
	struct rcu_obj *o;
	u32 m1, m2;
	int k;

	(void)unused;
	while (!READ_ONCE(readers_stop)) {
		rcu_read_lock();
		o = rcu_dereference(rcu_gp_obj);
		if (o) {
			m1 = READ_ONCE(o->magic);
			for (k = 0; k < 64; k++)
				cpu_relax();
			m2 = READ_ONCE(o->magic);
			if (m1 != OBJ_MAGIC || m2 != OBJ_MAGIC)
				__atomic_fetch_add(&reads_bad, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&reads_done, 1, __ATOMIC_RELAXED);
		}
		rcu_read_unlock();
		sched_yield();	/* none: the only way the writer runs */
	}
	return 0;
}

/*
 * Scenario: one reader per online CPU (pinned, SCHED_OTHER) loops
 * reading the published object and checking its magic twice inside one
 * section; this task replaces the object 300 times with
 * rcu_assign_pointer and frees the old one with call_rcu, whose
 * callback poisons the magic before kfree.  Observable: no reader ever
 * sees a poisoned or reused object, readers did read, and after
 * rcu_barrier every replaced object was freed.
 */
static void test_publish_then_free_with_readers_on_every_cpu(struct ktest *t)
{
	struct probe readers[MAX_READERS];
	int n = 0, cpu, i;
	struct rcu_obj *o, *old;

	readers_stop = false;
	reads_done = reads_bad = objs_freed = 0;
	o = kmalloc(sizeof(*o), GFP_KERNEL);
	KTEST_ASSERT(t, o != NULL, "kmalloc failed");
	o->magic = OBJ_MAGIC;
	o->gen = 0;
	rcu_assign_pointer(rcu_gp_obj, o);
	for_each_online_cpu(cpu) {
		if (n == MAX_READERS)
			break;
		probe_start(t, &readers[n], obj_reader, NULL, cpu, 0);
		wake_up_process(readers[n++].task);
	}
	for (i = 1; i <= NR_REPLACE; i++) {
		o = kmalloc(sizeof(*o), GFP_KERNEL);
		if (!o)
			break;
		o->magic = OBJ_MAGIC;
		o->gen = i;
		old = rcu_gp_obj;
		rcu_assign_pointer(rcu_gp_obj, o);
		call_rcu(&old->rcu, obj_free);
		if (i % 32 == 0)
			msleep(1);	/* let grace periods end meanwhile */
		else
			sched_yield();
	}
	KTEST_EXPECT_EQ(t, i, NR_REPLACE + 1);
	old = rcu_gp_obj;
	rcu_assign_pointer(rcu_gp_obj, NULL);
	call_rcu(&old->rcu, obj_free);
	WRITE_ONCE(readers_stop, true);
	for (cpu = 0; cpu < n; cpu++)
		KTEST_EXPECT_EQ(t, probe_end(&readers[cpu]), 0);
	rcu_barrier();
	KTEST_EXPECT_EQ(t, reads_bad, 0);
	KTEST_EXPECT(t, reads_done > 0, "readers never read the object");
	KTEST_EXPECT_EQ(t, objs_freed, i);
}

/*
 * Scenario (rt): boost delay 10 ms.  R (SCHED_OTHER, prio 120) is
 * preempted inside its section by P (SCHED_FIFO 20, same CPU), as in
 * the preempted-reader case; S calls synchronize_rcu.  R spins in its
 * section until it sees its own prio change.  Observable: once the grace
 * period is 10 ms old R runs at SCHED_FIFO boost_prio (prio 99 -
 * boost_prio, through the boost rt_mutex), the boost counter rises, R
 * is back at prio 120 right after rcu_read_unlock, and S returns after R
 * left.
 * Other models: this task enters a section (preemption off), then
 * wakes S, and holds the section for twice the delay while S waits:
 * S does not return meanwhile, nothing is boosted, our prio is
 * unchanged.
 */
static void test_preempted_reader_is_boosted_and_deboosted(struct ktest *t)
{
	struct rcu_scene s = { .boosted_prio = -1, .until_boost = true };
	unsigned int delay = rcu_get_boost_delay();
	struct rcu_stats before, after;
	struct probe r, sync;
	int cpu = scene_cpu(), prio = current->prio;
	ktime_t end;

	rcu_set_boost_delay(10);
	rcu_get_stats(&before);
	if (!PREEMPT_RCU) {
		/*
		 * The section must begin before S calls synchronize_rcu():
		 * a grace period need not wait for a reader that began
		 * after it (that ordering race made this case flaky).
		 * Waking S is legal with preemption off; S is bound to
		 * another CPU, and with one CPU it only runs after we
		 * leave, which the checks below allow.
		 */
		probe_start(t, &sync, scene_sync, &s, probe_other_cpu(), 0);
		rcu_read_lock();
		wake_up_process(sync.task);
		if (num_online_cpus() > 1)
			KTEST_EXPECT(t, probe_blocked(&sync), "S never blocked");
		end = ktime_get() + 2 * 10 * NSEC_PER_MSEC;
		while (ktime_get() < end)
			cpu_relax();
		KTEST_EXPECT(t, !READ_ONCE(sync.done),
			     "synchronize_rcu returned inside our section");
		KTEST_EXPECT_EQ(t, current->prio, prio);
		WRITE_ONCE(s.left, true);
		rcu_read_unlock();
		KTEST_EXPECT_EQ(t, probe_end(&sync), 0);
		KTEST_EXPECT(t, s.saw_left, "S returned before we left");
		rcu_get_stats(&after);
		KTEST_EXPECT_EQ(t, after.boosts - before.boosts, 0);
		goto out;
	}
	scene_start_preempted(t, &s, &r, cpu);
	probe_start(t, &sync, scene_sync, &s, -1, 0);
	wake_up_process(sync.task);
	KTEST_EXPECT_EQ(t, probe_end(&sync), 0);
	KTEST_EXPECT_EQ(t, probe_end(&r), 0);
	KTEST_EXPECT(t, s.saw_left, "S returned before the reader left");
	KTEST_EXPECT_EQ(t, s.boosted_prio,
			MAX_RT_PRIO - 1 - rcu_get_boost_prio());
	KTEST_EXPECT_EQ(t, s.prio_after, DEFAULT_PRIO);
	rcu_get_stats(&after);
	KTEST_EXPECT(t, after.boosts > before.boosts,
		     "boost count: expected > %lu, seen %lu", before.boosts,
		     after.boosts);
	rcu_barrier();
out:
	rcu_set_boost_delay(delay);
}

KTEST_SUITE(rcu,
	    KTEST_CASE(test_synchronize_rcu_waits_for_reader),
	    KTEST_CASE(test_preempted_reader_delays_grace_period),
	    KTEST_CASE(test_call_rcu_runs_in_order_after_grace_period),
	    KTEST_CASE(test_publish_then_free_with_readers_on_every_cpu),
	    KTEST_CASE(test_preempted_reader_is_boosted_and_deboosted));
