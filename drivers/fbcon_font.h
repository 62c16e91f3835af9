/*
 * drivers/fbcon_font.h - the console font drivers/fbcon.c draws with.
 *
 * The definition is generated at build time by tools/psf2c.py from a
 * Debian console font (the Makefile's FBCON_FONT, a PSF file of
 * console-setup-linux), into $(BUILD)/gen/fbcon_font.c: printable ASCII
 * plus one replacement glyph, looked up through the font's Unicode table.
 */
#ifndef DRIVERS_FBCON_FONT_H
#define DRIVERS_FBCON_FONT_H

#include "lib/types.h"

struct fbcon_font {
	const char *name;	/* the PSF file it came from */
	u32 width, height;	/* glyph cell in pixels (width <= 32) */
	u32 row_bytes;		/* bytes per glyph row, MSB leftmost */
	u32 first, last;	/* code points glyphs[] covers */
	/* (last - first + 2) glyphs of height * row_bytes bytes; the
	 * extra last one is the replacement glyph */
	const u8 *glyphs;
};

extern const struct fbcon_font fbcon_font;

#endif /* DRIVERS_FBCON_FONT_H */
