/*
 * tests/kernel/test_irq_enable.c - the irq_enable suite: disable_irq /
 * enable_irq on a level-triggered line (issue 12, bug 6; the diagram is
 * at enable_irq() in kernel/irq/manage.c).  The "device" is
 * ARCH_TEST_LEVEL_IRQ (arch/x86_64/irq_chip.h): a software line that
 * behaves as a level input with a mask, asserted by the test and
 * deasserted by the handler (it "services the device").
 *
 * test_level_line_disabled_while_thread_runs (threaded lines: rt).
 * Scenario (one CPU is enough; runs on all):
 *   H   the line's thread irq/31-irqt-level (SCHED_FIFO 50): the first
 *       run of the handler signals "entered" and sleeps until "go".
 *   T   the test task: asserts the line (the hard-irq part masks it and
 *       wakes H), waits for "entered", disable_irq_nosync(), "go",
 *       synchronize_irq() (H has ended its run), asserts the line again,
 *       enable_irq().
 * Observable: after H's run the line stays masked (it is disabled);
 * enable_irq() unmasks it: the interrupt asserted while disabled is
 * delivered and the handler runs a second time; once that run has ended
 * the line is unmasked.  Before the fix enable_irq() left the line
 * masked for good (IRQS_MASKED still set by the thread's run).
 *
 * test_level_line_masked_until_its_thread_runs (threaded lines: rt).
 * Scenario: H and T as above; T asserts the line and waits for
 * "entered" (H's run has started, the device still asserts the line).
 * Observable, in H's run and in T meanwhile: the line is masked at the
 * chip and IRQS_MASKED is set: redirect_hardirq (article, "Interrupt
 * Handlers") masked it before it woke H, since a level line interrupts
 * again until the thread has serviced the device (the article leaves
 * this out; Linux: handle_level_irq masks, irq_finalize_oneshot
 * unmasks).  After "go" and synchronize_irq() the handler ran once
 * and the line is unmasked.  This software line does not fire again at
 * EOI, so a redirect that leaves it unmasked shows only in the mask.
 *
 * test_level_line_disable_enable_delivers (every model): disable_irq(),
 * assert, the line stays quiet; enable_irq() delivers the interrupt.
 */
#include "kernel/ktest.h"
#include "kernel/irq/irqdesc.h"
#include "kernel/irq/irq_model.h"
#include "kernel/irq/manage.h"
#include "kernel/sched/completion.h"
#include "kernel/time/ktime.h"
#include "arch/x86_64/arch.h"

#define LEVEL_IRQ ARCH_TEST_LEVEL_IRQ
#define RUN_WAIT_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */

static int level_dev;	/* dev_id */

static struct {
	struct completion entered;	/* the held run started */
	struct completion go;		/* the held run may end */
	struct completion ran;		/* a run ended */
	bool hold_first;		/* the first threaded run waits for go */
	bool masked_in_run;		/* the line masked in that held run */
	unsigned int runs;
} lv;

static irqreturn_t level_handler(int irq, void *dev_id)
{
	(void)dev_id;
	if (++lv.runs == 1 && lv.hold_first && !in_irq()) {
		lv.masked_in_run = arch_irq_is_masked((unsigned int)irq);
		complete(&lv.entered);
		wait_for_completion(&lv.go);
	}
	arch_irq_test_level_set((unsigned int)irq, false);
	complete(&lv.ran);
	return IRQ_HANDLED;
}

static void lv_reset(bool hold_first)
{
	init_completion(&lv.entered);
	init_completion(&lv.go);
	init_completion(&lv.ran);
	lv.hold_first = hold_first;
	lv.masked_in_run = false;
	lv.runs = 0;
	arch_irq_test_level_set(LEVEL_IRQ, false);
}

static bool lv_ran(void)
{
	return wait_for_completion_timeout(&lv.ran, RUN_WAIT_NS) > 0;
}

/* lv_start_held_run - the threaded tests' first steps: request the line
 * (threaded under this model, or skip), assert it and wait until H's
 * first run has started and holds for "go".  Context: the test task. */
static void lv_start_held_run(struct ktest *t)
{
	struct irq_desc *desc = irq_to_desc(LEVEL_IRQ);

	if (!IRQ_FORCED_THREADING)
		ktest_skip(t, "no irq threads under this model: a level "
			      "handler runs in hard-irq context");
	lv_reset(true);
	KTEST_ASSERT_EQ(t, request_irq(LEVEL_IRQ, level_handler, 0,
				       "irqt-level", &level_dev), 0);
	KTEST_EXPECT(t, irq_is_threaded(LEVEL_IRQ) && desc->level,
		     "a threaded level line");
	arch_irq_test_level_set(LEVEL_IRQ, true);
	if (wait_for_completion_timeout(&lv.entered, RUN_WAIT_NS) == 0) {
		free_irq(LEVEL_IRQ, &level_dev);
		KTEST_ASSERT(t, 0, "the handler did not run within %lld s",
			     RUN_WAIT_NS / NSEC_PER_SEC);
	}
}

