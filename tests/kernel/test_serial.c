/*
 * tests/kernel/test_serial.c - the serial suite: the console input
 * ring's flow control, which keeps a pasted script whole.
 *
 * Scenario (what must be observable, from the bug it guards: pasted
 * input lost bytes when the 256-byte ring filled, and the first
 * unclaimed COM1 interrupt printed "nobody cared"):
 *   [1] an empty ring takes exactly its capacity, then refuses a byte
 *       (console_input_char false: the producer keeps it) -- nothing is
 *       dropped, every byte comes back in order;
 *   [2] a producer that stalls on the full ring is resumed by the
 *       reader exactly once, when a quarter of the ring is free again,
 *       and not before;
 *   [3] a stall attempt when the reader has already made room does not
 *       stall (the Dekker re-check).
 * The real producer is COM1's receive handler; nobody types during the
 * self-tests, so it is idle and this test feeds the ring itself, with
 * the resume hook swapped for a counting one and put back after.
 * Same meaning in every model.
 */
#include "kernel/ktest.h"
#include "kernel/console.h"

#define RING 4096	/* kernel/console.c INPUT_RING */

static int resumes;
static int resumed_at;	/* pops done when the hook ran */
static int pops;

static void count_resume(void)
{
	resumes++;
	resumed_at = pops + 1;	/* the hook runs inside the pop being counted */
	console_input_resumed();
}

static void drain(void)
{
	while (console_trygetc() >= 0)
		;
}

static void test_full_ring_refuses_then_resumes_at_a_quarter(struct ktest *t)
{
	void (*old)(void) = console_set_input_resume(count_resume);
	int i, c, bad = -1, n = 0;

	drain();
	resumes = 0;
	pops = 0;
	for (i = 0; i < RING + 10; i++) {			/* [1] */
		if (!console_input_char(i & 0xff))
			break;
		n++;
	}
	KTEST_EXPECT_EQ(t, n, RING);
	KTEST_EXPECT(t, console_input_full(), "ring not full after %d bytes", n);
	KTEST_EXPECT(t, console_input_stall(), "stall on a full ring refused");
	KTEST_EXPECT(t, console_input_is_stalled(), "stall flag not set");
	for (i = 0; i < n; i++) {				/* [2] */
		c = console_trygetc();
		pops++;
		if (c != (i & 0xff) && bad < 0)
			bad = i;
		if (i == RING / 4 - 2)
			KTEST_EXPECT_EQ(t, resumes, 0);
	}
	KTEST_EXPECT(t, bad < 0, "byte %d came back wrong", bad);
	KTEST_EXPECT_EQ(t, console_trygetc(), -1);
	KTEST_EXPECT_EQ(t, resumes, 1);
	KTEST_EXPECT_EQ(t, resumed_at, RING / 4);
	KTEST_EXPECT(t, !console_input_is_stalled(), "still stalled after resume");
	/* [3] room available: a stall attempt must not stick */
	KTEST_EXPECT(t, !console_input_stall(), "stalled with an empty ring");
	KTEST_EXPECT(t, !console_input_is_stalled(), "stall flag left set");
	console_set_input_resume(old);
}

KTEST_SUITE(serial, KTEST_CASE(test_full_ring_refuses_then_resumes_at_a_quarter));
