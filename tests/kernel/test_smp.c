/*
 * tests/kernel/test_smp.c - the smp suite: AP bring-up, per-CPU data,
 * cross-CPU calls and reschedule IPIs.
 *
 * Scenario: the test runner's thread on the boot CPU (CPU 0); every
 * other online CPU sits in its idle loop with interrupts on.  The
 * functions sent to the other CPUs run there in hard-interrupt context:
 * they only record what they saw (CPU number, GS base, interrupt state)
 * into per-target slots, and the runner checks the records afterwards -
 * a KTEST_* in a remote handler would longjmp on the wrong CPU.
 * Asynchronous calls are awaited by polling a flag the handler sets,
 * bounded by WAIT_NS of ktime, never by a guessed sleep.
 * On one CPU (-smp 1, nosmp, maxcpus=1) the tests that need a second
 * CPU skip with the reason; the others still run on the boot CPU.
 * Linux counterpart: none in tree (kernel/smp.c has no KUnit suite);
 * the checks follow what smp_call_function_single() documents.
 */
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/preempt_count.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/lapic.h"
#include "lib/errno.h"
#include "kernel/irqflags.h"
#include "tests/kernel/sched_helpers.h"

/* Bound for waiting on another CPU: an IPI under TCG with 8 CPUs on a
 * loaded host takes well under 10 ms; 2 s is "it never came". */
#define WAIT_NS (2 * NSEC_PER_SEC)

static DEFINE_PER_CPU(unsigned long, test_cookie);

/* What one call saw on the CPU it ran on. */
struct call_record {
	int ran_on;	       /* smp_processor_id() there, -1: not run */
	bool irqs_off;	       /* raw_irqs_disabled() there */
	bool in_hardirq;       /* in_irq() there */
	unsigned long gs_base; /* MSR_GS_BASE there */
	void *self_ptr;	       /* this_cpu_ptr(&test_cookie) there */
	bool done;	       /* set last, with release */
};

static struct call_record records[NR_CPUS];
static int call_counter;
static u64 hit_mask;

static int expected_online_cpus(void)
{
	int enabled = 0;

	for (int i = 0; i < acpi.madt.n_cpus; i++)
		enabled += acpi.madt.cpus[i].enabled;
	if (enabled < 1)
		enabled = 1; /* MADT fallback: the boot CPU alone */
	return min(enabled, smp_cpus_limit());
}

static void reset_records(void)
{
	for (int i = 0; i < NR_CPUS; i++)
		records[i] = (struct call_record){.ran_on = -1};
	__atomic_store_n(&call_counter, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&hit_mask, 0, __ATOMIC_SEQ_CST);
}

/* record_call - the function sent around: fill the running CPU's
 * record.  Context: hardirq on the target (or interrupts off here). */
static void record_call(void *info)
{
	int cpu = smp_processor_id();
	struct call_record *r = &records[cpu];

	r->ran_on = cpu;
	r->irqs_off = raw_irqs_disabled();
	r->in_hardirq = in_irq();
	r->gs_base = arch_percpu_get_base();
	r->self_ptr = this_cpu_ptr(&test_cookie);
	this_cpu_write(test_cookie, 0xC0DE0000UL + cpu);
	__atomic_fetch_add(&call_counter, 1, __ATOMIC_RELAXED);
	__atomic_fetch_or(&hit_mask, 1ULL << cpu, __ATOMIC_RELAXED);
	__atomic_store_n(&r->done, true, __ATOMIC_RELEASE);
}

static void need_two_cpus(struct ktest *t)
{
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs a second online CPU");
}

/* wait_for_count - poll *counter until it reaches want or WAIT_NS pass;
 * returns the last value seen. */
static int wait_for_count(int *counter, int want)
{
	ktime_t deadline = ktime_get() + WAIT_NS;
	int seen;

	while ((seen = __atomic_load_n(counter, __ATOMIC_ACQUIRE)) < want &&
	       ktime_get() < deadline)
		cpu_relax();
	return seen;
}

