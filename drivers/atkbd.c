/*
 * drivers/atkbd.c - scancode set 1 to bytes (see atkbd.h).
 *
 * The i8042 translates the keyboard's set 2 into set 1 (command byte bit
 * 6, drivers/i8042.c): one byte per make code, the same byte | 0x80 for
 * the break, 0xe0 before the extended keys, 0xe1 before Pause's six-byte
 * sequence.  Only what the shell uses makes a byte: the US layout's
 * printable keys with shift and caps lock, enter (both), backspace, and
 * ctrl with a letter (ctrl-C and ctrl-U are the shell's interrupt and
 * line kill, as on the serial line).  Everything else - function keys,
 * arrows, the keyboard's own replies (0xfa ACK, 0xaa self-test passed,
 * 0xfe resend, 0x00/0xff overrun) and codes no key has - is counted in
 * kbd->ignored and makes nothing, so garbage never reaches the shell.
 * Linux counterpart: drivers/input/keyboard/atkbd.c with the keymap of
 * drivers/tty/vt/defkeymap.map; rtk has no input layer and no keymaps.
 * Reference: the IBM PC AT Technical Reference, keyboard scan codes.
 */
#include "drivers/atkbd.h"

#define SC_ESC 0x01
#define SC_BACKSPACE 0x0e
#define SC_ENTER 0x1c
#define SC_CTRL 0x1d
#define SC_SHIFT_LEFT 0x2a
#define SC_SHIFT_RIGHT 0x36
#define SC_CAPS_LOCK 0x3a
#define SC_BREAK 0x80
#define SC_EXTENDED 0xe0
#define SC_PAUSE 0xe1
#define PAUSE_LEN 5	/* bytes after 0xe1: 1d 45 e1 9d c5 */

/* Set 1 make codes 0x00..0x39 -> US layout, unshifted and shifted; 0 for
 * keys that are not characters. */
static const char keymap[0x3a][2] = {
	[0x02] = { '1', '!' }, [0x03] = { '2', '@' }, [0x04] = { '3', '#' },
	[0x05] = { '4', '$' }, [0x06] = { '5', '%' }, [0x07] = { '6', '^' },
	[0x08] = { '7', '&' }, [0x09] = { '8', '*' }, [0x0a] = { '9', '(' },
	[0x0b] = { '0', ')' }, [0x0c] = { '-', '_' }, [0x0d] = { '=', '+' },
	[0x10] = { 'q', 'Q' }, [0x11] = { 'w', 'W' }, [0x12] = { 'e', 'E' },
	[0x13] = { 'r', 'R' }, [0x14] = { 't', 'T' }, [0x15] = { 'y', 'Y' },
	[0x16] = { 'u', 'U' }, [0x17] = { 'i', 'I' }, [0x18] = { 'o', 'O' },
	[0x19] = { 'p', 'P' }, [0x1a] = { '[', '{' }, [0x1b] = { ']', '}' },
	[0x1e] = { 'a', 'A' }, [0x1f] = { 's', 'S' }, [0x20] = { 'd', 'D' },
	[0x21] = { 'f', 'F' }, [0x22] = { 'g', 'G' }, [0x23] = { 'h', 'H' },
	[0x24] = { 'j', 'J' }, [0x25] = { 'k', 'K' }, [0x26] = { 'l', 'L' },
	[0x27] = { ';', ':' }, [0x28] = { '\'', '"' }, [0x29] = { '`', '~' },
	[0x2b] = { '\\', '|' }, [0x2c] = { 'z', 'Z' }, [0x2d] = { 'x', 'X' },
	[0x2e] = { 'c', 'C' }, [0x2f] = { 'v', 'V' }, [0x30] = { 'b', 'B' },
	[0x31] = { 'n', 'N' }, [0x32] = { 'm', 'M' }, [0x33] = { ',', '<' },
	[0x34] = { '.', '>' }, [0x35] = { '/', '?' }, [0x39] = { ' ', ' ' },
};

void atkbd_init(struct atkbd *kbd)
{
	*kbd = (struct atkbd){ 0 };
}

static int ignore(struct atkbd *kbd)
{
	kbd->ignored++;
	return -1;
}

/* key - a make code (no prefix) to its byte. */
static int key(struct atkbd *kbd, u8 code)
{
	bool shift = kbd->shift_left || kbd->shift_right;
	bool ctrl = kbd->ctrl_left || kbd->ctrl_right;
	char c;

	if (code == SC_ENTER)
		return '\r';	/* what a terminal sends for Enter */
	if (code == SC_BACKSPACE)
		return 0x7f;	/* DEL, as most terminals send it */
	if (code >= sizeof(keymap) / sizeof(keymap[0]) || !keymap[code][0])
		return ignore(kbd);	/* esc, tab, F-keys, keypad, garbage */
	c = keymap[code][0];
	if (c >= 'a' && c <= 'z') {
		if (ctrl)
			return c - 'a' + 1;	/* ctrl-A = 0x01 ... */
		if (shift != kbd->caps_lock)
			c = keymap[code][1];
		return c;
	}
	if (ctrl)
		return ignore(kbd);	/* ctrl with a non-letter: unused */
	return keymap[code][shift];
}

int atkbd_decode(struct atkbd *kbd, u8 sc)
{
	bool extended = kbd->extended;
	bool release = sc & SC_BREAK;
	u8 code = sc & ~SC_BREAK;

	if (kbd->skip) {
		kbd->skip--;
		return ignore(kbd);
	}
	if (sc == SC_PAUSE) {
		kbd->skip = PAUSE_LEN;
		return ignore(kbd);
	}
	if (sc == SC_EXTENDED) {
		kbd->extended = true;
		return -1;
	}
	kbd->extended = false;
	/* The modifiers first: their state follows make and break. */
	if (code == SC_CTRL) {
		if (extended)
			kbd->ctrl_right = !release;
		else
			kbd->ctrl_left = !release;
		return -1;
	}
	if (extended) {
		/* Keypad enter is the one extended key rtk uses; the 0xe0 2a
		 * / 0xe0 36 fake shifts around some keys are ignored too. */
		if (code == SC_ENTER && !release)
			return '\r';
		return ignore(kbd);
	}
	if (code == SC_SHIFT_LEFT || code == SC_SHIFT_RIGHT) {
		if (code == SC_SHIFT_LEFT)
			kbd->shift_left = !release;
		else
			kbd->shift_right = !release;
		return -1;
	}
	if (release)
		return -1;
	if (code == SC_CAPS_LOCK) {
		kbd->caps_lock = !kbd->caps_lock;
		return -1;
	}
	if (code == SC_ESC || code == 0)
		return ignore(kbd);
	return key(kbd, code);
}
