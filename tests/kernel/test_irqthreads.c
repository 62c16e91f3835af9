/*
 * tests/kernel/test_irqthreads.c - request_irq and where handlers run
 * (article, "Preemptible interrupt handlers"; kernel/irq/irq_model.h):
 * under rt a handler without SA_NODELAY runs in its line's thread
 * irq/N-name (task context, interrupts on, SCHED_FIFO 50, preemptible by
 * a higher-priority task); under none/voluntary/desktop it runs in
 * hard-irq context with interrupts off; an SA_NODELAY handler runs in
 * hard-irq context under every model; free_irq() waits for a running
 * handler; disable_irq() holds an interrupt back and enable_irq()
 * replays it.
 * The "device" is a software line (arch/x86_64/irq_chip.h: lines 16-31)
 * raised by a self-IPI on its vector (arch_irq_retrigger), which arrives
 * on the CPU that sends it.
 */
#include "kernel/ktest.h"
#include "kernel/irq/irqdesc.h"
#include "kernel/irq/irq_model.h"
#include "kernel/irq/manage.h"
#include "kernel/mm/kstack.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/errno.h"
#include "lib/string.h"

#define TEST_IRQ	(ARCH_NR_ISA_IRQS + 0)	/* software line, vector 0x30 */
#define TEST_IRQ_SLOW	(ARCH_NR_ISA_IRQS + 1)

/* Every spin in these handlers gives up after this long, so a broken
 * kernel fails the test instead of hanging it (TCG is slow: generous). */
#define SPIN_LIMIT_NS (2000 * NSEC_PER_MSEC)

static int test_dev;	/* dev_id */

/*
 * stacks_back - wait until the kernel stacks in use are back at stacks0
 * (or below): every thread a test started (irq threads, helpers) is gone
 * once its last reference is dropped, which happens after its final
 * switch away, possibly on another CPU.  Below counts as back: stacks0
 * may include a task an earlier suite was freeing on another CPU
 * (sched_nr_tasks_reaping() in kernel/sched/sched.h draws that race),
 * whose stack goes meanwhile.  Polls a condition, bounded at 5 s, so the
 * next suite's baselines do not see our threads disappear under them.
 */
static bool stacks_back(unsigned int stacks0)
{
	ktime_t end = ktime_get() + 5 * NSEC_PER_SEC;

	while (kstack_nr_in_use() > stacks0) {
		if (ktime_get() > end)
			return false;
		msleep(1);
	}
	return true;
}

/* What a handler saw about its context. */
struct handler_probe {
	struct completion ran;
	int in_irq;
	int irqs_off;
	int policy;
	int rt_priority;
	char comm[TASK_COMM_LEN];
	unsigned int runs;
};

static struct handler_probe probe;

static irqreturn_t probe_handler(int irq, void *dev_id)
{
	struct task_struct *p = current;

	probe.in_irq = in_irq();
	probe.irqs_off = raw_irqs_disabled();
	probe.policy = p->policy;
	probe.rt_priority = p->rt_priority;
	strscpy(probe.comm, p->name, sizeof(probe.comm));
	probe.runs++;
	complete(&probe.ran);
	return dev_id == &test_dev ? IRQ_HANDLED : IRQ_NONE;
}

static void probe_reset(void)
{
	memset(&probe, 0, sizeof(probe));
	init_completion(&probe.ran);
}

/* fire_and_wait - raise TEST_IRQ, wait (bounded) for the handler. */
static bool fire_and_wait(void)
{
	arch_irq_retrigger(TEST_IRQ);
	return wait_for_completion_timeout(&probe.ran, 5 * NSEC_PER_SEC) > 0;
}

/* Under rt: the handler runs in irq/16-irqt-probe, SCHED_FIFO 50, in task
 * context with interrupts on.  Otherwise: in hard-irq context, IF off. */
