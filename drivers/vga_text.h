/*
 * drivers/vga_text.h - 80x25 VGA text console (when booted in text mode).
 */
#ifndef DRIVERS_VGA_TEXT_H
#define DRIVERS_VGA_TEXT_H

#include "lib/types.h"

/* vga_text_init - use the text buffer at phys (0xB8000), cols x rows. */
void vga_text_init(u64 phys, u32 cols, u32 rows);
void vga_text_write(const char *s, size_t len);

#endif /* DRIVERS_VGA_TEXT_H */
