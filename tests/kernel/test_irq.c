/*
 * tests/kernel/test_irq.c - the irq suite: the raw interrupt flag really
 * stops the local tick, the entry path accounts hardirq context, the
 * per-CPU counts and the spurious counter move, a self-IPI arrives.
 *
 * Scenario: one CPU (the runner's), interrupts on at the start of each
 * test (kmain enables them before the suites run).  Software INTs on a
 * spare device vector go through the same IDT gate, trap_dispatch and
 * arch_handle_irq as a device interrupt, so they show what a handler
 * sees; the self-IPI goes through the LAPIC's ICR for real.
 */
#include "kernel/ktest.h"
#include "lib/bug.h"
#include "kernel/preempt_count.h"
#include "kernel/irq/irq_enter.h"
#include "kernel/irq/irq_stats.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/irq_vectors.h"
#include "arch/x86_64/lapic.h"
#include "kernel/irqflags.h"
#include "kernel/irq/manage.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "tests/kernel/sched_helpers.h"

#define TEST_VECTOR 0xD0	/* a device vector nothing else uses */
#define TEST_IPI_VECTOR 0xD1

/* Wait up to ms milliseconds (interrupts on) for *p to become non-zero. */
static bool wait_for_flag(volatile int *p, long ms)
{
	ktime_t end = ktime_get() + ms * NSEC_PER_MSEC;

	while (!*p && ktime_get() < end)
		arch_cpu_relax();
	return *p != 0;
}

static void require_irqs_on(struct ktest *t)
{
	if (raw_irqs_disabled())
		ktest_skip(t, "interrupts are off in the runner");
}

static void test_tick_stops_with_raw_irqs_disabled_and_resumes(struct ktest *t)
{
	int cpu;
	u64 before, after, loc_before;
	unsigned long flags;
	ktime_t end;

	require_irqs_on(t);
	raw_local_irq_save(flags);
	cpu = smp_processor_id();
	before = tick_count(cpu);
	loc_before = irq_stat_count(cpu, LOCAL_TIMER_VECTOR);
	mdelay(5);	/* 5 periods at HZ=1000 */
	after = tick_count(cpu);
	KTEST_EXPECT(t, irq_stat_count(cpu, LOCAL_TIMER_VECTOR) == loc_before,
		     "timer interrupts taken with IF clear: %llu -> %llu",
		     (unsigned long long)loc_before,
		     (unsigned long long)irq_stat_count(cpu, LOCAL_TIMER_VECTOR));
	raw_local_irq_restore(flags);
	KTEST_EXPECT(t, after == before,
		     "tick ran with raw interrupts disabled: %llu -> %llu",
		     (unsigned long long)before, (unsigned long long)after);
	/* The pending timer interrupt arrives at once; allow 100 ms. */
	end = ktime_get() + 100 * NSEC_PER_MSEC;
	while (tick_count(cpu) <= after + 2 && ktime_get() < end)
		arch_cpu_relax();
	KTEST_EXPECT(t, tick_count(cpu) > after + 2,
		     "tick did not resume: %llu ticks 100 ms after enabling, expected > %llu",
		     (unsigned long long)tick_count(cpu),
		     (unsigned long long)(after + 2));
}

static void test_raw_irq_save_restore_really_toggle_if(struct ktest *t)
{
	unsigned long flags, inner;

	require_irqs_on(t);
	raw_local_irq_save(flags);
	KTEST_EXPECT(t, !(read_rflags() & X86_EFLAGS_IF), "IF set after save");
	KTEST_EXPECT(t, !raw_irqs_disabled_flags(flags),
		     "saved flags %#lx claim interrupts were off", flags);
	raw_local_irq_save(inner);
	KTEST_EXPECT(t, raw_irqs_disabled_flags(inner),
		     "nested save flags %#lx claim interrupts were on", inner);
	raw_local_irq_restore(inner);
	KTEST_EXPECT(t, raw_irqs_disabled(), "inner restore enabled interrupts");
	raw_local_irq_restore(flags);
	KTEST_EXPECT(t, read_rflags() & X86_EFLAGS_IF, "IF clear after restore");
}

