/*
 * tests/kernel/test_latency_trace.c - LATENCY_TRACE keeps the trace of
 * the worst section, and the threshold drops shorter ones (issue 6
 * item 9: "the tracer's worst trace contains the function that caused
 * it").  Skips when not built (`make LATENCY_TRACE=1`).
 *
 * Scenario: init, preemption off, calls ltr_test_culprit(), which busy-
 * waits SECTION_US; the worst trace is then a preempt-off section on
 * this CPU of at least SECTION_US whose calls include ltr_test_culprit
 * called from the test.  Another CPU may close a longer section in the
 * meantime (the trace is global), so the test retries a few times.
 */
#include "kernel/ktest.h"
#include "kernel/debug/latency_timing.h"
#include "kernel/debug/latency_trace.h"
#include "kernel/ksyms.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/string.h"

#define SECTION_US 3000
#define TRIES 3

/* the distinctively named function the trace must show */
static noinline void ltr_test_culprit(void)
{
	udelay(SECTION_US);
	barrier();
}

/* find - index of the first entry calling fn, or -1. */
static int find(const struct ltr_entry *buf, u32 n, const char *fn)
{
	unsigned long off, size;

	for (u32 i = 0; i < n; i++) {
		const char *name = ksym_lookup(buf[i].ip, &off, &size);

		if (name && !strcmp(name, fn))
			return (int)i;
	}
	return -1;
}

static noinline bool one_section(struct ktest *t, struct ltr_info *in,
			struct ltr_entry *buf, int *cpu)
{
	latency_timing_reset();
	preempt_disable();
	*cpu = smp_processor_id();
	ltr_test_culprit();
	preempt_enable();
	if (!latency_trace_read(in, buf, LTR_ENTRIES))
		return false;
	return in->cpu == *cpu && in->kind == LATENCY_PREEMPT_OFF &&
	       find(buf, in->nr, "ltr_test_culprit") >= 0;
}

static void test_worst_trace_contains_the_culprit(struct ktest *t)
{
	struct ltr_entry *buf;
	struct ltr_info in;
	unsigned long off, size;
	const char *parent;
	int cpu = -1, i, try;
	bool ok = false;

	if (!latency_trace_built())
		ktest_skip(t, "LATENCY_TRACE not built");
	buf = kmalloc(LTR_ENTRIES * sizeof(*buf), GFP_KERNEL);
	KTEST_ASSERT(t, buf != NULL, "no memory for the trace copy");
	latency_trace_set_thresh_us(0);
	for (try = 0; try < TRIES && !ok; try++)
		ok = one_section(t, &in, buf, &cpu);
	KTEST_EXPECT(t, ok, "after %d tries the worst trace is not ours: "
		     "expected preempt-off on CPU %d with ltr_test_culprit, "
		     "saw %s on CPU %d, %u calls, %llu ns", TRIES, cpu,
		     in.ns ? latency_kind_name(in.kind) : "none", in.cpu, in.nr,
		     (unsigned long long)in.ns);
	if (ok) {
		KTEST_EXPECT(t, in.ns >= SECTION_US * NSEC_PER_USEC,
			     "expected >= %d us, saw %llu ns", SECTION_US,
			     (unsigned long long)in.ns);
		i = find(buf, in.nr, "ltr_test_culprit");
		parent = ksym_lookup(buf[i].parent, &off, &size);
		/* gcc may name a clone one_section.constprop.0 */
		KTEST_EXPECT(t, parent && !strncmp(parent, "one_section", 11),
			     "culprit's parent: expected one_section, saw %s",
			     parent ? parent : "?");
		KTEST_EXPECT(t, buf[i].preempt_count & PREEMPT_MASK,
			     "culprit called with preempt_count %#x",
			     buf[i].preempt_count);
		KTEST_EXPECT(t, find(buf, in.nr, "udelay") > i,
			     "udelay (called by the culprit) not after it");
	}
	kfree(buf);
}

/* A section shorter than the threshold is not kept. */
static void test_threshold_drops_shorter_sections(struct ktest *t)
{
	struct ltr_info in;

	if (!latency_trace_built())
		ktest_skip(t, "LATENCY_TRACE not built");
	latency_trace_set_thresh_us(1000000);		/* 1 s */
	KTEST_EXPECT_EQ(t, latency_trace_thresh_us(), 1000000);
	preempt_disable();
	ltr_test_culprit();
	preempt_enable();
	KTEST_EXPECT(t, !latency_trace_read(&in, NULL, 0),
		     "a %d us section was kept over a 1 s threshold "
		     "(saw %llu ns on CPU %d)", SECTION_US,
		     (unsigned long long)in.ns, in.cpu);
	latency_trace_set_thresh_us(0);
}

KTEST_SUITE(latency_trace,
	    KTEST_CASE(test_worst_trace_contains_the_culprit),
	    KTEST_CASE(test_threshold_drops_shorter_sections));
