/*
 * drivers/uart16550.c - 16550 UART on COM1 at 115200 8N1.
 *
 * Polled transmit (printk must work from any context, including oopses
 * with interrupts off); receive is polled by the console until the IRQ
 * layer exists, then the receive interrupt feeds the shell.
 * Reference: National Semiconductor PC16550D data sheet (registers
 * THR/RBR 0, IER 1, FCR 2, LCR 3, MCR 4, LSR 5, MSR 6, SCR 7; divisor
 * latch with LCR.DLAB; MCR bit 4, loopback mode).
 * Linux counterpart: drivers/tty/serial/8250/.
 * The test hooks at the end drive the receive path through the chip's
 * own loopback (tests/kernel/test_serial.c); nothing else calls them.
 */
#include "drivers/uart16550.h"
#include "arch/x86_64/io.h"
#include "kernel/printk.h"
#include "arch/x86_64/arch.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "kernel/irqflags.h"

#define UART_THR 0
#define UART_RBR 0
#define UART_DLL 0
#define UART_IER 1
#define UART_DLM 1
#define UART_IIR 2
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_MSR 6
#define UART_SCR 7

#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY 0x20
#define LSR_TX_IDLE (UART_LSR_THRE | UART_LSR_TEMT)	/* FIFO and shifter empty */

/* 115200 baud: the UART clock is 1.8432 MHz / 16 = 115200, divisor 1. */
#define BAUD_DIVISOR 1

static bool present;

bool uart_present(void)
{
	return present;
}

/*
 * uart_init - program COM1 and check it exists (scratch register echo).
 * Context: boot, before any other output.
 */
void uart_init(void)
{
	u16 p = COM1_PORT;

	outb(p + UART_SCR, 0x5A);
	present = inb(p + UART_SCR) == 0x5A;
	if (!present)
		return;
	outb(p + UART_IER, 0x00);		/* no interrupts yet */
	outb(p + UART_LCR, 0x80);		/* DLAB: divisor latch */
	outb(p + UART_DLL, BAUD_DIVISOR & 0xFF);
	outb(p + UART_DLM, BAUD_DIVISOR >> 8);
	outb(p + UART_LCR, 0x03);		/* 8 bits, no parity, 1 stop */
	outb(p + UART_FCR, 0xC7);		/* FIFO on, cleared, 14-byte trigger */
	outb(p + UART_MCR, 0x0B);		/* DTR, RTS, OUT2 (IRQ gate) */
}

/* lsr_wait - spin until all of bits are set in LSR; false if they never
 * were.  Bounded: a UART that never drains (no cable on real iron,
 * broken emulation) must not hang printk forever.  100000 PAUSEs are
 * several ms, far above one character time (87 us at 115200 8N1). */
static bool lsr_wait(u8 bits)
{
	for (int spins = 0; spins < 100000; spins++) {
		if ((inb(COM1_PORT + UART_LSR) & bits) == bits)
			return true;
		__asm__ volatile("pause");
	}
	return false;
}

void uart_putc(char c)
{
	lsr_wait(LSR_THR_EMPTY);
	outb(COM1_PORT + UART_THR, (u8)c);
}

/*
 * uart_write - write len bytes, turning "\n" into "\r\n" for terminals.
 * Context: any (polled, never sleeps).  Locking: the console lock in
 * kernel/printk.c serialises writers.
 */
void uart_write(const char *s, size_t len)
{
	if (!present)
		return;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			uart_putc('\r');
		uart_putc(s[i]);
	}
}

int uart_getc(void)
{
	if (!present || !(inb(COM1_PORT + UART_LSR) & LSR_DATA_READY))
		return -1;
	return inb(COM1_PORT + UART_RBR);
}

bool uart_rx_ready(void)
{
	return present && (inb(COM1_PORT + UART_LSR) & LSR_DATA_READY);
}

void uart_enable_rx_irq(void)
{
	if (present)
		outb(COM1_PORT + UART_IER, 0x01);	/* received data available */
}

/* uart_disable_rx_irq - stop interrupting; received bytes wait in the
 * FIFO (and, once it is full, at the far end, which QEMU's chardev and
 * a real terminal's flow control hold back). */
void uart_disable_rx_irq(void)
{
	if (present)
		outb(COM1_PORT + UART_IER, 0x00);
}

/*
 * Test hooks: the chip's loopback mode (MCR bit 4) wires the transmitter
 * to the receiver inside the UART; the TX pin idles, the modem-control
 * outputs are cut off and the modem-status inputs follow MCR instead.
 * A byte sent in loopback lands in the receive FIFO exactly as a typed
 * one would, so the receive interrupt, the handler and the console
 * ring's stall/resume run for real.  On a PC the IRQ line is gated by
 * the OUT2 pin, which loopback also cuts off: the interrupt is raised
 * once loopback ends -- every window below is closed before its bytes
 * are expected to arrive.
 *
 * The window is taken under the console lock, the lock every console
 * write holds (kernel/printk.c): no console byte is written while the
 * transmitter is looped, and the window opens only once the last one
 * has left the shift register (THRE and TEMT), so none is cut short.
 */

