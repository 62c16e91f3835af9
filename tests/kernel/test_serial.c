/*
 * tests/kernel/test_serial.c - the serial suite: the console input
 * ring's flow control, which keeps a pasted script whole, and the 16550
 * receive path end to end through the chip's own loopback.
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
 *       stall (the Dekker re-check);
 *   [4] bytes the UART sends itself in MCR loopback arrive through the
 *       real receive interrupt (the line's count moves) in order, both
 *       at the FIFO trigger level and through the character timeout;
 *   [5] with 4 bytes of room left, 16 loopback bytes fill the ring and
 *       stall the handler: IER's receive bit off, 12 bytes left in the
 *       FIFO (LSR.DR); the reader's 1024th pop resumes it and the 12
 *       arrive after the rest, in order, none dropped, none overrun.
 * Cases [1]-[3] feed the ring themselves with the resume hook swapped
 * for a counting one; [4]-[5] use the real handler and hook.  The
 * loopback windows (drivers/uart16550.c) hold the console lock and
 * start only with the transmitter empty, so no console byte is looped
 * away; each case ends with IER and MCR as they were and the ring and
 * FIFO empty, so the shell never sees a test byte.  A UART whose MSR
 * does not mirror MCR in loopback, or that loops no data back (a model
 * without loopback), skips [4]-[5].  Nobody may type during the suite:
 * a typed byte would land among the loopback ones.
 * Same meaning in every model (the handler is the irq thread under rt).
 */
#include "kernel/ktest.h"
#include "kernel/console.h"
#include "kernel/irq/manage.h"
#include "kernel/sched/wait.h"
#include "kernel/time/ktime.h"
#include "drivers/uart16550.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

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


/* ---- the UART's own loopback ---------------------------------------- */

#define WAIT_MS 5000	/* generous: the irq thread may wait behind TCG */
#define ROOM 4		/* [5]: ring room left before the loopback bytes */

static u8 got[RING + UART_FIFO_SIZE];	/* what the reader popped */
static char skip_why[96];
static char diag[128];	/* line_state() for a failure message */

/* com1_irqs - interrupts taken on COM1's line so far.  Context: task. */
static u64 com1_irqs(void)
{
	struct irq_line_info info;

	return irq_get_line_info(COM1_IRQ, &info) ? info.count : 0;
}

/* line_state - the receive path as a failure diagnostic sees it: the
 * chip's registers, the stall flag and the line's counters since
 * irqs0.  Returns buf.  Context: task, sleeps. */
static const char *line_state(char *buf, size_t size, u64 irqs0)
{
	struct irq_line_info info;
	struct uart_regs r;

	uart_read_regs(&r);
	irq_get_line_info(COM1_IRQ, &info);
	snprintf(buf, size,
		 "IER %02x IIR %02x LSR %02x, stalled %d full %d, irq4 +%llu (unhandled %llu, depth %u)",
		 r.ier, r.iir, r.lsr, console_input_is_stalled(),
		 console_input_full(), (unsigned long long)(info.count - irqs0),
		 (unsigned long long)info.unhandled, info.depth);
	return buf;
}

/*
 * collect - pop n bytes into buf as the receive interrupt queues them,
 * waiting at most WAIT_MS in all; returns how many came.  Sleeps 1 ms
 * only while the ring is empty: the handler's thread may need this CPU.
 * Context: task, sleeps.
 */
static int collect(u8 *buf, int n)
{
	ktime_t end = ktime_get() + WAIT_MS * NSEC_PER_MSEC;
	int done = 0, c;

	while (done < n) {
		c = console_trygetc();
		if (c >= 0) {
			buf[done++] = (u8)c;
			continue;
		}
		if (ktime_get() > end)
			break;
		msleep(1);
	}
	return done;
}

/* pop_into - one byte from the ring into *p; false if it is empty. */
static bool pop_into(u8 *p)
{
	int c = console_trygetc();

	if (c < 0)
		return false;
	*p = (u8)c;
	return true;
}

/* first_mismatch - index of the first byte of buf[0..n) not equal to
 * want[0..n), or -1. */
static int first_mismatch(const u8 *buf, const u8 *want, int n)
{
	for (int i = 0; i < n; i++)
		if (buf[i] != want[i])
			return i;
	return -1;
}

/*
 * echo_probe - one byte through the loopback with the line disabled, so
 * no handler can take it: -1 if the receiver stays empty (the model
 * loops no data), else the byte read.  disable_irq waits for a running
 * handler; the edge the byte raised is replayed by enable_irq and finds
 * the FIFO empty (IRQ_NONE, one of the many the detector lets pass).
 * Context: task, sleeps.
 */
