/*
 * drivers/uart16550.h - the PC serial port (COM1), rtk's main console.
 */
#ifndef DRIVERS_UART16550_H
#define DRIVERS_UART16550_H

#include "lib/types.h"

#define COM1_PORT 0x3F8
#define COM1_IRQ 4

void uart_init(void);
void uart_putc(char c);
void uart_write(const char *s, size_t len);
/* uart_getc - a received byte, or -1 if none is waiting. */
int uart_getc(void);
/* uart_enable_rx_irq - ask the UART to interrupt on received data. */
void uart_enable_rx_irq(void);
/* uart_disable_rx_irq - stop the receive interrupt (input throttled). */
void uart_disable_rx_irq(void);
/* uart_rx_ready - a received byte is waiting. */
bool uart_rx_ready(void);
bool uart_present(void);

/* Test hooks (see drivers/uart16550.c): the chip's MCR loopback mode
 * feeds the receive path from our own transmitter.  The console lock is
 * held for each window, so console output is never looped. */
#define UART_FIFO_SIZE 16	/* 16550A receive and transmit FIFOs */
#define UART_IER_RDI 0x01	/* receive interrupt enabled */
#define UART_MCR_LOOP 0x10	/* transmitter wired to receiver in the chip */
#define UART_LSR_DR 0x01	/* receive data waiting */
#define UART_LSR_OE 0x02	/* receive FIFO overrun: a byte was lost */
#define UART_LSR_THRE 0x20	/* transmit FIFO empty */
#define UART_LSR_TEMT 0x40	/* transmitter idle: shift register empty too */

struct uart_regs {
	u8 ier, iir, mcr, lsr;
};

int uart_loopback_probe(u8 *msr);
int uart_loopback_xmit(const u8 *buf, size_t n);
void uart_read_regs(struct uart_regs *r);

#endif /* DRIVERS_UART16550_H */
