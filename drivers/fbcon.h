/*
 * drivers/fbcon.h - the framebuffer text console (see fbcon.c).
 */
#ifndef DRIVERS_FBCON_H
#define DRIVERS_FBCON_H

#include "lib/types.h"

struct boot_info;

/* fbcon_init - if the loader gave a linear RGB framebuffer below 4 GiB
 * in a format fbcon draws (16/24/32 bpp), register the console; it draws
 * in write() until fbcon_late_init.  Returns true if registered.  An
 * unsupported format is said once (pr_warn) and left alone.
 * Context: boot CPU, early (console_init), before the page allocator. */
bool fbcon_init(void);

/* fbcon_format_supported - can fbcon draw into b's framebuffer: RGB
 * (type 1), 16/24/32 bpp, colour fields of 1..8 bits inside the pixel,
 * a pitch of whole 32-bit words, at least one glyph of room?  The
 * fallback for anything else is serial (and VGA text if the loader left
 * text mode).  Context: any. */
bool fbcon_format_supported(const struct boot_info *b);

/* fbcon_late_init - map a framebuffer above 4 GiB, honour fbcon=off,
 * and hand the drawing to the kthread "fbcon".
 * Context: boot task, may sleep; after sched_init and mm_init. */
void fbcon_late_init(void);

#endif /* DRIVERS_FBCON_H */