static void test_level_line_disabled_while_thread_runs(struct ktest *t)
{
	struct irq_desc *desc = irq_to_desc(LEVEL_IRQ);
	bool masked_after_run, delivered;

	lv_start_held_run(t);
	disable_irq_nosync(LEVEL_IRQ);
	complete(&lv.go);
	synchronize_irq(LEVEL_IRQ);
	masked_after_run = arch_irq_is_masked(LEVEL_IRQ);
	lv_ran();		/* the first run's completion */
	arch_irq_test_level_set(LEVEL_IRQ, true);
	KTEST_EXPECT_EQ(t, lv.runs, 1);
	enable_irq(LEVEL_IRQ);
	delivered = lv_ran();
	synchronize_irq(LEVEL_IRQ);

	KTEST_EXPECT(t, masked_after_run, "the line stays masked after the "
		     "thread's run: it was disabled meanwhile");
	KTEST_EXPECT(t, delivered && lv.runs == 2,
		     "enable_irq unmasks the line: the interrupt asserted "
		     "while it was disabled runs the handler again; saw %u "
		     "runs, line %s at the chip, desc status %#x depth %u",
		     lv.runs, arch_irq_is_masked(LEVEL_IRQ) ? "masked" :
							      "unmasked",
		     desc->status, desc->depth);
	KTEST_EXPECT(t, !arch_irq_is_masked(LEVEL_IRQ) &&
			!(desc->status & IRQS_MASKED),
		     "the line unmasked after the second run (status %#x)",
		     desc->status);
	free_irq(LEVEL_IRQ, &level_dev);
	arch_irq_test_level_set(LEVEL_IRQ, false);
}

static void test_level_line_masked_until_its_thread_runs(struct ktest *t)
{
	struct irq_desc *desc = irq_to_desc(LEVEL_IRQ);
	bool chip_masked, desc_masked;

	lv_start_held_run(t);
	/* H is held inside its run: the device still asserts the line */
	chip_masked = arch_irq_is_masked(LEVEL_IRQ);
	desc_masked = READ_ONCE(desc->status) & IRQS_MASKED;
	complete(&lv.go);
	synchronize_irq(LEVEL_IRQ);
	lv_ran();

	KTEST_EXPECT(t, lv.masked_in_run && chip_masked && desc_masked,
		     "a threaded level line is masked from its hard-irq part "
		     "until the thread has run: expected masked, saw %s in "
		     "the thread's run, %s at the chip and IRQS_MASKED %s "
		     "while it ran", lv.masked_in_run ? "masked" : "unmasked",
		     chip_masked ? "masked" : "unmasked",
		     desc_masked ? "set" : "clear");
	KTEST_EXPECT_EQ(t, lv.runs, 1);
	KTEST_EXPECT(t, !arch_irq_is_masked(LEVEL_IRQ) &&
			!(desc->status & IRQS_MASKED),
		     "the line unmasked once the thread's run ended "
		     "(status %#x)", desc->status);
	free_irq(LEVEL_IRQ, &level_dev);
	arch_irq_test_level_set(LEVEL_IRQ, false);
}

static void test_level_line_disable_enable_delivers(struct ktest *t)
{
	struct irq_desc *desc = irq_to_desc(LEVEL_IRQ);
	bool delivered;

	lv_reset(false);
	KTEST_ASSERT_EQ(t, request_irq(LEVEL_IRQ, level_handler, 0,
				       "irqt-level", &level_dev), 0);
	disable_irq(LEVEL_IRQ);
	arch_irq_test_level_set(LEVEL_IRQ, true);
	KTEST_EXPECT(t, arch_irq_is_masked(LEVEL_IRQ) && lv.runs == 0,
		     "a disabled line is masked and quiet; saw %u runs",
		     lv.runs);
	enable_irq(LEVEL_IRQ);
	delivered = lv_ran();
	synchronize_irq(LEVEL_IRQ);
	KTEST_EXPECT(t, delivered && lv.runs == 1,
		     "enable_irq delivers the held interrupt once; saw %u "
		     "runs, status %#x", lv.runs, desc->status);
	KTEST_EXPECT(t, !arch_irq_is_masked(LEVEL_IRQ),
		     "the line unmasked at the end");
	free_irq(LEVEL_IRQ, &level_dev);
	arch_irq_test_level_set(LEVEL_IRQ, false);
}

KTEST_SUITE(irq_enable,
	    KTEST_CASE(test_level_line_disabled_while_thread_runs),
	    KTEST_CASE(test_level_line_masked_until_its_thread_runs),
	    KTEST_CASE(test_level_line_disable_enable_delivers));