static void test_handler_context_follows_the_model(struct ktest *t)
{
	unsigned int stacks0 = kstack_nr_in_use();

	probe_reset();
	KTEST_ASSERT_EQ(t, request_irq(TEST_IRQ, probe_handler, 0, "irqt-probe",
				       &test_dev), 0);
	KTEST_EXPECT_EQ(t, irq_is_threaded(TEST_IRQ), IRQ_FORCED_THREADING);
	if (!fire_and_wait()) {
		free_irq(TEST_IRQ, &test_dev);
		KTEST_ASSERT(t, 0, "handler did not run within 5 s");
	}
	free_irq(TEST_IRQ, &test_dev);
	if (IRQ_FORCED_THREADING) {
		KTEST_EXPECT(t, !probe.in_irq && !probe.irqs_off,
			     "thread context: in_irq 0 irqs_off 0, saw %d %d",
			     probe.in_irq, probe.irqs_off);
		KTEST_EXPECT(t, strcmp(probe.comm, "irq/16-irqt-pro") == 0,
			     "runs in irq/16-irqt-pro(be), saw \"%s\"", probe.comm);
		KTEST_EXPECT(t, probe.policy == SCHED_FIFO &&
				     probe.rt_priority == IRQ_THREAD_PRIO,
			     "SCHED_FIFO %d, saw policy %d prio %d",
			     IRQ_THREAD_PRIO, probe.policy, probe.rt_priority);
	} else {
		KTEST_EXPECT(t, probe.in_irq && probe.irqs_off,
			     "hard irq: in_irq 1 irqs_off 1, saw %d %d",
			     probe.in_irq, probe.irqs_off);
	}
	KTEST_EXPECT_EQ(t, probe.runs, 1);
	KTEST_EXPECT(t, stacks_back(stacks0), "irq thread gone: stacks %u, saw %u",
		     stacks0, kstack_nr_in_use());
}

/* SA_NODELAY (mainline IRQF_NO_THREAD): hard-irq context in every model,
 * no thread for the line. */
static void test_sa_nodelay_handler_runs_in_hardirq(struct ktest *t)
{
	probe_reset();
	KTEST_ASSERT_EQ(t, request_irq(TEST_IRQ, probe_handler, SA_NODELAY,
				       "irqt-nodelay", &test_dev), 0);
	KTEST_EXPECT(t, !irq_is_threaded(TEST_IRQ) &&
			     !irq_to_desc(TEST_IRQ)->thread,
		     "SA_NODELAY line has no thread");
	if (!fire_and_wait()) {
		free_irq(TEST_IRQ, &test_dev);
		KTEST_ASSERT(t, 0, "handler did not run within 5 s");
	}
	free_irq(TEST_IRQ, &test_dev);
	KTEST_EXPECT(t, probe.in_irq && probe.irqs_off,
		     "hard irq: in_irq 1 irqs_off 1, saw %d %d", probe.in_irq,
		     probe.irqs_off);
}

/* Sharing: both sharers need SA_SHIRQ, and agree on SA_NODELAY. */
static void test_request_irq_checks_sharing(struct ktest *t)
{
	unsigned int stacks0 = kstack_nr_in_use();
	int other;

	KTEST_ASSERT_EQ(t, request_irq(TEST_IRQ, probe_handler, 0, "irqt-a",
				       &test_dev), 0);
	KTEST_EXPECT_EQ(t, request_irq(TEST_IRQ, probe_handler, SA_SHIRQ,
				       "irqt-b", &other), -EBUSY);
	free_irq(TEST_IRQ, &test_dev);
	KTEST_ASSERT_EQ(t, request_irq(TEST_IRQ, probe_handler, SA_SHIRQ,
				       "irqt-a", &test_dev), 0);
	KTEST_EXPECT_EQ(t, request_irq(TEST_IRQ, probe_handler,
				       SA_SHIRQ | SA_NODELAY, "irqt-b", &other),
			-EBUSY);
	KTEST_EXPECT_EQ(t, request_irq(TEST_IRQ, probe_handler, SA_SHIRQ,
				       "irqt-b", &other), 0);
	free_irq(TEST_IRQ, &other);
	free_irq(TEST_IRQ, &test_dev);
	KTEST_EXPECT_EQ(t, request_irq(NR_IRQS, probe_handler, 0, "x", NULL),
			-EINVAL);
	KTEST_EXPECT(t, stacks_back(stacks0), "irq threads gone");
}

/* disable_irq holds the interrupt back (the handler does not run);
 * enable_irq replays it once. */