/*
 * loopback_begin - [1] wait for the transmitter to drain, [2] enter
 * loopback with the modem-control outputs set to out_bits.  Stores the
 * MCR to restore in *saved.  Returns 0 or -ETIMEDOUT (transmitter never
 * drained; MCR untouched).
 * Context: irqs off.  Locking: console lock held.
 */
static int loopback_begin(u8 out_bits, u8 *saved)
{
	BUG_ON(!raw_irqs_disabled());
	if (!lsr_wait(LSR_TX_IDLE))				/* [1] */
		return -ETIMEDOUT;
	*saved = inb(COM1_PORT + UART_MCR);
	outb(COM1_PORT + UART_MCR, UART_MCR_LOOP | out_bits);	/* [2] */
	return 0;
}

/*
 * uart_loopback_probe - does the chip honour MCR loopback?  The check
 * of Linux's 8250 autoconfig: in loopback the modem-status inputs
 * mirror the outputs (RTS->CTS, DTR->DSR, OUT1->RI, OUT2->DCD), so
 * RTS|OUT2 must read back MSR 0x90 in the top nibble and DTR|OUT1 0x60.
 * Returns 0, -ENODEV (no UART), -ETIMEDOUT (transmitter never drained)
 * or -EOPNOTSUPP with the top nibble seen in *msr.  MCR restored.
 * Context: any but under the console lock.  Locking: takes it.
 */
int uart_loopback_probe(u8 *msr)
{
	static const u8 out_bits[2] = { 0x0A, 0x05 }, want[2] = { 0x90, 0x60 };
	unsigned long flags;
	u8 saved;
	int i, err = 0;

	*msr = 0;
	if (!present)
		return -ENODEV;
	flags = console_lock_irqsave();
	for (i = 0; i < 2 && !err; i++) {
		err = loopback_begin(out_bits[i], &saved);
		if (err)
			break;	/* MCR untouched */
		*msr = inb(COM1_PORT + UART_MSR) & 0xF0;
		outb(COM1_PORT + UART_MCR, saved);
		if (*msr != want[i])
			err = -EOPNOTSUPP;
	}
	console_unlock_irqrestore(flags);
	return err;
}

/*
 * uart_loopback_xmit - send buf[0..n) to our own receiver: [1] drain the
 * transmitter, enter loopback keeping the modem-control outputs, [2]
 * write the bytes, [3] wait until the last is through the shifter (so
 * it is in the receive FIFO), [4] restore MCR exactly.  n is at most
 * UART_FIFO_SIZE: more would overrun the receive FIFO before the
 * handler can run.  Returns 0, -ENODEV, -EINVAL or -ETIMEDOUT.
 * Context: any (irqs off for about n character times: 1.4 ms for 16 on
 * real iron, next to nothing under emulation); not under the console
 * lock.  Locking: takes it, so no console write can fall in the window.
 */
int uart_loopback_xmit(const u8 *buf, size_t n)
{
	unsigned long flags;
	u8 saved;
	int err;

	if (!present)
		return -ENODEV;
	if (n > UART_FIFO_SIZE)
		return -EINVAL;
	flags = console_lock_irqsave();
	err = loopback_begin(inb(COM1_PORT + UART_MCR) & 0x0F, &saved);	/* [1] */
	if (err)
		goto out_unlock;
	for (size_t i = 0; i < n && !err; i++) {			/* [2] */
		if (!lsr_wait(LSR_THR_EMPTY))
			err = -ETIMEDOUT;
		else
			outb(COM1_PORT + UART_THR, buf[i]);
	}
	if (!err && !lsr_wait(LSR_TX_IDLE))				/* [3] */
		err = -ETIMEDOUT;
	outb(COM1_PORT + UART_MCR, saved);				/* [4] */
out_unlock:
	console_unlock_irqrestore(flags);
	return err;
}

/* uart_read_regs - IER, IIR, MCR and LSR as they are now.  Reading IIR
 * acknowledges a transmitter-empty interrupt and reading LSR clears its
 * error bits (OE, PE, FE, BI); the driver uses neither.
 * Context: any. */
void uart_read_regs(struct uart_regs *r)
{
	r->ier = present ? inb(COM1_PORT + UART_IER) : 0;
	r->iir = present ? inb(COM1_PORT + UART_IIR) : 0;
	r->mcr = present ? inb(COM1_PORT + UART_MCR) : 0;
	r->lsr = present ? inb(COM1_PORT + UART_LSR) : 0;
}
