/*
 * drivers/fbcon.h - the framebuffer text console (see fbcon.c).
 */
#ifndef DRIVERS_FBCON_H
#define DRIVERS_FBCON_H

#include "lib/types.h"

/* fbcon_init - if the loader gave a linear RGB framebuffer below 4 GiB
 * in a format fbcon draws (16/24/32 bpp), register the console; it draws
 * in write() until fbcon_late_init.  Returns true if registered.  An
 * unsupported format is said once (pr_warn) and left alone.
 * Context: boot CPU, early (console_init), before the page allocator. */
bool fbcon_init(void);

/* fbcon_late_init - map a framebuffer above 4 GiB, honour fbcon=off,
 * and hand the drawing to the kthread "fbcon".
 * Context: boot task, may sleep; after sched_init and mm_init. */
void fbcon_late_init(void);

#endif /* DRIVERS_FBCON_H */
