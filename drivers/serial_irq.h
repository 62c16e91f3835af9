/*
 * drivers/serial_irq.h - COM1's receive interrupt through request_irq().
 */
#ifndef DRIVERS_SERIAL_IRQ_H
#define DRIVERS_SERIAL_IRQ_H

/* serial_irq_init - request COM1's line for the console input; on
 * failure the console keeps polling.  Context: boot, task, after
 * irq_init(); may sleep. */
void serial_irq_init(void);

#endif /* DRIVERS_SERIAL_IRQ_H */