static volatile int seen_in_irq, seen_hardirq, seen_on_irq_stack, handler_ran;

static void probe_handler(struct pt_regs *regs)
{
	int dummy;

	(void)regs;
	seen_in_irq = in_irq();
	seen_hardirq = (int)hardirq_count();
	seen_on_irq_stack = irq_stack_contains((unsigned long)&dummy);
	handler_ran = 1;
}

static void test_in_irq_true_in_handler_false_outside(struct ktest *t)
{
	int cpu = pin_here();
	u64 count0;

	KTEST_ASSERT(t, !in_irq(), "in_irq() true in the test runner");
	KTEST_ASSERT(t, arch_set_irq_handler(TEST_VECTOR, probe_handler) == 0,
		     "vector %#x busy", TEST_VECTOR);
	handler_ran = 0;
	count0 = irq_stat_count(cpu, TEST_VECTOR);
	__asm__ volatile("int %0" : : "i"(TEST_VECTOR) : "memory");
	arch_set_irq_handler(TEST_VECTOR, NULL);
	KTEST_ASSERT(t, handler_ran, "handler did not run");
	KTEST_EXPECT(t, seen_in_irq, "in_irq() false inside the handler");
	KTEST_EXPECT_EQ(t, seen_hardirq, (long long)HARDIRQ_OFFSET);
	KTEST_EXPECT(t, seen_on_irq_stack, "handler not on the per-CPU IRQ stack");
	KTEST_EXPECT(t, !in_irq() && !in_interrupt(),
		     "still in interrupt after return: preempt_count %#x",
		     preempt_count());
	KTEST_EXPECT_EQ(t, irq_stat_count(cpu, TEST_VECTOR), count0 + 1);
}

static void test_irq_enter_exit_nest_counts(struct ktest *t)
{
	unsigned long flags;
	int pc0;

	BUILD_BUG_ON(PREEMPT_MASK != 0xff || SOFTIRQ_MASK != 0xff00 ||
		     HARDIRQ_MASK != 0xf0000 || NMI_MASK != 0x100000);
	raw_local_irq_save(flags);
	pc0 = preempt_count();
	irq_enter();
	irq_enter();
	KTEST_EXPECT_EQ(t, hardirq_count(), 2 * HARDIRQ_OFFSET);
	irq_exit();
	KTEST_EXPECT(t, in_irq(), "one irq_exit of two left hardirq context");
	irq_exit();
	KTEST_EXPECT_EQ(t, preempt_count(), pc0);
	nmi_enter();
	KTEST_EXPECT(t, in_nmi() && in_irq(), "nmi_enter: preempt_count %#x",
		     preempt_count());
	nmi_exit();
	KTEST_EXPECT_EQ(t, preempt_count(), pc0);
	raw_local_irq_restore(flags);
}

static void test_spurious_vector_is_counted_not_fatal(struct ktest *t)
{
	u64 before = lapic_spurious_count();

	/* The spurious handler takes no EOI, so a software INT on its
	 * vector (nothing in service) is exactly what a real one looks
	 * like to the handler. */
	__asm__ volatile("int %0" : : "i"(SPURIOUS_VECTOR) : "memory");
	KTEST_EXPECT_EQ(t, lapic_spurious_count(), before + 1);
}

static volatile int ipi_seen;

static void ipi_handler(struct pt_regs *regs)
{
	(void)regs;
	ipi_seen = 1;
	lapic_eoi();
}

static void test_self_ipi_through_icr_arrives(struct ktest *t)
{
	require_irqs_on(t);
	KTEST_ASSERT(t, arch_set_irq_handler(TEST_IPI_VECTOR, ipi_handler) == 0,
		     "vector %#x busy", TEST_IPI_VECTOR);
	ipi_seen = 0;
	lapic_send_ipi(lapic_id(), TEST_IPI_VECTOR);
	KTEST_EXPECT(t, wait_for_flag(&ipi_seen, 100),
		     "self-IPI on %#x to APIC %u not delivered in 100 ms (%s mode)",
		     TEST_IPI_VECTOR, lapic_id(),
		     lapic_x2apic_mode() ? "x2APIC" : "xAPIC");
	arch_set_irq_handler(TEST_IPI_VECTOR, NULL);
	KTEST_EXPECT_EQ(t, lapic_error_count(), 0);
}