static void test_disable_irq_defers_and_enable_irq_replays(struct ktest *t)
{
	unsigned int stacks0 = kstack_nr_in_use();

	probe_reset();
	KTEST_ASSERT_EQ(t, request_irq(TEST_IRQ, probe_handler, 0, "irqt-dis",
				       &test_dev), 0);
	disable_irq(TEST_IRQ);
	arch_irq_retrigger(TEST_IRQ);
	/* The self-IPI arrived before retrigger returned (interrupts are on);
	 * synchronize_irq covers a thread the hard part might have woken. */
	synchronize_irq(TEST_IRQ);
	KTEST_EXPECT_EQ(t, probe.runs, 0);
	KTEST_EXPECT(t, irq_to_desc(TEST_IRQ)->status & IRQS_PENDING,
		     "interrupt remembered as pending");
	enable_irq(TEST_IRQ);
	KTEST_EXPECT(t, wait_for_completion_timeout(&probe.ran,
						    5 * NSEC_PER_SEC) > 0,
		     "enable_irq replayed the interrupt");
	synchronize_irq(TEST_IRQ);
	free_irq(TEST_IRQ, &test_dev);
	KTEST_EXPECT_EQ(t, probe.runs, 1);
	KTEST_EXPECT(t, stacks_back(stacks0), "irq thread gone");
}

/* ---- a threaded handler preempted by a higher-priority task (rt) ---- */

static struct {
	struct completion go;		/* handler -> hi: wake up */
	struct completion done;		/* handler returned */
	struct completion hi_started;	/* hi is about to wait for "go" */
	volatile int in_handler;	/* handler between entry and return */
	volatile int hi_ran;		/* hi task has run */
	int hi_saw_in_handler;		/* hi ran while the handler was mid-way */
	int hi_cpu, handler_cpu;
	int handler_timed_out;
	/* hard-irq models: what the handler saw of its own context */
	int in_irq, irqs_off, preemptible, resched_pending;
	int hi_ran_during_spin;
} pre;

/* HARDIRQ_SPIN: how long the hard-irq handler keeps the CPU after it
 * woke hi.  Any length shows the point (with interrupts off nothing can
 * switch this CPU); a few ticks' worth under TCG so a kernel that did
 * preempt a hard-irq handler would be caught doing it. */
#define HARDIRQ_SPIN 1000000

/* spin_handler - threaded (rt): wake hi and spin until it has run,
 * which needs hi to preempt us.  Hard irq (other models): wake hi, then
 * spin HARDIRQ_SPIN times; hi, bound to this CPU, must not run before we
 * return. */
static irqreturn_t spin_handler(int irq, void *dev_id)
{
	ktime_t t0 = ktime_get();
	long i;

	pre.handler_cpu = raw_smp_processor_id();
	pre.in_irq = in_irq();
	pre.irqs_off = raw_irqs_disabled();
	pre.preemptible = preemptible();
	pre.in_handler = 1;
	complete(&pre.go);
	if (!IRQ_FORCED_THREADING) {
		pre.resched_pending = need_resched();
		for (i = 0; i < HARDIRQ_SPIN; i++) {
			if (pre.hi_ran)
				pre.hi_ran_during_spin = 1;
			cpu_relax();
		}
	}
	while (IRQ_FORCED_THREADING && !pre.hi_ran) {
		if (ktime_get() - t0 > SPIN_LIMIT_NS) {
			pre.handler_timed_out = 1;
			break;
		}
		cpu_relax();
	}
	pre.in_handler = 0;
	complete(&pre.done);
	return IRQ_HANDLED;
}

static int hi_task(void *arg)
{
	complete(&pre.hi_started);
	wait_for_completion(&pre.go);
	pre.hi_cpu = raw_smp_processor_id();
	pre.hi_saw_in_handler = pre.in_handler;
	pre.hi_ran = 1;
	return 0;
}

