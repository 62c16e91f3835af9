/*
 * tests/kernel/test_lpptest.c - LPPTEST's answer path without the host
 * (drivers/lpptest.c): a stimulus byte injected through COM2's loopback
 * mode raises the receive interrupt, and the handler answers it with
 * the byte's bit 7 set, in the context the mode asks for.  Needs COM2
 * (the harness gives QEMU a second -serial); skips without it.
 * tools/lpptest.py is the real measurement, from outside the machine.
 */
#include "kernel/ktest.h"
#include "drivers/lpptest.h"
#include "kernel/irq/manage.h"
#include "kernel/sched/preempt_model.h"
#include "tests/kernel/sched_helpers.h"

/* ping - inject c, wait (hang net only) until the handler answered;
 * false if it did not. */
static bool ping(struct ktest *t, u8 c, struct lpptest_stats *after)
{
	struct lpptest_stats before;
	ktime_t net = ktime_get() + SAFETY_NS;
	int err;

	lpptest_read_stats(&before);
	err = lpptest_loopback_inject(c);
	KTEST_EXPECT(t, err == 0, "loopback inject of %#x: %d", c, err);
	if (err)
		return false;
	do {
		lpptest_read_stats(after);
		if (after->answered > before.answered)
			return true;
		arch_cpu_relax();
	} while (ktime_get() < net);
	KTEST_EXPECT(t, false, "no answer to %#x (stimuli %lu -> %lu)", c,
		     before.stimuli, after->stimuli);
	return false;
}

/*
 * Scenario (one CPU's worth, any SMP): the test task injects 'A', then
 * 'z', in each mode.  Expected: each is answered once with bit 7 set;
 * the answer runs in hard-irq context with mode hardirq (SA_NODELAY)
 * under every model, and with mode thread in the irq thread under rt
 * (PREEMPT_HARDIRQS) but still in hard-irq context elsewhere.
 */
static void test_lpptest_answers_injected_stimulus(struct ktest *t)
{
	static const enum lpptest_mode modes[2] = { LPPTEST_HARDIRQ,
						    LPPTEST_THREAD };
	enum lpptest_mode boot_mode = lpptest_get_mode();
	struct lpptest_stats st;

	if (!lpptest_present()) {
		ktest_skip(t, "no COM2: boot QEMU with a second -serial");
		return;
	}
	for (int m = 0; m < 2; m++) {
		bool want_hard = modes[m] == LPPTEST_HARDIRQ ||
				 !PREEMPT_HARDIRQS;

		KTEST_ASSERT_EQ(t, lpptest_set_mode(modes[m]), 0);
		KTEST_EXPECT_EQ(t, irq_is_threaded(COM2_IRQ), !want_hard);
		if (!ping(t, 'A', &st))
			break;
		KTEST_EXPECT_EQ(t, st.last_answer, 'A' | LPPTEST_ANSWER_BIT);
		KTEST_EXPECT(t, st.last_in_hardirq == want_hard,
			     "mode %s: answer in hard irq expected %d, saw %d",
			     lpptest_mode_name(modes[m]), want_hard,
			     st.last_in_hardirq);
		if (!ping(t, 'z', &st))
			break;
		KTEST_EXPECT_EQ(t, st.last_answer, 'z' | LPPTEST_ANSWER_BIT);
	}
	KTEST_EXPECT_EQ(t, lpptest_set_mode(boot_mode), 0);
}

KTEST_SUITE(lpptest, KTEST_CASE(test_lpptest_answers_injected_stimulus));
