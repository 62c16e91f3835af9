/*
 * drivers/fbcon.c - a text console drawn into the linear framebuffer the
 * boot loader set up (Multiboot2 framebuffer tag, boot/multiboot.asm).
 *
 * It is a second struct console beside COM1: printk and the shell's
 * output reach both.  The text grid is as large as the mode allows for
 * the font (drivers/fbcon_font.h, generated from a Debian PSF font);
 * each message is coloured by its log level (console_level).
 *
 * Locking, and why drawing adds no latency under PREEMPT_RT:
 *   console->write() runs under the console lock, a spinning lock with
 *   interrupts off in every model (kernel/printk.c).  All it does here is
 *   update a text shadow: a ring of rows of 16-bit cells, so a scroll is
 *   "advance the top row, clear one row" - O(columns), never a copy of
 *   the screen.  The pixels are drawn by the kthread "fbcon"
 *   (SCHED_OTHER), which takes the console lock only to copy one row of
 *   cells at a time and draws, scrolls (a copy of the framebuffer upwards)
 *   and moves the cursor with no lock held and preemption enabled.  An RT
 *   task therefore waits for at most one row copy, never for a glyph or a
 *   screen scroll: the article's rule that a raw lock must not cover
 *   unbounded work ("A realtime preemption overview", the section on
 *   raw spinlocks).
 *   Before the kthread exists (early boot) and while an oops or panic
 *   prints (oops_in_progress), write() draws itself, still under the
 *   console lock, with no allocation and no sleeping lock: the report
 *   reaches the screen even when nothing can be scheduled.
 * Linux counterpart: drivers/video/fbdev/core/fbcon.c + bitblit.c and
 * drivers/video/fbdev/efifb.c; rtk has no fb_ops, one mode, no VT layer.
 * Spec: Multiboot2 3.6.12 (framebuffer info), 3.1.10 (framebuffer tag).
 */
#include "drivers/fbcon.h"
#include "drivers/fbcon_font.h"
#include "kernel/console.h"
#include "kernel/printk.h"
#include "kernel/cmdline.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/wait.h"
#include "kernel/sched/sched.h"
#include "kernel/shell/shell.h"
#include "kernel/time/ktime.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/ioremap.h"
#include "lib/bug.h"
#include "lib/string.h"

#define FBCON_MAX_COLS 256	/* 2048 pixels of an 8-pixel font */
#define FBCON_MAX_ROWS 128	/* 2048 lines of a 16-line font */
/* The kthread looks for new text 50 times a second: a display refresh
 * rate, so the screen is never visibly behind the serial line. */
#define FBCON_REFRESH_MS 20

#define CELL_CHAR 0x00ff
#define CELL_COLOUR_SHIFT 8
#define CELL_CURSOR 0x8000	/* drawn as a light grey block */
#define CELL_INVALID 0xffff	/* "unknown": drawn[] after a scroll */
#define REPLACEMENT_CHAR 0x7f	/* shadow code of the replacement glyph */

/* VGA's 16 colours (the palette vgacon shows), as 8-bit R, G, B. */
static const u8 palette[16][3] = {
	{ 0, 0, 0 },	   { 0, 0, 170 },     { 0, 170, 0 },	 { 0, 170, 170 },
	{ 170, 0, 0 },	   { 170, 0, 170 },   { 170, 85, 0 },	 { 170, 170, 170 },
	{ 85, 85, 85 },	   { 85, 85, 255 },   { 85, 255, 85 },	 { 85, 255, 255 },
	{ 255, 85, 85 },   { 255, 85, 255 },  { 255, 255, 85 },	 { 255, 255, 255 },
};

/* Palette index by log level (LOGLEVEL_EMERG 0 .. DEBUG 7); shell output
 * (console_level -1) is bright white.  tools/screen_test.py knows these. */
static const u8 level_colour[8] = { 12, 12, 12, 12, 14, 15, 7, 8 };
#define SHELL_COLOUR 15
#define CURSOR_COLOUR 7

/* Set once by fbcon_init, read-only after: */
static struct {
	u8 *base;		/* mapped framebuffer, NULL: fbcon off */
	u64 phys;
	u32 pitch, bytes_pp;	/* bytes per line, per pixel */
	u32 cols, rows;		/* the text grid */
	u32 colour[16];		/* palette as pixel values */
} fb;

/* Protected by the console lock: */
static u16 shadow[FBCON_MAX_ROWS][FBCON_MAX_COLS];	/* ring of rows */
static u32 top;			/* ring index of screen row 0 */
static u32 cur_x, cur_y;	/* cur_x == cols: wrap before next char */
static u32 scrolls;		/* shadow scrolls so far */
static u32 gen;			/* bumped by every write */
static bool deferred;		/* the kthread draws, not write() */
static bool oops_redrawn;	/* drawn[] reset for the oops path */

