/*
 * drivers/lpptest.c - LPPTEST's guest side: answer an external stimulus
 * as fast as possible (article, "PREEMPT_RT configuration options":
 * LPPTEST; the -rt patch's drivers/char/lpptest.c toggled a parallel-port
 * data line from an SA_NODELAY handler of the ACK interrupt, and
 * scripts/testlpp.c on a second machine timed the answer).
 *
 * Here the stimulus line is COM2 (0x2F8, IRQ 3): QEMU exposes it as a
 * socket (-serial unix:...), tools/lpptest.py writes one byte at a known
 * host time, and the receive interrupt's handler writes the answer byte
 * at once, so the host's round trip includes everything a device sees:
 * interrupt delivery through the IOAPIC, the handler's start (at once in
 * hard-irq context, or after the wake-up and switch to the irq thread),
 * and QEMU's own character-device path both ways.
 *   lpptest.mode=hardirq   SA_NODELAY, hard-irq context (the default, as
 *                          the -rt driver)
 *   lpptest.mode=thread    no SA_NODELAY: the irq thread irq/3-lpptest
 *                          under rt; the other models have no irq
 *                          threads, so it is hard-irq there too
 *
 * Why not the parallel port: QEMU's emulated port (hw/char/parallel.c)
 * raises IRQ 7 only when the guest itself lowers STROBE with the
 * interrupt enabled (an emulated printer ACK to the guest's own write);
 * nothing the host does on the port's character device drives ACK, so
 * no external stimulus can reach IRQ 7.  LPT1 is only probed and
 * reported; the serial line is the working path.
 * Reference: PC16550D data sheet (RBR/THR 0, IER 1, FCR 2, LCR 3, MCR 4,
 * LSR 5; MCR bit 4 loopback).
 */
#include "drivers/lpptest.h"
#include "drivers/uart16550.h"
#include "arch/x86_64/io.h"
#include "kernel/cmdline.h"
#include "kernel/irq/manage.h"
#include "kernel/irqflags.h"
#include "kernel/printk.h"
#include "kernel/sched/preempt.h"
#include "lib/errno.h"
#include "lib/string.h"

#define REG_RBR 0
#define REG_THR 0
#define REG_IER 1
#define REG_DLL 0
#define REG_DLM 1
#define REG_FCR 2
#define REG_LCR 3
#define REG_MCR 4
#define REG_LSR 5
#define REG_SCR 7
#define TX_IDLE (UART_LSR_THRE | UART_LSR_TEMT)
#define MCR_NORMAL 0x0B		/* DTR, RTS, OUT2 (the PC's IRQ gate) */
#define LPT_STATUS 1
#define LPT_CONTROL 2

static bool com2_present, lpt1_present, line_requested;
static enum lpptest_mode lpptest_mode = LPPTEST_HARDIRQ;
static int lpptest_dev;			/* dev_id */
static struct lpptest_stats stats;	/* written by the handler only */

static int __init parse_lpptest_mode(const char *val)
{
	if (val && !strcmp(val, "hardirq"))
		lpptest_mode = LPPTEST_HARDIRQ;
	else if (val && !strcmp(val, "thread"))
		lpptest_mode = LPPTEST_THREAD;
	else
		return -EINVAL;
	return 0;
}
CMDLINE_PARAM("lpptest.mode", parse_lpptest_mode);

/*
 * lpptest_interrupt - answer every stimulus byte waiting in the FIFO:
 * read it, write it back with LPPTEST_ANSWER_BIT.  The THR is empty in
 * practice (the host sends one byte and waits for its answer); a full
 * one is counted, not waited for.  The line is not shared.
 * Context: hard irq (SA_NODELAY) or the irq thread; never sleeps.
 * Locking: none; the only writer of stats (one line, one handler).
 */
static irqreturn_t lpptest_interrupt(int irq, void *dev_id)
{
	int n = 0;

	(void)irq;
	(void)dev_id;
	while (inb(COM2_PORT + REG_LSR) & UART_LSR_DR) {
		u8 c = inb(COM2_PORT + REG_RBR);

		n++;
		if (c & LPPTEST_ANSWER_BIT) {
			WRITE_ONCE(stats.answers_seen, stats.answers_seen + 1);
			continue;
		}
		WRITE_ONCE(stats.stimuli, stats.stimuli + 1);
		if (!(inb(COM2_PORT + REG_LSR) & UART_LSR_THRE)) {
			WRITE_ONCE(stats.tx_busy, stats.tx_busy + 1);
			continue;
		}
		outb(COM2_PORT + REG_THR, c | LPPTEST_ANSWER_BIT);
		stats.last_answer = c | LPPTEST_ANSWER_BIT;
		stats.last_in_hardirq = in_irq();
		WRITE_ONCE(stats.answered, stats.answered + 1);
	}
	return n ? IRQ_HANDLED : IRQ_NONE;
}