/*
 * Scenario:
 *	handler			rt: irq/16-irqt-spin, SCHED_FIFO 50, pinned
 *				to CPU 0; other models: hard irq on CPU 0
 *				(the test task raises the line from CPU 0)
 *	hi			SCHED_FIFO 80, pinned to CPU 0, waits for "go"
 * The handler completes "go", waking hi on its own CPU.
 * rt: the handler spins until hi has run.  hi, more important, preempts
 * the handler at once and records that it was mid-way.  Had the handler
 * not been preemptible, hi could run only after it returned: the spin
 * would time out and hi would see in_handler 0.
 * none/voluntary/desktop: the handler is not a task: it runs with
 * in_irq(), interrupts off, not preemptible; the wakeup leaves
 * TIF_NEED_RESCHED pending and hi does not run until the handler has
 * returned (hi sees in_handler 0), at the interrupt return (desktop) or
 * at the test task's next schedule() (none, voluntary).
 */
static void test_threaded_handler_preempted_by_higher_prio_task(struct ktest *t)
{
	struct sched_param hp = { .sched_priority = 80 };
	struct task_struct *hi;
	cpumask_t cpu0 = { .bits = 1 };
	unsigned int stacks0 = kstack_nr_in_use();

	memset(&pre, 0, sizeof(pre));
	init_completion(&pre.go);
	init_completion(&pre.done);
	init_completion(&pre.hi_started);
	KTEST_ASSERT_EQ(t, request_irq(TEST_IRQ, spin_handler, 0, "irqt-spin",
				       &test_dev), 0);
	if (IRQ_FORCED_THREADING)
		KTEST_EXPECT_EQ(t, set_cpus_allowed(irq_to_desc(TEST_IRQ)->thread,
						    cpu0), 0);
	else
		set_cpus_allowed(current, cpu0);	/* the self-IPI's CPU */
	hi = kthread_create(hi_task, NULL, "irqt-hi");
	if (!hi) {
		free_irq(TEST_IRQ, &test_dev);
		set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	kthread_bind(hi, 0);
	sched_setscheduler(hi, SCHED_FIFO, &hp);
	get_task_struct(hi);
	wake_up_process(hi);
	wait_for_completion(&pre.hi_started);
	arch_irq_retrigger(TEST_IRQ);
	wait_for_completion(&pre.done);
	kthread_stop(hi);
	put_task_struct(hi);
	free_irq(TEST_IRQ, &test_dev);
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });
	KTEST_EXPECT(t, pre.hi_cpu == 0 && pre.handler_cpu == 0,
		     "both on CPU 0, saw hi %d handler %d", pre.hi_cpu,
		     pre.handler_cpu);
	if (IRQ_FORCED_THREADING) {
		KTEST_EXPECT(t, !pre.handler_timed_out,
			     "hi ran before the handler ended");
		KTEST_EXPECT(t, pre.hi_saw_in_handler,
			     "hi preempted the handler mid-way (in_handler 1), "
			     "saw 0");
	} else {
		KTEST_EXPECT(t, pre.in_irq && pre.irqs_off && !pre.preemptible,
			     "PREEMPT_%s: hard irq, irqs off, not preemptible; "
			     "saw in_irq %d irqs_off %d preemptible %d",
			     RTK_PREEMPT_NAME, pre.in_irq, pre.irqs_off,
			     pre.preemptible);
		KTEST_EXPECT(t, pre.resched_pending,
			     "waking hi left TIF_NEED_RESCHED set in the handler");
		KTEST_EXPECT(t, !pre.hi_ran_during_spin && !pre.hi_saw_in_handler,
			     "hi ran only after the handler returned, saw during "
			     "spin %d mid-way %d", pre.hi_ran_during_spin,
			     pre.hi_saw_in_handler);
	}
	KTEST_EXPECT(t, stacks_back(stacks0), "threads gone: stacks %u, saw %u",
		     stacks0, kstack_nr_in_use());
}

/* ---- free_irq waits for a running handler ---- */

static struct {
	struct completion entered;	/* handler started */
	struct completion freed;	/* freer's free_irq returned */
	volatile int calling_free;	/* freer is about to call free_irq */
	volatile int handler_done;	/* handler about to return */
	int done_when_free_returned;
	int handler_timed_out;
} fr;

/* Spins (never sleeps: under non-rt it is a hard-irq handler) until the
 * freer is in free_irq, then a few ms more so a free_irq that does not
 * wait has the time to return early and be caught. */
