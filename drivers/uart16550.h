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

#endif /* DRIVERS_UART16550_H */