/* Owned by the one drawer (the kthread; write() before it and in an
 * oops): what the framebuffer shows. */
static u16 drawn[FBCON_MAX_ROWS][FBCON_MAX_COLS];
static u32 drawn_scrolls;

static bool fbcon_disabled;	/* fbcon=off */

/* What fbcon adds to interrupts-off time, measured (the `fbcon` command):
 * the longest write() and the longest row copy by the kthread, both
 * under the console lock; the longest drawing pass, preemptible. */
static u64 max_write_ns, max_row_ns, max_pass_ns;
static unsigned long nr_passes;

static u32 pack_colour(const u8 rgb[3])
{
	const u8 pos[3] = { boot_info.fb_red_pos, boot_info.fb_green_pos,
			    boot_info.fb_blue_pos };
	const u8 size[3] = { boot_info.fb_red_size, boot_info.fb_green_size,
			     boot_info.fb_blue_size };
	u32 v = 0;

	for (int i = 0; i < 3; i++)
		v |= (u32)(rgb[i] >> (8 - size[i])) << pos[i];
	return v;
}

static void put_pixel(u8 *p, u32 v)
{
	switch (fb.bytes_pp) {
	case 4:
		*(volatile u32 *)p = v;
		break;
	case 3:
		((volatile u8 *)p)[0] = v;
		((volatile u8 *)p)[1] = v >> 8;
		((volatile u8 *)p)[2] = v >> 16;
		break;
	default:
		*(volatile u16 *)p = v;
		break;
	}
}

/* draw_cell - the glyph of cell at text position (row, col). */
static void draw_cell(u32 row, u32 col, u16 cell)
{
	const struct fbcon_font *f = &fbcon_font;
	u32 ch = cell & CELL_CHAR;
	u32 idx = (ch >= f->first && ch <= f->last) ? ch - f->first
						    : f->last - f->first + 1;
	const u8 *g = f->glyphs + idx * f->height * f->row_bytes;
	u32 fg = fb.colour[(cell >> CELL_COLOUR_SHIFT) & 15], bg = fb.colour[0];
	u8 *line = fb.base + row * f->height * fb.pitch +
		   col * f->width * fb.bytes_pp;

	if (cell & CELL_CURSOR) {	/* a block in the text colour */
		fg = bg;
		bg = fb.colour[CURSOR_COLOUR];
	}
	for (u32 y = 0; y < f->height; y++, line += fb.pitch, g += f->row_bytes) {
		u32 bits = 0;

		for (u32 b = 0; b < f->row_bytes; b++)
			bits = bits << 8 | g[b];
		bits <<= 32 - 8 * f->row_bytes;	/* leftmost pixel at bit 31 */
		for (u32 x = 0; x < f->width; x++)
			put_pixel(line + x * fb.bytes_pp,
				  (bits << x) & 0x80000000u ? fg : bg);
	}
}

/* fb_move_up - scroll the pixels of the text area up by n text rows. */
static void fb_move_up(u32 n)
{
	u32 line_bytes = fb.pitch * fbcon_font.height;
	u64 *dst = (u64 *)fb.base;
	const u64 *src = (const u64 *)(fb.base + n * line_bytes);
	size_t words = (size_t)(fb.rows - n) * line_bytes / 8;

	/* Forward copy: dst is below src.  Whole words: pitch is a multiple
	 * of 4 in every mode, and the rows' tail bytes are the margin. */
	for (size_t i = 0; i < words; i++)
		((volatile u64 *)dst)[i] = ((volatile const u64 *)src)[i];
}

/*
 * snapshot_row - copy screen row r of the shadow (with the cursor) into
 * out.  Locking: console lock held.
 */
static void snapshot_row(u32 r, u16 *out)
{
	memcpy(out, shadow[(top + r) % fb.rows], fb.cols * sizeof(u16));
	if (r == cur_y)
		out[cur_x < fb.cols ? cur_x : fb.cols - 1] |= CELL_CURSOR;
}

/*
 * fbcon_draw - bring the framebuffer up to date with the shadow.
 *   [1] Read how many scrolls the shadow has had since the last draw.
 *   [2] Fewer than a screen: move the pixels up by that many rows and
 *       drawn[] with them (the rows that came in are unknown); more: all
 *       of drawn[] is unknown.
 *   [3] Row by row: copy the row out of the shadow (under the console
 *       lock unless the caller holds it), draw the cells that differ from
 *       drawn[].  Text written meanwhile is in a later row copy or in the
 *       next pass (gen changed): drawn[] always says what is on screen.
 * Context: the fbcon kthread (locked false: preemptible, no lock held),
 * or write() (locked true: console lock held, interrupts off).
 * Locking: takes the console lock per row when !locked.
 */