static int echo_probe(u8 byte)
{
	ktime_t end;
	int c = -1;

	disable_irq(COM1_IRQ);
	if (uart_loopback_xmit(&byte, 1) == 0) {
		end = ktime_get() + 100 * NSEC_PER_MSEC; /* >1000 char times */
		while ((c = uart_getc()) < 0 && ktime_get() < end)
			arch_cpu_relax();
	}
	enable_irq(COM1_IRQ);
	return c;
}

/*
 * require_loopback - skip unless COM1 is interrupt driven and honours
 * loopback (MSR mirror, then a byte echoed); *saved gets IER/MCR/LSR.
 * Context: task, sleeps.
 */
static void require_loopback(struct ktest *t, struct uart_regs *saved)
{
	struct irq_line_info info;
	u8 msr;
	int err, c;

	if (!uart_present())
		ktest_skip(t, "no UART at COM1");
	if (!irq_get_line_info(COM1_IRQ, &info) || strcmp(info.name, "ttyS0"))
		ktest_skip(t, "COM1 input is polled: no receive interrupt");
	drain();
	KTEST_ASSERT(t, !console_input_is_stalled(), "receive stalled before the test");
	err = uart_loopback_probe(&msr);
	if (err == -EOPNOTSUPP) {
		snprintf(skip_why, sizeof(skip_why),
			 "UART ignores MCR loopback: MSR top nibble %02x, want 90/60",
			 msr);
		ktest_skip(t, skip_why);
	}
	KTEST_ASSERT(t, err == 0, "loopback probe failed: %d", err);
	c = echo_probe(0xA5);
	if (c < 0)
		ktest_skip(t, "UART loops no data back in MCR loopback (model)");
	KTEST_ASSERT(t, c == 0xA5, "loopback echo: sent 0xa5, received 0x%02x", c);
	uart_read_regs(saved);
	KTEST_ASSERT(t, saved->ier & UART_IER_RDI,
		     "receive interrupt off before the test: IER %02x", saved->ier);
	KTEST_ASSERT(t, !(saved->mcr & UART_MCR_LOOP), "MCR %02x still in loopback",
		     saved->mcr);
}

/*
 * loopback_cleanup - whatever failed: receive on again as the resume
 * hook would, let bytes left in the FIFO come through, empty the ring;
 * then IER and MCR must be as saved and the receiver empty.
 * Context: task, sleeps.
 */
static void loopback_cleanup(struct ktest *t, const struct uart_regs *saved)
{
	ktime_t end = ktime_get() + WAIT_MS * NSEC_PER_MSEC;
	struct uart_regs r;

	uart_read_regs(&r);
	if (console_input_is_stalled() || !(r.ier & UART_IER_RDI)) {
		drain();	/* no producer runs: the stall is ours to end */
		console_input_resumed();
		uart_enable_rx_irq();
	}
	do {
		drain();
		uart_read_regs(&r);
		if (!(r.lsr & UART_LSR_DR))
			break;
		msleep(1);
	} while (ktime_get() < end);
	drain();
	KTEST_EXPECT_EQ(t, r.ier, saved->ier);
	KTEST_EXPECT_EQ(t, r.mcr, saved->mcr);
	KTEST_EXPECT(t, !(r.lsr & UART_LSR_DR), "receiver not empty: LSR %02x",
		     r.lsr);
	KTEST_EXPECT(t, (r.lsr & (UART_LSR_THRE | UART_LSR_TEMT)) ==
			(UART_LSR_THRE | UART_LSR_TEMT),
		     "transmitter not idle after the test: LSR %02x", r.lsr);
	KTEST_EXPECT_EQ(t, console_trygetc(), -1);
}

static void test_loopback_bytes_arrive_through_rx_irq_in_order(struct ktest *t)
{
	/* 16 >= the FIFO's trigger level of 14: a data-available interrupt;
	 * 13 and 1 below it: the character-timeout interrupt. */
	static const int chunk[] = { 16, 13, 1 };
	struct uart_regs saved, r;
	u8 want[UART_FIFO_SIZE];
	u64 irqs;
	int i, k, n, bad, err;
	u8 lsr_seen = 0;

	require_loopback(t, &saved);
	irqs = com1_irqs();
	for (k = 0; k < (int)ARRAY_SIZE(chunk); k++) {			/* [4] */
		for (i = 0; i < chunk[k]; i++)
			want[i] = (u8)(0x30 + 16 * k + i);
		err = uart_loopback_xmit(want, chunk[k]);
		KTEST_EXPECT_EQ(t, err, 0);
		n = collect(got, chunk[k]);
		uart_read_regs(&r);
		lsr_seen |= r.lsr;
		KTEST_EXPECT(t, n == chunk[k], "chunk %d: %d of %d bytes came in %d ms (%s)",
			     k, n, chunk[k], WAIT_MS,
			     line_state(diag, sizeof(diag), irqs));
		bad = first_mismatch(got, want, n);
		KTEST_EXPECT(t, bad < 0, "chunk %d byte %d: sent 0x%02x, got 0x%02x",
			     k, bad, bad < 0 ? 0 : want[bad], bad < 0 ? 0 : got[bad]);
		if (n != chunk[k] || bad >= 0)
			break;
	}
	/* Each chunk was waited for before the next: one interrupt at least
	 * per chunk, or the bytes did not come through the line. */
	KTEST_EXPECT(t, com1_irqs() - irqs >= ARRAY_SIZE(chunk),
		     "%llu COM1 interrupts for %d chunks",
		     (unsigned long long)(com1_irqs() - irqs), (int)ARRAY_SIZE(chunk));
	KTEST_EXPECT(t, !(lsr_seen & UART_LSR_OE), "receive overrun: LSR %02x",
		     lsr_seen);
	loopback_cleanup(t, &saved);
}