#define SLOW_HANDLER_EXTRA_NS (5 * NSEC_PER_MSEC)

static irqreturn_t slow_handler(int irq, void *dev_id)
{
	ktime_t t0 = ktime_get(), t1;

	complete(&fr.entered);
	while (!fr.calling_free) {
		if (ktime_get() - t0 > SPIN_LIMIT_NS) {
			fr.handler_timed_out = 1;
			break;
		}
		cpu_relax();
	}
	t1 = ktime_get();
	while (ktime_get() - t1 < SLOW_HANDLER_EXTRA_NS)
		cpu_relax();
	fr.handler_done = 1;
	return IRQ_HANDLED;
}

static int freer_task(void *arg)
{
	wait_for_completion(&fr.entered);
	fr.calling_free = 1;
	free_irq(TEST_IRQ_SLOW, &test_dev);
	fr.done_when_free_returned = fr.handler_done;
	complete(&fr.freed);
	return 0;
}

static int trigger_task(void *arg)
{
	arch_irq_retrigger(TEST_IRQ_SLOW);
	return 0;
}

/*
 * Scenario:
 *	trigger		pinned to CPU T: raises the line (self-IPI on T)
 *	handler		spins until the freer calls free_irq, then 5 ms more
 *	freer		SCHED_FIFO 90, pinned to CPU F, waits for "entered",
 *			calls free_irq
 * free_irq must return only after the handler has: the freer reads
 * handler_done right after free_irq and must see 1.  Under rt the
 * handler is the thread (FIFO 50): with F == T == 0 on one CPU the freer
 * preempts it and sleeps in free_irq.  Otherwise the handler holds CPU T
 * in hard-irq context, so the freer needs another CPU (F != T).
 */
static void test_free_irq_waits_for_running_handler(struct ktest *t)
{
	struct sched_param fp = { .sched_priority = 90 };
	struct task_struct *freer, *trig;
	int tcpu = 0, fcpu = 0;
	unsigned int stacks0 = kstack_nr_in_use();

	if (!IRQ_FORCED_THREADING) {
		if (num_online_cpus() < 2)
			ktest_skip(t, "a hard-irq handler holds its CPU: needs 2");
		fcpu = 1;
	}
	memset(&fr, 0, sizeof(fr));
	init_completion(&fr.entered);
	init_completion(&fr.freed);
	KTEST_ASSERT_EQ(t, request_irq(TEST_IRQ_SLOW, slow_handler, 0,
				       "irqt-slow", &test_dev), 0);
	freer = kthread_create(freer_task, NULL, "irqt-freer");
	trig = kthread_create(trigger_task, NULL, "irqt-trig");
	if (!freer || !trig) {
		free_irq(TEST_IRQ_SLOW, &test_dev);
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	kthread_bind(freer, fcpu);
	kthread_bind(trig, tcpu);
	sched_setscheduler(freer, SCHED_FIFO, &fp);
	wake_up_process(freer);
	wake_up_process(trig);
	wait_for_completion(&fr.freed);
	KTEST_EXPECT(t, !fr.handler_timed_out, "freer reached free_irq");
	KTEST_EXPECT(t, fr.done_when_free_returned,
		     "handler finished before free_irq returned, saw not");
	KTEST_EXPECT(t, !irq_to_desc(TEST_IRQ_SLOW)->action &&
			     !irq_to_desc(TEST_IRQ_SLOW)->thread,
		     "line has no handler and no thread after free_irq");
	KTEST_EXPECT(t, stacks_back(stacks0), "threads gone: stacks %u, saw %u",
		     stacks0, kstack_nr_in_use());
}

KTEST_SUITE(irqthreads,
	    KTEST_CASE(test_handler_context_follows_the_model),
	    KTEST_CASE(test_sa_nodelay_handler_runs_in_hardirq),
	    KTEST_CASE(test_request_irq_checks_sharing),
	    KTEST_CASE(test_disable_irq_defers_and_enable_irq_replays),
	    KTEST_CASE(test_threaded_handler_preempted_by_higher_prio_task),
	    KTEST_CASE(test_free_irq_waits_for_running_handler));
