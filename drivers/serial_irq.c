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
 * Linux counterpart: drivers/tty/serial/8250/8250_core.c
 * (serial8250_interrupt), much reduced.
 */
#include "drivers/serial_irq.h"
#include "drivers/uart16550.h"
#include "kernel/console.h"
#include "kernel/irq/manage.h"
#include "kernel/printk.h"

static int serial_rx_dev;	/* dev_id: the one port rtk drives */

/*
 * serial_rx_interrupt - move every received byte into the console ring.
 * Context: irq thread (rt) or hardirq; never sleeps.
 */
static irqreturn_t serial_rx_interrupt(int irq, void *dev_id)
{
	int c, n = 0;

	(void)irq;
	(void)dev_id;
	while ((c = uart_getc()) >= 0) {
		console_input_char(c);
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
	uart_enable_rx_irq();
	console_set_input_irq(true);
	pr_info("serial: COM1 receive on irq %d (%s)\n", COM1_IRQ,
		irq_is_threaded(COM1_IRQ) ? "thread irq/4-ttyS0" : "hard irq");
}