static void test_loopback_full_ring_stalls_rx_irq_then_resumes(struct ktest *t)
{
	static u8 want[RING + UART_FIFO_SIZE - ROOM];
	const int total = RING + UART_FIFO_SIZE - ROOM;
	unsigned long refused;
	struct uart_regs saved, r;
	ktime_t end;
	u64 irqs;
	int i, n, bad;
	bool stalled = false;
	u8 lsr_seen = 0;

	require_loopback(t, &saved);
	refused = console_input_refused();
	for (i = 0; i < RING - ROOM; i++) {
		want[i] = (u8)(i & 0x7f);	/* filler: high bit clear */
		KTEST_ASSERT(t, console_input_char(want[i]),
			     "ring refused filler byte %d", i);
	}
	for (i = RING - ROOM; i < total; i++)
		want[i] = (u8)(0x80 | (i - (RING - ROOM)));	/* loopback */
	irqs = com1_irqs();
	KTEST_EXPECT_EQ(t, uart_loopback_xmit(want + RING - ROOM, UART_FIFO_SIZE), 0);
	/* [5] the handler takes ROOM bytes, then finds the ring full */
	end = ktime_get() + WAIT_MS * NSEC_PER_MSEC;
	do {
		uart_read_regs(&r);
		lsr_seen |= r.lsr;
		stalled = console_input_is_stalled() && !(r.ier & UART_IER_RDI);
		if (stalled)
			break;
		msleep(1);
	} while (ktime_get() < end);
	KTEST_EXPECT(t, stalled, "no stall in %d ms (%s)", WAIT_MS,
		     line_state(diag, sizeof(diag), irqs));
	KTEST_EXPECT(t, console_input_full(), "ring not full at the stall");
	KTEST_EXPECT(t, r.lsr & UART_LSR_DR,
		     "no byte left in the FIFO at the stall: LSR %02x", r.lsr);
	/* the reader: one short of a quarter free changes nothing ... */
	n = 0;
	while (n < RING / 4 - 1 && pop_into(&got[n]))
		n++;
	uart_read_regs(&r);
	KTEST_EXPECT(t, console_input_is_stalled() && !(r.ier & UART_IER_RDI),
		     "resumed early, after %d pops: stalled %d IER %02x", n,
		     console_input_is_stalled(), r.ier);
	/* ... the pop that frees a quarter resumes the receive interrupt */
	if (pop_into(&got[n]))
		n++;
	uart_read_regs(&r);
	KTEST_EXPECT(t, !console_input_is_stalled() && (r.ier & UART_IER_RDI),
		     "not resumed after %d pops: stalled %d IER %02x", n,
		     console_input_is_stalled(), r.ier);
	n += collect(got + n, total - n);
	uart_read_regs(&r);
	lsr_seen |= r.lsr;
	KTEST_EXPECT(t, n == total, "%d of %d bytes came back in %d ms (%s)",
		     n, total, WAIT_MS, line_state(diag, sizeof(diag), irqs));
	bad = first_mismatch(got, want, n);
	KTEST_EXPECT(t, bad < 0, "byte %d of %d: want 0x%02x, got 0x%02x", bad,
		     total, bad < 0 ? 0 : want[bad], bad < 0 ? 0 : got[bad]);
	KTEST_EXPECT(t, !(lsr_seen & UART_LSR_OE), "receive overrun: LSR %02x",
		     lsr_seen);
	KTEST_EXPECT_EQ(t, console_input_refused(), refused);
	loopback_cleanup(t, &saved);
}

KTEST_SUITE(serial, KTEST_CASE(test_full_ring_refuses_then_resumes_at_a_quarter),
	    KTEST_CASE(test_loopback_bytes_arrive_through_rx_irq_in_order),
	    KTEST_CASE(test_loopback_full_ring_stalls_rx_irq_then_resumes));