static void fbcon_draw(bool locked)
{
	u16 row[FBCON_MAX_COLS];
	u32 s = READ_ONCE(scrolls), delta = s - drawn_scrolls;	/* [1] */
	unsigned long flags = 0;

	if (delta && delta < fb.rows) {	/* [2] */
		fb_move_up(delta);
		memmove(drawn[0], drawn[delta],
			(fb.rows - delta) * sizeof(drawn[0]));
		memset(drawn[fb.rows - delta], 0xff, delta * sizeof(drawn[0]));
	} else if (delta) {
		memset(drawn, 0xff, sizeof(drawn));
	}
	drawn_scrolls = s;
	for (u32 r = 0; r < fb.rows; r++) {	/* [3] */
		if (!locked) {
			u64 t0;

			/* An oops draws from write() now (and resets drawn[]
			 * once): stop within a row rather than race it. */
			if (READ_ONCE(oops_in_progress))
				return;

			flags = console_lock_irqsave();
			t0 = ktime_get_ns();
			snapshot_row(r, row);
			t0 = ktime_get_ns() - t0;
			if (t0 > max_row_ns)
				max_row_ns = t0;
			console_unlock_irqrestore(flags);
		} else {
			snapshot_row(r, row);
		}
		for (u32 c = 0; c < fb.cols; c++) {
			if (row[c] == drawn[r][c])
				continue;
			draw_cell(r, c, row[c]);
			drawn[r][c] = row[c];
		}
	}
}

static void shadow_newline(void)
{
	cur_x = 0;
	if (++cur_y < fb.rows)
		return;
	cur_y = fb.rows - 1;
	top = (top + 1) % fb.rows;
	for (u32 c = 0; c < fb.cols; c++)
		shadow[(top + cur_y) % fb.rows][c] = ' ';
	scrolls++;
}

/*
 * fbcon_write - the console's write(): put s into the shadow in the
 * colour of console_level; draw only when no kthread does (see top).
 * Context: any, interrupts off.  Locking: console lock held.
 */
static void fbcon_write(const char *s, size_t len)
{
	int level = console_level;
	u16 colour = level >= 0 && level < 8 ? level_colour[level] : SHELL_COLOUR;
	u64 t0 = deferred ? ktime_get_ns() : 0;

	BUG_ON(!raw_irqs_disabled());
	for (size_t i = 0; i < len; i++) {
		u8 c = s[i];

		if (c == '\n') {
			shadow_newline();
		} else if (c == '\r') {
			cur_x = 0;
		} else if (c == '\b') {
			if (cur_x > 0)
				cur_x--;
		} else if (c >= 0x20) {
			if (cur_x >= fb.cols)
				shadow_newline();
			if (c >= 0x7f)
				c = REPLACEMENT_CHAR;
			shadow[(top + cur_y) % fb.rows][cur_x++] =
				c | colour << CELL_COLOUR_SHIFT;
		}	/* other control characters: nothing to show */
	}
	gen++;
	if (deferred) {
		t0 = ktime_get_ns() - t0;
		if (t0 > max_write_ns)
			max_write_ns = t0;
	}
	if (!deferred || oops_in_progress) {
		if (oops_in_progress && !oops_redrawn) {
			/* The kthread may have been stopped mid-row. */
			memset(drawn, 0xff, sizeof(drawn));
			oops_redrawn = true;
		}
		fbcon_draw(true);
	}
}

static struct console fbcon_console = {
	.name = "fb0",
	.write = fbcon_write,
};

/*
 * fbcon_format_supported - see fbcon.h.
 * Context: any.  Locking: none (reads b only).
 */
bool fbcon_format_supported(const struct boot_info *b)
{
	const u8 sizes[3] = { b->fb_red_size, b->fb_green_size, b->fb_blue_size };
	const u8 pos[3] = { b->fb_red_pos, b->fb_green_pos, b->fb_blue_pos };

	if (b->fb_type != 1 || (b->fb_bpp != 16 && b->fb_bpp != 24 &&
				b->fb_bpp != 32))
		return false;
	for (int i = 0; i < 3; i++)
		if (!sizes[i] || sizes[i] > 8 || pos[i] + sizes[i] > b->fb_bpp)
			return false;
	return b->fb_width >= fbcon_font.width &&
	       b->fb_height >= fbcon_font.height &&
	       b->fb_pitch >= b->fb_width * (b->fb_bpp / 8u) &&
	       b->fb_pitch % 4 == 0;
}

static void __init fbcon_clear(void)
{
	for (u32 r = 0; r < fb.rows; r++)
		for (u32 c = 0; c < fb.cols; c++) {
			shadow[r][c] = ' ';
			drawn[r][c] = CELL_INVALID;
		}
}

/*
 * fbcon_init - see fbcon.h.  The framebuffer is reached through the
 * direct map when it lies below 4 GiB (arch/x86_64/mmu.h maps all of
 * that range); one above waits for fbcon_late_init's ioremap.
 */
