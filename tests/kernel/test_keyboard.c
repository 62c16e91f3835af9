/*
 * tests/kernel/test_keyboard.c - the keyboard suite: scancode decoding
 * (drivers/atkbd.c) and the keyboard's place in the console input ring
 * beside the serial line (kernel/console.c).
 *
 * Scenario (single task, every CPU count and model; what must be
 * observable):
 *   [1] letters follow shift and caps lock; digits and punctuation
 *       follow shift only;
 *   [2] ctrl (left, and right = e0 1d) with C and U makes 0x03 and 0x15,
 *       the bytes a terminal sends, and stops when ctrl is released;
 *   [3] enter (main and keypad) is '\r', backspace 0x7f;
 *   [4] unmapped keys (F1, Esc, Tab, arrows, keypad *, Pause's e1
 *       sequence) make no byte and are counted as ignored;
 *   [5] 20000 pseudo-random bytes (garbage from a broken keyboard or a
 *       key-repeat flood of anything) make only bytes the shell reads as
 *       text or its own control keys, never anything else; after all
 *       modifiers are released, 'a' is 'a' or 'A' as caps lock says;
 *   [6] the diagram "CPU0 irq/4-ttyS0 / CPU1 irq/1-i8042" in
 *       kernel/console.c: with one slot free the keyboard's insertion
 *       (spare 1) is refused and the serial line's still fits.
 * [6] fills the console ring itself: nobody may type during the suite.
 */
#include "kernel/ktest.h"
#include "kernel/console.h"
#include "drivers/atkbd.h"
#include "lib/string.h"

#define RING 4096	/* kernel/console.c INPUT_RING */

/* feed - decode a scancode sequence, the bytes made into out. */
static int feed(struct atkbd *k, const u8 *sc, int n, char *out)
{
	int made = 0;

	for (int i = 0; i < n; i++) {
		int c = atkbd_decode(k, sc[i]);

		if (c >= 0)
			out[made++] = (char)c;
	}
	out[made] = '\0';
	return made;
}

static void test_shift_and_caps_lock_change_letters(struct ktest *t)
{
	/* a, shift-a, 1, shift-1, caps, a, shift-a, 1, caps */
	static const u8 sc[] = { 0x1e, 0x9e, 0x2a, 0x1e, 0x9e, 0xaa,
				 0x02, 0x82, 0x36, 0x02, 0x82, 0xb6,
				 0x3a, 0xba, 0x1e, 0x9e, 0x2a, 0x1e, 0x9e,
				 0xaa, 0x02, 0x82, 0x3a, 0xba, 0x1e };
	struct atkbd k;
	char out[32];

	atkbd_init(&k);		/* [1] */
	feed(&k, sc, sizeof(sc), out);
	KTEST_EXPECT(t, !strcmp(out, "aA1!Aa1a"), "made '%s', want 'aA1!Aa1a'",
		     out);
}

static void test_ctrl_c_and_ctrl_u_make_terminal_bytes(struct ktest *t)
{
	/* ctrl down, c, u, ctrl up, c; right ctrl down, c, up */
	static const u8 sc[] = { 0x1d, 0x2e, 0xae, 0x16, 0x96, 0x9d, 0x2e,
				 0xae, 0xe0, 0x1d, 0x2e, 0xae, 0xe0, 0x9d };
	struct atkbd k;
	char out[16];

	atkbd_init(&k);		/* [2] */
	KTEST_ASSERT_EQ(t, feed(&k, sc, sizeof(sc), out), 4);
	KTEST_EXPECT_EQ(t, out[0], 0x03);
	KTEST_EXPECT_EQ(t, out[1], 0x15);
	KTEST_EXPECT_EQ(t, out[2], 'c');
	KTEST_EXPECT_EQ(t, out[3], 0x03);
}

