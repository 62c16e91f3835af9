/*
 * drivers/serial_irq.c - COM1's receive interrupt as a request_irq()
 * handler feeding the console input ring.
 *
 * Under rt the handler runs in the thread irq/4-ttyS0 (SCHED_FIFO 50),
 * otherwise in hard-irq context; either way it is the ring's only
 * producer once console_set_input_irq(true) stops the polling.  When the
 * line cannot be requested (no IOAPIC, no UART) the console keeps
 * polling the UART: the fallback every early boot message relies on.
 * The 16550 holds its interrupt output high while received data waits,
 * so the handler drains the FIFO: the next byte then makes a new edge.
 * Flow control: when the console ring is full the handler leaves the
 * byte in the FIFO and turns the receive interrupt off
 * (console_input_stall); the console calls serial_rx_resume() once room
 * is back, which turns it on again -- with data waiting that raises the
 * line, a fresh edge.  rx_lock orders the two IER writes, so a resume
 * can never be overtaken by a stale stall.  Nothing is dropped.
 * Linux counterpart: drivers/tty/serial/8250/8250_core.c
 * (serial8250_interrupt, serial8250_throttle/unthrottle), much reduced.
 */
#include "drivers/serial_irq.h"
#include "drivers/uart16550.h"
#include "kernel/console.h"
#include "kernel/irq/manage.h"
#include "kernel/printk.h"
#include "kernel/locking/raw_spinlock.h"

static int serial_rx_dev;	/* dev_id: the one port rtk drives */
static DEFINE_RAW_SPINLOCK(rx_lock);	/* the stall/resume IER writes */

/*
 * serial_rx_resume - the console has room again: receive interrupts on.
 * Context: task (the console's reader).  Locking: takes rx_lock, irqs
 * off (the handler takes it in hard-irq context outside rt).
 */
static void serial_rx_resume(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&rx_lock, flags);
	if (console_input_is_stalled()) {
		console_input_resumed();
		uart_enable_rx_irq();
	}
	raw_spin_unlock_irqrestore(&rx_lock, flags);
}

/*
 * serial_rx_stall - the ring is full: stop receiving unless the reader
 * made room meanwhile.  Returns true if stalled.
 * Context: the handler.  Locking: takes rx_lock.
 */
static bool serial_rx_stall(void)
{
	unsigned long flags;
	bool stalled;

	raw_spin_lock_irqsave(&rx_lock, flags);
	stalled = console_input_stall();
	if (stalled)
		uart_disable_rx_irq();
	raw_spin_unlock_irqrestore(&rx_lock, flags);
	return stalled;
}

/*
 * serial_rx_interrupt - move received bytes into the console ring until
 * the FIFO is empty or the ring full (then stall: the byte stays in the
 * FIFO).  A run that finds the FIFO already drained -- a second edge
 * that arrived while the thread was draining -- says IRQ_NONE; the
 * spurious-interrupt detector only minds that in bulk.
 * Context: irq thread (rt) or hardirq; never sleeps.
 */
static irqreturn_t serial_rx_interrupt(int irq, void *dev_id)
{
	int n = 0;

	(void)irq;
	(void)dev_id;
	while (uart_rx_ready()) {
		int c;

		/* Only this handler fills the ring: once it has room, the
		 * byte read next is sure to fit. */
		if (console_input_full() && serial_rx_stall())
			break;
		c = uart_getc();
		if (c < 0)
			break;
		if (!console_input_char(c))
			break;	/* cannot happen: checked above */
		n++;
	}
	return n ? IRQ_HANDLED : IRQ_NONE;
}

void serial_irq_init(void)
{
	int err;

	if (!uart_present())
		return;
	err = request_irq(COM1_IRQ, serial_rx_interrupt, 0, "ttyS0",
			  &serial_rx_dev);
	if (err) {
		pr_warn("serial: COM1 receive interrupt not requested (%d), "
			"polling\n", err);
		return;
	}
	console_set_input_resume(serial_rx_resume);
	uart_enable_rx_irq();
	console_set_input_irq(true);
	pr_info("serial: COM1 receive on irq %d (%s)\n", COM1_IRQ,
		irq_is_threaded(COM1_IRQ) ? "thread irq/4-ttyS0" : "hard irq");
}
