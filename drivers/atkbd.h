/*
 * drivers/atkbd.h - an AT keyboard's scancodes (set 1, as the i8042 hands
 * them over with translation on) decoded into the bytes a serial
 * terminal would send for the same keys.
 */
#ifndef DRIVERS_ATKBD_H
#define DRIVERS_ATKBD_H

#include "lib/types.h"

struct atkbd {
	bool shift_left, shift_right;	/* held */
	bool ctrl_left, ctrl_right;	/* held */
	bool caps_lock;			/* toggled by each press */
	bool extended;			/* an 0xe0 prefix came */
	u8 skip;			/* bytes of an 0xe1 (Pause) sequence left */
	unsigned long ignored;		/* scancodes that made no byte */
};

/* atkbd_init - no key held, caps lock off. */
void atkbd_init(struct atkbd *kbd);

/*
 * atkbd_decode - feed one scancode byte; returns the byte the key makes
 * ('\r' for enter, 0x7f for backspace, ctrl-A..Z as 0x01..0x1a) or -1
 * when it makes none (a release, a modifier, a prefix, a key rtk has no
 * use for, or garbage).  Context: any.  Locking: the caller serialises
 * calls on one kbd.
 */
int atkbd_decode(struct atkbd *kbd, u8 scancode);

#endif /* DRIVERS_ATKBD_H */