/* lpptest_request - request IRQ 3 in mode.  Context: task. */
static int lpptest_request(enum lpptest_mode mode)
{
	unsigned long flags = mode == LPPTEST_HARDIRQ ? SA_NODELAY : 0;
	int err;

	err = request_irq(COM2_IRQ, lpptest_interrupt, flags, "lpptest",
			  &lpptest_dev);
	if (err)
		return err;
	line_requested = true;
	lpptest_mode = mode;
	outb(COM2_PORT + REG_IER, UART_IER_RDI);
	return 0;
}

int lpptest_set_mode(enum lpptest_mode mode)
{
	if (!com2_present)
		return -ENODEV;
	if (line_requested) {
		outb(COM2_PORT + REG_IER, 0);
		free_irq(COM2_IRQ, &lpptest_dev);
		line_requested = false;
	}
	return lpptest_request(mode);
}

/* lpt1_probe - the data register of a parallel port reads back what was
 * written (output direction); nothing decodes 0x378 otherwise (0xFF). */
static bool __init lpt1_probe(void)
{
	outb(LPT1_PORT, 0x5A);
	if (inb(LPT1_PORT) != 0x5A)
		return false;
	outb(LPT1_PORT, 0xA5);
	return inb(LPT1_PORT) == 0xA5;
}

void __init lpptest_init(void)
{
	u16 p = COM2_PORT;
	int err;

	lpt1_present = lpt1_probe();
	outb(p + REG_SCR, 0x5A);
	com2_present = inb(p + REG_SCR) == 0x5A;
	if (!com2_present) {
		pr_info("lpptest: no COM2, no stimulus line (LPT1 %s)\n",
			lpt1_present ? "present, no host-driven IRQ 7" :
				       "absent");
		return;
	}
	outb(p + REG_IER, 0);
	outb(p + REG_LCR, 0x80);		/* DLAB */
	outb(p + REG_DLL, 1);			/* 115200: no meaning to QEMU */
	outb(p + REG_DLM, 0);
	outb(p + REG_LCR, 0x03);		/* 8N1 */
	outb(p + REG_FCR, 0x07);		/* FIFO on, cleared, 1-byte trigger */
	outb(p + REG_MCR, MCR_NORMAL);
	while (inb(p + REG_LSR) & UART_LSR_DR)	/* stale input */
		inb(p + REG_RBR);
	err = lpptest_request(lpptest_mode);
	if (err) {
		pr_warn("lpptest: irq %d not requested (%d)\n", COM2_IRQ, err);
		return;
	}
	pr_info("lpptest: COM2 answers on irq %d (%s, %s); LPT1 %s\n",
		COM2_IRQ, lpptest_mode_name(lpptest_mode),
		irq_is_threaded(COM2_IRQ) ? "thread irq/3-lpptest" : "hard irq",
		lpt1_present ? "present, no host-driven IRQ 7" : "absent");
}

bool lpptest_present(void)
{
	return com2_present && line_requested;
}

bool lpptest_parport_present(void)
{
	return lpt1_present;
}

enum lpptest_mode lpptest_get_mode(void)
{
	return lpptest_mode;
}

const char *lpptest_mode_name(enum lpptest_mode mode)
{
	return mode == LPPTEST_HARDIRQ ? "hardirq" : "thread";
}

void lpptest_read_stats(struct lpptest_stats *st)
{
	st->stimuli = READ_ONCE(stats.stimuli);
	st->answered = READ_ONCE(stats.answered);
	st->tx_busy = READ_ONCE(stats.tx_busy);
	st->answers_seen = READ_ONCE(stats.answers_seen);
	st->last_answer = READ_ONCE(stats.last_answer);
	st->last_in_hardirq = READ_ONCE(stats.last_in_hardirq);
}

/*
 * lpptest_loopback_inject - [1] wait for the transmitter to drain (an
 * answer still leaving must not be looped back), [2] loopback on: the
 * byte written to the THR lands in our receive FIFO; loopback also cuts
 * OUT2, the IRQ gate, so nothing fires yet; [3] wait for it; [4]
 * loopback off: OUT2 back, the pending receive interrupt is raised and
 * the handler answers it (the answer leaves on the real line).
 */
int lpptest_loopback_inject(u8 c)
{
	unsigned long flags;
	int spins, err = 0;

	if (!com2_present)
		return -ENODEV;
	raw_local_irq_save(flags);
	/* 100000 reads: several ms, far above a character time (the
	 * bound of uart16550.c's lsr_wait) */
	for (spins = 0; spins < 100000; spins++)		/* [1] */
		if ((inb(COM2_PORT + REG_LSR) & TX_IDLE) == TX_IDLE)
			break;
	outb(COM2_PORT + REG_MCR, UART_MCR_LOOP | MCR_NORMAL);	/* [2] */
	outb(COM2_PORT + REG_THR, c);
	for (spins = 0; spins < 100000; spins++)		/* [3] */
		if (inb(COM2_PORT + REG_LSR) & UART_LSR_DR)
			break;
	if (!(inb(COM2_PORT + REG_LSR) & UART_LSR_DR))
		err = -ETIMEDOUT;
	outb(COM2_PORT + REG_MCR, MCR_NORMAL);			/* [4] */
	raw_local_irq_restore(flags);
	return err;
}