static void
test_every_enabled_madt_cpu_is_online_unless_limited(struct ktest *t)
{
	int want = expected_online_cpus();

	KTEST_EXPECT_EQ(t, num_online_cpus(), want);
	KTEST_EXPECT(t, cpu_online(0), "the boot CPU is not online");
	for (int cpu = 0; cpu < want; cpu++) {
		bool in_madt = false;

		KTEST_EXPECT(t, cpu_online(cpu),
			     "CPU %d (of %d expected) is "
			     "offline",
			     cpu, want);
		if (!acpi.have_madt)
			continue;
		for (int i = 0; i < acpi.madt.n_cpus; i++)
			in_madt |= acpi.madt.cpus[i].enabled &&
				   acpi.madt.cpus[i].apic_id ==
					   smp_cpu_apic_id(cpu);
		KTEST_EXPECT(t, in_madt,
			     "CPU %d has APIC ID %u, not an "
			     "enabled MADT entry",
			     cpu, smp_cpu_apic_id(cpu));
	}
	/* lapic_id() is this CPU's: on CPU 0 itself (the runner may have
	 * been balanced to another CPU; the runner unpins after the case) */
	set_cpus_allowed(current, one_cpu(0));
	KTEST_EXPECT_EQ(t, smp_cpu_apic_id(0), lapic_id());
}

static void test_per_cpu_variables_are_distinct_per_cpu(struct ktest *t)
{
	int cpu, n = 0;

	reset_records();
	on_each_cpu(record_call, NULL, true);
	for_each_online_cpu (cpu) {
		struct call_record *r = &records[cpu];

		n++;
		KTEST_ASSERT(t, r->ran_on == cpu, "CPU %d: call ran on %d", cpu,
			     r->ran_on);
		KTEST_EXPECT(t, per_cpu(test_cookie, cpu) == 0xC0DE0000UL + cpu,
			     "CPU %d: per_cpu() reads %#lx, the CPU wrote %#lx",
			     cpu, per_cpu(test_cookie, cpu),
			     0xC0DE0000UL + cpu);
		KTEST_EXPECT(t, r->self_ptr == per_cpu_ptr(&test_cookie, cpu),
			     "CPU %d: this_cpu_ptr %p, per_cpu_ptr %p", cpu,
			     r->self_ptr, per_cpu_ptr(&test_cookie, cpu));
		KTEST_EXPECT(t,
			     r->gs_base == __per_cpu_offset[cpu] &&
				     r->gs_base != 0,
			     "CPU %d: GS base %#lx, its offset %#lx", cpu,
			     r->gs_base, __per_cpu_offset[cpu]);
		for (int other = 0; other < cpu; other++)
			KTEST_EXPECT(t,
				     __per_cpu_offset[other] !=
					     __per_cpu_offset[cpu],
				     "CPUs %d and %d share a per-CPU copy",
				     other, cpu);
	}
	KTEST_EXPECT_EQ(t, n, num_online_cpus());
}

static void test_ipi_round_trip_runs_on_each_target(struct ktest *t)
{
	int self = pin_here();
	int cpu, err;

	need_two_cpus(t);
	reset_records();
	for_each_online_cpu (cpu) {
		struct call_record *r = &records[cpu];

		if (cpu == self)
			continue;
		err = smp_call_function_single(cpu, record_call, NULL, true);
		KTEST_ASSERT_EQ(t, err, 0);
		/* wait=true: the record must be complete on return */
		KTEST_EXPECT(t, __atomic_load_n(&r->done, __ATOMIC_ACQUIRE),
			     "CPU %d: returned before the call ran", cpu);
		KTEST_EXPECT_EQ(t, r->ran_on, cpu);
		KTEST_EXPECT(t, r->irqs_off && r->in_hardirq,
			     "CPU %d: ran with irqs_off=%d in_irq=%d, expected "
			     "both (IPI handler)",
			     cpu, r->irqs_off, r->in_hardirq);
	}
	KTEST_EXPECT_EQ(t, __atomic_load_n(&call_counter, __ATOMIC_ACQUIRE),
			num_online_cpus() - 1);
}

static void test_call_function_on_all_with_wait(struct ktest *t)
{
	u64 others = cpu_online_mask.bits & ~(1ULL << pin_here());

	need_two_cpus(t);
	reset_records();
	smp_call_function(record_call, NULL, true);
	KTEST_EXPECT_EQ(t, __atomic_load_n(&call_counter, __ATOMIC_ACQUIRE),
			num_online_cpus() - 1);
	KTEST_EXPECT(t, hit_mask == others,
		     "ran on mask %#llx, expected "
		     "%#llx (every other online CPU once)",
		     (unsigned long long)hit_mask, (unsigned long long)others);
}

