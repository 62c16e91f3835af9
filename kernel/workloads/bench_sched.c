/*
 * kernel/workloads/bench_sched.c - the scheduler, IPI and interrupt figures
 * of the bench (kernel/workloads/bench.h).  Every sample is a TSC difference;
 * the TSC is one clock on every CPU (ktime relies on it too), so the
 * cross-CPU figures subtract stamps taken on two CPUs.
 *
 *	tsc-read	two back-to-back arch_clock_cycles(): the floor under
 *			every other figure
 *	ctxsw		A and B, SCHED_FIFO 50 bound to one CPU, ping-pong on
 *			two completions; same priority, so a round trip is
 *			exactly two switches and two wakeups: sample = half
 *	wake-to-run	wakee FIFO 99 bound to CPU W, waker FIFO 98 on CPU K;
 *			the waker waits until W runs its idle task, stamps
 *			and wake_up_process()es; the wakee stamps first thing
 *			(remote enqueue, reschedule IPI, HLT exit, switch)
 *	ipi-round-trip	smp_call_function_single(W, empty, wait=true) from K
 *	irq-to-thread	a software line (self-IPI, arch_irq_retrigger) with a
 *			handler requested without SA_NODELAY: stamp before the
 *			raise, stamp in the handler.  Under rt the handler runs
 *			in irq/18-bench (FIFO 50, above the FIFO 40 runner), so
 *			it is raise -> hard irq -> thread wakeup -> switch; under
 *			none/voluntary/desktop it is raise -> hard-irq handler
 *	tick		what one tick interrupt takes from the task it
 *			interrupts: the runner spins stamping the cycle
 *			counter; a stamp gap with exactly one tick in it (IDT
 *			stub, irq_enter, the tick handler, irq_exit, iret) is
 *			a sample (plus one loop pass, a few cycles)
 * Linux counterpart: lmbench lat_ctx, rt-tests' cyclictest wakeup
 * latency; none in-tree.
 */
#include "kernel/workloads/bench_figure.h"
#include "kernel/irq/manage.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/smp.h"
#include "kernel/time/tick.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"

#define BENCH_IRQ (ARCH_NR_ISA_IRQS + 2)	/* software line, vector 0x32;
						 * irqthreads uses +0 and +1 */

int bench_tsc_read(int n, struct bench_result *res)
{
	for (int i = 0; i < n; i++) {
		u64 t0 = arch_clock_cycles();

		bench_samples[i] = arch_clock_cycles() - t0;
	}
	return n;
}

/* ---- ctxsw ---- */

struct pingpong {
	struct completion ping, pong, done;
	int n;			/* round trips asked */
	int done_n;		/* round trips done */
};

static int ping_fn(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < pp->n; i++) {
		u64 t0 = arch_clock_cycles();

		complete(&pp->ping);
		wait_for_completion(&pp->pong);
		bench_samples[i] = (arch_clock_cycles() - t0) / 2;
		pp->done_n++;
	}
	complete(&pp->done);
	return 0;
}

static int pong_fn(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < pp->n; i++) {
		wait_for_completion(&pp->ping);
		complete(&pp->pong);
	}
	return 0;
}

int bench_ctxsw(int n, struct bench_result *res)
{
	static struct pingpong pp;
	struct task_struct *a, *b;
	int cpu = bench_other_cpu(raw_smp_processor_id());

	memset(&pp, 0, sizeof(pp));
	pp.n = n;
	init_completion(&pp.ping);
	init_completion(&pp.pong);
	init_completion(&pp.done);
	a = kthread_create(ping_fn, &pp, "bench-ping");
	b = kthread_create(pong_fn, &pp, "bench-pong");
	if (!a || !b) {
		/* never woken: a stop ends the other one unstarted */
		if (a)
			kthread_stop(a);
		if (b)
			kthread_stop(b);
		return -ENOMEM;
	}
	kthread_bind(a, cpu);
	kthread_bind(b, cpu);
	bench_set_fifo(a, 50);
	bench_set_fifo(b, 50);
	get_task_struct(a);
	get_task_struct(b);
	wake_up_process(b);
	wake_up_process(a);
	wait_for_completion(&pp.done);
	kthread_stop(a);
	kthread_stop(b);
	put_task_struct(a);
	put_task_struct(b);
	res->note = "per switch: half a same-prio round trip on one CPU";
	return pp.done_n;
}

/* ---- wake-to-run ---- */

struct wake_bench {
	struct task_struct *wakee;
	int wakee_cpu;
	int n;			/* samples asked */
	volatile u64 t0;	/* waker's stamp just before the wakeup */
	volatile int seq;	/* wakeups sent */
	struct completion ran;	/* wakee took its sample */
	int taken;		/* samples taken */
	int wrong_cpu;		/* samples taken on another CPU than W */
	struct completion done;
};

static int wakee_fn(void *arg)
{
	struct wake_bench *wb = arg;
	int seen = 0;

	for (;;) {
		u64 t1;

		set_current_state(TASK_UNINTERRUPTIBLE);
		while (READ_ONCE(wb->seq) == seen && !kthread_should_stop()) {
			schedule();
			set_current_state(TASK_UNINTERRUPTIBLE);
		}
		t1 = arch_clock_cycles();
		__set_current_state(TASK_RUNNING);
		if (kthread_should_stop())
			break;
		seen = READ_ONCE(wb->seq);
		if (wb->taken < wb->n)
			bench_samples[wb->taken++] = t1 - wb->t0;
		if (raw_smp_processor_id() != wb->wakee_cpu)
			wb->wrong_cpu++;
		complete(&wb->ran);
	}
	return 0;
}

