/*
 * tests/kernel/test_fbcon.c - the fbcon suite: which framebuffers the
 * screen console takes and which it leaves (with one message) to the
 * serial line and VGA text.
 *
 * Scenario (single task, every model and CPU count): a 1024x768 32 bpp
 * x8r8g8b8 framebuffer (OVMF's and QEMU VBE's) and 16/24 bpp RGB ones
 * are taken; an 8 bpp indexed one (type 0), EGA text (type 2), a 30 bpp
 * 10:10:10 one (colour fields wider than 8 bits), a field outside the
 * pixel, a pitch shorter than a line, and a mode smaller than one glyph
 * are refused.  The predicate is the one fbcon_init() runs on the boot
 * loader's tag, so a boot with any refused format keeps serial (and VGA
 * text) and prints the one "not supported" line.
 */
#include "kernel/ktest.h"
#include "drivers/fbcon.h"
#include "arch/x86_64/arch.h"

static struct boot_info fb_xrgb(void)
{
	struct boot_info b = { 0 };

	b.has_framebuffer = true;
	b.fb_addr = 0xfd000000;
	b.fb_width = 1024;
	b.fb_height = 768;
	b.fb_pitch = 4096;
	b.fb_bpp = 32;
	b.fb_type = 1;
	b.fb_red_pos = 16;
	b.fb_red_size = 8;
	b.fb_green_pos = 8;
	b.fb_green_size = 8;
	b.fb_blue_pos = 0;
	b.fb_blue_size = 8;
	return b;
}

static void test_rgb_16_24_32_bpp_are_taken(struct ktest *t)
{
	struct boot_info b = fb_xrgb();

	KTEST_EXPECT(t, fbcon_format_supported(&b), "xrgb8888 refused");
	b.fb_bpp = 24;
	b.fb_pitch = 3072;
	KTEST_EXPECT(t, fbcon_format_supported(&b), "rgb888 refused");
	b.fb_bpp = 16;
	b.fb_pitch = 2048;
	b.fb_red_pos = 11;
	b.fb_red_size = 5;
	b.fb_green_pos = 5;
	b.fb_green_size = 6;
	b.fb_blue_size = 5;
	KTEST_EXPECT(t, fbcon_format_supported(&b), "rgb565 refused");
}

static void test_unsupported_formats_are_refused(struct ktest *t)
{
	struct boot_info b;

	b = fb_xrgb();
	b.fb_type = 0;
	b.fb_bpp = 8;
	KTEST_EXPECT(t, !fbcon_format_supported(&b), "8 bpp indexed taken");
	b = fb_xrgb();
	b.fb_type = 2;
	KTEST_EXPECT(t, !fbcon_format_supported(&b), "EGA text taken");
	b = fb_xrgb();
	b.fb_bpp = 30;
	b.fb_red_pos = 20;
	b.fb_red_size = 10;
	b.fb_green_pos = 10;
	b.fb_green_size = 10;
	b.fb_blue_size = 10;
	KTEST_EXPECT(t, !fbcon_format_supported(&b), "10:10:10 taken");
	b = fb_xrgb();
	b.fb_red_pos = 28;
	KTEST_EXPECT(t, !fbcon_format_supported(&b), "field outside pixel taken");
	b = fb_xrgb();
	b.fb_pitch = 1024;
	KTEST_EXPECT(t, !fbcon_format_supported(&b), "short pitch taken");
	b = fb_xrgb();
	b.fb_width = 4;
	KTEST_EXPECT(t, !fbcon_format_supported(&b), "mode below a glyph taken");
}

KTEST_SUITE(fbcon, KTEST_CASE(test_rgb_16_24_32_bpp_are_taken),
	    KTEST_CASE(test_unsupported_formats_are_refused));