static irqreturn_t percpu_probe_handler(int irq, void *dev_id)
{
	return IRQ_NONE;
}

/*
 * The tick is the article's SA_NODELAY example, requested like any line:
 * `irqs` finds it as a per-CPU line, SA_NODELAY, without a thread, and
 * every online CPU's count of it moves.  The line refuses request_irq
 * and a second request_percpu_irq; a device line refuses
 * request_percpu_irq.
 * Scenario: the runner's CPU reads; every online CPU ticks by itself,
 * so each count must move within 1 s (1000 periods), or, with NO_HZ
 * idle on, within 1 s plus the longest a stopped tick defers its event
 * (TICK_NOHZ_MAX_NS: an idle CPU may take none for that long).
 */
static void test_tick_is_a_percpu_sa_nodelay_line(struct ktest *t)
{
	static int probe_dev;
	struct irq_line_info info;
	u64 before[NR_CPUS];
	ktime_t end, window;
	int cpu, lagging;

	require_irqs_on(t);
	KTEST_ASSERT(t, irq_get_line_info(ARCH_TIMER_IRQ, &info),
		     "line %d (the timer) has no handler", ARCH_TIMER_IRQ);
	KTEST_EXPECT(t, info.percpu, "timer line not per-CPU");
	KTEST_EXPECT(t, (info.flags & (SA_NODELAY | SA_PERCPU)) ==
				(SA_NODELAY | SA_PERCPU),
		     "timer line flags %#lx, expected SA_NODELAY|SA_PERCPU",
		     info.flags);
	KTEST_EXPECT(t, info.thread_pid == 0, "timer line has thread pid %d",
		     info.thread_pid);
	KTEST_EXPECT(t, !strcmp(info.name, "timer"), "timer line named '%s'",
		     info.name);
	KTEST_EXPECT_EQ(t, request_irq(ARCH_TIMER_IRQ, percpu_probe_handler, 0,
				       "x", &probe_dev), -EINVAL);
	KTEST_EXPECT_EQ(t, request_percpu_irq(ARCH_TIMER_IRQ,
					      percpu_probe_handler, "x",
					      &probe_dev), -EBUSY);
	KTEST_EXPECT_EQ(t, request_percpu_irq(ARCH_NR_ISA_IRQS + 3,
					      percpu_probe_handler, "x",
					      &probe_dev), -EINVAL);
	for_each_online_cpu(cpu)
		before[cpu] = kstat_irqs_cpu(ARCH_TIMER_IRQ, cpu);
	window = NSEC_PER_SEC + (tick_nohz_enabled() ? TICK_NOHZ_MAX_NS : 0);
	end = ktime_get() + window;
	do {
		lagging = -1;
		for_each_online_cpu(cpu)
			if (kstat_irqs_cpu(ARCH_TIMER_IRQ, cpu) == before[cpu])
				lagging = cpu;
		arch_cpu_relax();
	} while (lagging >= 0 && ktime_get() < end);
	KTEST_EXPECT(t, lagging < 0,
		     "CPU %d took no timer-line interrupt in %lld ms (count %llu)",
		     lagging, (long long)(window / NSEC_PER_MSEC),
		     lagging < 0 ? 0ULL : (unsigned long long)
				kstat_irqs_cpu(ARCH_TIMER_IRQ, lagging));
}

KTEST_SUITE(irq,
	    KTEST_CASE(test_tick_stops_with_raw_irqs_disabled_and_resumes),
	    KTEST_CASE(test_raw_irq_save_restore_really_toggle_if),
	    KTEST_CASE(test_in_irq_true_in_handler_false_outside),
	    KTEST_CASE(test_irq_enter_exit_nest_counts),
	    KTEST_CASE(test_spurious_vector_is_counted_not_fatal),
	    KTEST_CASE(test_self_ipi_through_icr_arrives),
	    KTEST_CASE(test_tick_is_a_percpu_sa_nodelay_line));