static void test_call_function_on_all_without_wait(struct ktest *t)
{
	int want = num_online_cpus() - 1;
	int seen;

	need_two_cpus(t);
	reset_records();
	smp_call_function(record_call, NULL, false);
	seen = wait_for_count(&call_counter, want);
	KTEST_EXPECT(t, seen == want,
		     "%d of %d CPUs ran the call within "
		     "%lld ms",
		     seen, want, WAIT_NS / NSEC_PER_MSEC);
	/* Twice more back to back: the caller's slots must be reusable. */
	for (int round = 2; round <= 3; round++) {
		smp_call_function(record_call, NULL, false);
		seen = wait_for_count(&call_counter, round * want);
		KTEST_EXPECT(t, seen == round * want,
			     "round %d: %d of %d "
			     "calls ran",
			     round, seen, round * want);
	}
}

static void test_on_each_cpu_runs_here_too(struct ktest *t)
{
	int self = pin_here();

	reset_records();
	on_each_cpu(record_call, NULL, true);
	KTEST_EXPECT_EQ(t, call_counter, num_online_cpus());
	KTEST_EXPECT(t, records[self].ran_on == self && records[self].irqs_off,
		     "local call: ran_on=%d irqs_off=%d", records[self].ran_on,
		     records[self].irqs_off);
}

static void test_call_to_offline_cpu_is_refused(struct ktest *t)
{
	int offline = -1;

	KTEST_EXPECT_EQ(t,
			smp_call_function_single(-1, record_call, NULL, true),
			-ENXIO);
	KTEST_EXPECT_EQ(
		t, smp_call_function_single(NR_CPUS, record_call, NULL, true),
		-ENXIO);
	for (int cpu = NR_CPUS - 1; cpu >= 0; cpu--) {
		if (!cpu_online(cpu)) {
			offline = cpu;
			break;
		}
	}
	if (offline < 0)
		ktest_skip(t, "all 64 CPUs are online");
	reset_records();
	KTEST_EXPECT_EQ(
		t, smp_call_function_single(offline, record_call, NULL, true),
		-ENXIO);
	KTEST_EXPECT_EQ(t, call_counter, 0);
}

static void test_reschedule_ipi_counts_rise_on_target(struct ktest *t)
{
	int self = pin_here();
	ktime_t deadline;
	int cpu;

	need_two_cpus(t);
	for_each_online_cpu (cpu) {
		u64 before, now;

		if (cpu == self)
			continue;
		before = per_cpu(ipi_received[IPI_RESCHEDULE], cpu);
		smp_send_reschedule(cpu);
		deadline = ktime_get() + WAIT_NS;
		while ((now = READ_ONCE(per_cpu(ipi_received[IPI_RESCHEDULE],
						cpu))) == before &&
		       ktime_get() < deadline)
			cpu_relax();
		KTEST_EXPECT(t, now == before + 1,
			     "CPU %d: reschedule count "
			     "%llu -> %llu, expected +1",
			     cpu, (unsigned long long)before,
			     (unsigned long long)now);
	}
}

static void test_reschedule_allbutself_reaches_every_other_cpu(struct ktest *t)
{
	u64 before[NR_CPUS];
	int self = pin_here();
	int cpu, missing;
	ktime_t deadline;

	need_two_cpus(t);
	for_each_online_cpu (cpu)
		before[cpu] = per_cpu(ipi_received[IPI_RESCHEDULE], cpu);
	smp_send_reschedule_allbutself();
	deadline = ktime_get() + WAIT_NS;
	do {
		missing = 0;
		for_each_online_cpu (cpu)
			missing +=
				cpu != self &&
				READ_ONCE(per_cpu(ipi_received[IPI_RESCHEDULE],
						  cpu)) == before[cpu];
	} while (missing && ktime_get() < deadline);
	KTEST_EXPECT(t, missing == 0, "%d CPUs saw no reschedule IPI", missing);
	KTEST_EXPECT(
		t, per_cpu(ipi_received[IPI_RESCHEDULE], self) == before[self],
		"the sender got its own allbutself IPI");
}

KTEST_SUITE(smp,
	    KTEST_CASE(test_every_enabled_madt_cpu_is_online_unless_limited),
	    KTEST_CASE(test_per_cpu_variables_are_distinct_per_cpu),
	    KTEST_CASE(test_ipi_round_trip_runs_on_each_target),
	    KTEST_CASE(test_call_function_on_all_with_wait),
	    KTEST_CASE(test_call_function_on_all_without_wait),
	    KTEST_CASE(test_on_each_cpu_runs_here_too),
	    KTEST_CASE(test_call_to_offline_cpu_is_refused),
	    KTEST_CASE(test_reschedule_ipi_counts_rise_on_target),
	    KTEST_CASE(test_reschedule_allbutself_reaches_every_other_cpu));