/* wakee_asleep - off its CPU and not runnable: W runs its idle task. */
static bool wakee_asleep(const struct task_struct *p)
{
	return READ_ONCE(p->state) != TASK_RUNNING &&
	       !__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE);
}

static int waker_fn(void *arg)
{
	struct wake_bench *wb = arg;

	for (int i = 0; i < wb->n; i++) {
		while (!wakee_asleep(wb->wakee))
			arch_cpu_relax();
		wb->t0 = arch_clock_cycles();
		__atomic_store_n(&wb->seq, i + 1, __ATOMIC_RELEASE);
		wake_up_process(wb->wakee);
		wait_for_completion(&wb->ran);
	}
	complete(&wb->done);
	return 0;
}

int bench_wake_to_run(int n, struct bench_result *res)
{
	static struct wake_bench wb;
	struct task_struct *waker;
	int here = raw_smp_processor_id(), w, k;

	w = bench_other_cpu(here);
	k = num_online_cpus() > 2 ? bench_other_cpu(w) : here;
	if (k == w)
		k = here;
	memset(&wb, 0, sizeof(wb));
	wb.n = n;
	init_completion(&wb.ran);
	init_completion(&wb.done);
	wb.wakee_cpu = w;
	wb.wakee = kthread_create(wakee_fn, &wb, "bench-wakee");
	waker = kthread_create(waker_fn, &wb, "bench-waker");
	if (!wb.wakee || !waker) {
		if (wb.wakee)
			kthread_stop(wb.wakee);	/* unstarted, as above */
		if (waker)
			kthread_stop(waker);
		return -ENOMEM;
	}
	kthread_bind(wb.wakee, w);
	kthread_bind(waker, k);
	bench_set_fifo(wb.wakee, 99);
	bench_set_fifo(waker, 98);
	get_task_struct(wb.wakee);
	get_task_struct(waker);
	wake_up_process(wb.wakee);
	wake_up_process(waker);
	wait_for_completion(&wb.done);
	kthread_stop(waker);
	kthread_stop(wb.wakee);
	put_task_struct(waker);
	put_task_struct(wb.wakee);
	res->bad = wb.wrong_cpu;
	res->note = "FIFO 99 wakee on an idle CPU, woken from another CPU";
	return wb.taken;
}

/* ---- ipi-round-trip ---- */

static void bench_ipi_empty(void *info)
{
	(void)info;
}

int bench_ipi_round_trip(int n, struct bench_result *res)
{
	int w = bench_other_cpu(raw_smp_processor_id());

	/* the runner is bound: this CPU stays K for the whole loop */
	for (int i = 0; i < n; i++) {
		u64 t0 = arch_clock_cycles();

		if (smp_call_function_single(w, bench_ipi_empty, NULL, true))
			return -EIO;
		bench_samples[i] = arch_clock_cycles() - t0;
	}
	res->note = "smp_call_function_single(wait) to another CPU";
	return n;
}

/* ---- irq-to-thread ---- */

struct irq_bench {
	volatile u64 t0;	/* stamp before the raise */
	int taken;		/* samples taken (by the handler) */
	int n;
	struct completion handled;
};

static irqreturn_t bench_irq_handler(int irq, void *dev_id)
{
	struct irq_bench *ib = dev_id;
	u64 t1 = arch_clock_cycles();

	if (ib->taken < ib->n)
		bench_samples[ib->taken++] = t1 - ib->t0;
	complete(&ib->handled);
	return IRQ_HANDLED;
}

int bench_irq_to_thread(int n, struct bench_result *res)
{
	static struct irq_bench ib;
	int rc;

	memset(&ib, 0, sizeof(ib));
	ib.n = n;
	init_completion(&ib.handled);
	rc = request_irq(BENCH_IRQ, bench_irq_handler, 0, "bench", &ib);
	if (rc)
		return rc;
	for (int i = 0; i < n; i++) {
		ib.t0 = arch_clock_cycles();
		arch_irq_retrigger(BENCH_IRQ);
		wait_for_completion(&ib.handled);
	}
	free_irq(BENCH_IRQ, &ib);
	res->note = PREEMPT_HARDIRQS ? "raise to the handler in its thread"
					 : "raise to the hard-irq handler";
	return ib.taken;
}

/* ---- tick ---- */

/*
 * bench_tick - n samples of the cycles one tick interrupt takes from the
 * runner.  The runner stamps t, then reads its tick count c.  A tick
 * landing between the count read of pass k-1 and the stamp of pass k
 * shows as a changed c with the gap in t[k] - t[k-1]; one landing
 * between the stamp and the count read of pass k shows as a changed c
 * with the gap in t[k+1] - t[k].  So a changed count takes the larger of
 * those two gaps.  A pass whose count moved by more than one (the vCPU
 * descheduled by the host for several periods) is not a sample.
 * Context: the bench runner, interrupts on.
 */
int bench_tick(int n, struct bench_result *res)
{
	int cpu = smp_processor_id();	/* the runner is bound */
	u64 prev_t = arch_clock_cycles(), prev_c = tick_count(cpu);
	u64 gap_before = 0;
	bool owed = false;
	int taken = 0;

	while (taken < n) {
		u64 t = arch_clock_cycles();
		u64 c = tick_count(cpu);
		u64 gap = t - prev_t;

		if (owed) {
			bench_samples[taken++] = gap > gap_before ? gap
								  : gap_before;
			owed = false;
		}
		if (c == prev_c + 1) {
			gap_before = gap;
			owed = true;
		}
		prev_t = t;
		prev_c = c;
	}
	res->note = "cycles one tick takes from the task it interrupts";
	return taken;
}