bool __init fbcon_init(void)
{
	const struct boot_info *b = &boot_info;

	if (!b->has_framebuffer || b->fb_type == 2)
		return false;	/* none, or EGA text: drivers/vga_text.c */
	if (!fbcon_format_supported(b)) {
		pr_warn("fbcon: framebuffer %ux%u, %u bpp, type %u (rgb "
			"%u:%u %u:%u %u:%u) not supported: no screen console\n",
			b->fb_width, b->fb_height, b->fb_bpp, b->fb_type,
			b->fb_red_pos, b->fb_red_size, b->fb_green_pos,
			b->fb_green_size, b->fb_blue_pos, b->fb_blue_size);
		return false;
	}
	fb.phys = b->fb_addr;
	fb.pitch = b->fb_pitch;
	fb.bytes_pp = b->fb_bpp / 8;
	fb.cols = b->fb_width / fbcon_font.width;
	fb.rows = b->fb_height / fbcon_font.height;
	if (fb.cols > FBCON_MAX_COLS)
		fb.cols = FBCON_MAX_COLS;
	if (fb.rows > FBCON_MAX_ROWS)
		fb.rows = FBCON_MAX_ROWS;
	for (int i = 0; i < 16; i++)
		fb.colour[i] = pack_colour(palette[i]);
	fbcon_clear();
	if (fb.phys + (u64)fb.pitch * b->fb_height > (4ULL << 30))
		return false;	/* fbcon_late_init maps it */
	fb.base = phys_to_virt(fb.phys);
	register_console(&fbcon_console);
	return true;
}

static int fbcon_thread(void *data)
{
	u32 seen = READ_ONCE(gen) - 1;

	(void)data;
	for (;;) {
		u32 now = READ_ONCE(gen);

		if (now != seen && !READ_ONCE(oops_in_progress)) {
			u64 t0 = ktime_get_ns();

			seen = now;
			fbcon_draw(false);
			t0 = ktime_get_ns() - t0;
			if (t0 > max_pass_ns)
				max_pass_ns = t0;
			nr_passes++;
		}
		msleep(FBCON_REFRESH_MS);
	}
	return 0;
}

/*
 * fbcon_late_init - see fbcon.h.
 * Context: boot task, after the scheduler and the page allocator.
 */
void __init fbcon_late_init(void)
{
	unsigned long flags;
	struct task_struct *t;

	might_sleep();
	if (!fb.cols)
		return;	/* no usable framebuffer */
	if (!fb.base) {
		fb.base = ioremap_nocache(fb.phys, (size_t)fb.pitch *
						   boot_info.fb_height);
		if (!fb.base)
			return;
		register_console(&fbcon_console);
	}
	if (fbcon_disabled) {
		unregister_console(&fbcon_console);
		pr_info("fbcon: off (fbcon=off): console on serial only\n");
		return;
	}
	t = kthread_run(fbcon_thread, NULL, "fbcon");
	if (!t) {
		pr_warn("fbcon: no kthread: drawing stays in printk\n");
		return;
	}
	flags = console_lock_irqsave();
	deferred = true;
	console_unlock_irqrestore(flags);
	pr_info("fbcon: %ux%u text on %ux%u %u bpp at %#llx, font %s\n",
		fb.cols, fb.rows, boot_info.fb_width, boot_info.fb_height,
		boot_info.fb_bpp, (unsigned long long)fb.phys, fbcon_font.name);
}

/* cmd_fbcon - `fbcon [reset]`: the grid and the measured sections. */
static int cmd_fbcon(int argc, char **argv)
{
	if (!fb.base || !deferred) {
		console_printf("fbcon: not drawing (no usable framebuffer, or "
			       "fbcon=off)\n");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "reset")) {
		max_write_ns = max_row_ns = max_pass_ns = 0;
		return 0;
	}
	console_printf("fbcon: %ux%u cells; under the console lock (irqs "
		       "off): write() max %llu ns, row copy max %llu ns; "
		       "drawing pass (preemptible) max %llu us over %lu passes\n",
		       fb.cols, fb.rows, (unsigned long long)max_write_ns,
		       (unsigned long long)max_row_ns,
		       (unsigned long long)max_pass_ns / 1000, nr_passes);
	return 0;
}
SHELL_COMMAND(fbcon, "screen console: grid, longest irqs-off write/row copy, longest draw (fbcon reset)", cmd_fbcon);

/* fbcon=off: leave the screen once boot is done (the negative case of
 * `make screen-test`). */
static int __init parse_fbcon(const char *val)
{
	if (val && !strcmp(val, "off"))
		fbcon_disabled = true;
	return 0;
}
CMDLINE_PARAM("fbcon", parse_fbcon);
