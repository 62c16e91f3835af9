/*
 * drivers/i8042.h - the PS/2 keyboard controller (see i8042.c).
 */
#ifndef DRIVERS_I8042_H
#define DRIVERS_I8042_H

/* i8042_init - find and self-test the controller, request IRQ 1 and feed
 * the console input from the keyboard; on any failure it says why once
 * and leaves input to the serial line.  Context: boot task, after
 * irq_init() and serial_irq_init(); may sleep. */
void i8042_init(void);

/* i8042_ignored_scancodes - scancodes that made no byte so far. */
unsigned long i8042_ignored_scancodes(void);

#endif /* DRIVERS_I8042_H */