static void test_enter_and_backspace(struct ktest *t)
{
	static const u8 sc[] = { 0x1c, 0x9c, 0xe0, 0x1c, 0xe0, 0x9c, 0x0e,
				 0x8e };
	struct atkbd k;
	char out[8];

	atkbd_init(&k);		/* [3] */
	feed(&k, sc, sizeof(sc), out);
	KTEST_EXPECT(t, !strcmp(out, "\r\r\x7f"),
		     "made %02x %02x %02x, want 0d 0d 7f", (u8)out[0],
		     (u8)out[1], (u8)out[2]);
}

static void test_unmapped_keys_make_nothing(struct ktest *t)
{
	/* F1, Esc, Tab, up arrow, keypad *, Pause (e1 1d 45 e1 9d c5) */
	static const u8 sc[] = { 0x3b, 0xbb, 0x01, 0x81, 0x0f, 0x8f, 0xe0,
				 0x48, 0xe0, 0xc8, 0x37, 0xb7, 0xe1, 0x1d,
				 0x45, 0xe1, 0x9d, 0xc5, 0x1e };
	struct atkbd k;
	char out[8];

	atkbd_init(&k);		/* [4] */
	feed(&k, sc, sizeof(sc), out);
	KTEST_EXPECT(t, !strcmp(out, "a"), "made '%s', want only the final 'a'",
		     out);
	KTEST_EXPECT(t, k.ignored >= 6, "%lu ignored, want >= 6", k.ignored);
}

static bool shell_byte(int c)
{
	return (c >= 0x20 && c <= 0x7e) || c == '\r' || c == 0x7f ||
	       (c >= 0x01 && c <= 0x1a);
}

static void test_garbage_makes_only_shell_bytes(struct ktest *t)
{
	static const u8 release[] = { 0x9d, 0xe0, 0x9d, 0xaa, 0xb6 };
	struct atkbd k;
	u32 seed = 12345;
	int bad = -1, c;

	atkbd_init(&k);		/* [5] */
	for (int i = 0; i < 20000; i++) {
		seed = seed * 1103515245u + 12345u;	/* ANSI C's rand() */
		c = atkbd_decode(&k, (u8)(seed >> 16));
		if (c >= 0 && !shell_byte(c) && bad < 0)
			bad = c;
	}
	KTEST_EXPECT(t, bad < 0, "garbage made byte %#x", bad);
	for (unsigned int i = 0; i < sizeof(release); i++)
		atkbd_decode(&k, release[i]);
	k.skip = 0;	/* a Pause sequence cut short by the garbage */
	c = atkbd_decode(&k, 0x1e);
	KTEST_EXPECT_EQ(t, c, k.caps_lock ? 'A' : 'a');
}

static void test_keyboard_leaves_the_last_slot_to_serial(struct ktest *t)
{
	int n = 0, c, bad = -1;

	while (console_trygetc() >= 0)	/* [6] */
		;
	while (n < RING - 1 && console_input_char(n & 0x7f))
		n++;
	KTEST_ASSERT_EQ(t, n, RING - 1);
	KTEST_EXPECT(t, !console_input_char_spare('k', 1),
		     "keyboard took the last free slot");
	KTEST_EXPECT(t, console_input_char('s'), "serial byte refused with "
		     "one slot free");
	for (int i = 0; i < RING; i++) {
		c = console_trygetc();
		if (c != (i < RING - 1 ? (i & 0x7f) : 's') && bad < 0)
			bad = i;
	}
	KTEST_EXPECT(t, bad < 0, "byte %d came back wrong", bad);
	KTEST_EXPECT_EQ(t, console_trygetc(), -1);
}

KTEST_SUITE(keyboard, KTEST_CASE(test_shift_and_caps_lock_change_letters),
	    KTEST_CASE(test_ctrl_c_and_ctrl_u_make_terminal_bytes),
	    KTEST_CASE(test_enter_and_backspace),
	    KTEST_CASE(test_unmapped_keys_make_nothing),
	    KTEST_CASE(test_garbage_makes_only_shell_bytes),
	    KTEST_CASE(test_keyboard_leaves_the_last_slot_to_serial));
