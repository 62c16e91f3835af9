/*
 * drivers/uart16550.c - 16550 UART on COM1 at 115200 8N1.
 *
 * Polled transmit (printk must work from any context, including oopses
 * with interrupts off); receive is polled by the console until the IRQ
 * layer exists, then the receive interrupt feeds the shell.
 * Reference: National Semiconductor PC16550D data sheet (registers
 * THR/RBR 0, IER 1, FCR 2, LCR 3, MCR 4, LSR 5, SCR 7; divisor latch
 * with LCR.DLAB).  Linux counterpart: drivers/tty/serial/8250/.
 */
#include "drivers/uart16550.h"
#include "arch/x86_64/io.h"

#define UART_THR 0
#define UART_RBR 0
#define UART_DLL 0
#define UART_IER 1
#define UART_DLM 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_SCR 7

#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY 0x20

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

void uart_putc(char c)
{
	/* Bounded wait: a UART that never drains (no cable on real iron,
	 * broken emulation) must not hang printk forever. */
	for (int spins = 0; spins < 100000; spins++) {
		if (inb(COM1_PORT + UART_LSR) & LSR_THR_EMPTY)
			break;
		__asm__ volatile("pause");
	}
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
