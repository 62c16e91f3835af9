/*
 * drivers/i8042.c - the PS/2 controller (i8042) and its keyboard port as
 * a second source of console input beside COM1.
 *
 * Found through ACPI: the FADT's IAPC_BOOT_ARCH "8042" flag (ACPI 6.5
 * 5.2.9.3, Table 5.11); a FADT too old to have the field, or no ACPI at
 * all, means a legacy PC, where the controller is assumed.  When the flag
 * says there is none (many UEFI machines), rtk says so once and goes on
 * without a keyboard.  The controller is then checked with its own
 * commands (self-test 0xaa -> 0x55, first-port test 0xab -> 0x00), the
 * second (mouse) port is left disabled, and translation (command byte
 * bit 6) is switched on so the keyboard's scancode set 2 arrives as set 1,
 * which drivers/atkbd.c decodes.
 *
 * Interrupt: ISA IRQ 1 through request_irq(), so under rt the handler
 * runs in the thread irq/1-i8042 (SCHED_FIFO, the irq threads' priority),
 * otherwise in hard-irq context - the same as the UART's irq/4-ttyS0.
 * It feeds the console's input ring with the serial line's no-loss rule:
 * a byte the ring refuses is kept (pending) and the controller is no
 * longer read, so the keyboard's own buffer holds the following keys;
 * the console calls i8042_resume() once room is back.  kbd_lock orders
 * the handler and the resume hook.  Linux counterpart:
 * drivers/input/serio/i8042.c (i8042_controller_selftest,
 * i8042_interrupt), much reduced: no mouse, no MUX, no PNP probing.
 * Reference: IBM PC AT Technical Reference (8042 commands, status bits).
 */
#include "drivers/i8042.h"
#include "drivers/atkbd.h"
#include "drivers/uart16550.h"
#include "kernel/console.h"
#include "kernel/irq/manage.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "kernel/time/ktime.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/raw_spinlock.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/io.h"
#include "lib/errno.h"

#define I8042_DATA 0x60
#define I8042_STATUS 0x64	/* read */
#define I8042_COMMAND 0x64	/* write */

#define STR_OBF 0x01		/* output buffer full: a byte to read */
#define STR_IBF 0x02		/* input buffer full: do not write yet */
#define STR_AUXDATA 0x20	/* the byte came from the second port */

#define CMD_READ_CTR 0x20
#define CMD_WRITE_CTR 0x60
#define CMD_AUX_DISABLE 0xa7
#define CMD_SELF_TEST 0xaa
#define CMD_KBD_TEST 0xab
#define CMD_KBD_DISABLE 0xad
#define CMD_KBD_ENABLE 0xae

#define CTR_KBD_INT 0x01	/* IRQ 1 on keyboard data */
#define CTR_AUX_INT 0x02
#define CTR_KBD_DISABLE 0x10	/* first port's clock off */
#define CTR_AUX_DISABLE 0x20
#define CTR_XLATE 0x40		/* translate set 2 to set 1 */

#define SELF_TEST_OK 0x55
#define KBD_ENABLE_SCANNING 0xf4
#define KBD_ACK 0xfa

#define I8042_IRQ 1
/* Linux's I8042_CTL_TIMEOUT: 10000 polls 50 us apart, half a second. */
#define POLL_TRIES 10000
#define POLL_US 50
/* A controller holds at most its buffer plus a keyboard's 16 keys. */
#define FLUSH_MAX 32

static int kbd_dev;	/* dev_id */
static DEFINE_RAW_SPINLOCK(kbd_lock);
/* Protected by kbd_lock: */
static struct atkbd kbd;
static int pending = -1;	/* a byte the ring refused, or -1 */
static bool stalled;		/* not reading the controller */
static unsigned long nr_bytes;	/* scancode bytes read */
static unsigned long nr_chars;	/* bytes handed to the console */
static unsigned long nr_runs, nr_stalls;

static bool wait_write(void)
{
	for (int i = 0; i < POLL_TRIES; i++) {
		if (!(inb(I8042_STATUS) & STR_IBF))
			return true;
		udelay(POLL_US);
	}
	return false;
}

static int read_data(void)
{
	for (int i = 0; i < POLL_TRIES; i++) {
		if (inb(I8042_STATUS) & STR_OBF)
			return inb(I8042_DATA);
		udelay(POLL_US);
	}
	return -ETIMEDOUT;
}

static int command(u8 cmd)
{
	if (!wait_write())
		return -ETIMEDOUT;
	outb(I8042_COMMAND, cmd);
	return 0;
}

static int write_data(u8 v)
{
	if (!wait_write())
		return -ETIMEDOUT;
	outb(I8042_DATA, v);
	return 0;
}

/* command_read - a command that answers with one byte. */
static int command_read(u8 cmd)
{
	int err = command(cmd);

	return err ? err : read_data();
}

static void flush_output(void)
{
	for (int i = 0; i < FLUSH_MAX && (inb(I8042_STATUS) & STR_OBF); i++)
		(void)inb(I8042_DATA);
}

/*
 * drain - move keyboard bytes into the console ring until the
 * controller is empty or the ring refuses one (kept in pending; then
 * stalled unless room came back meanwhile).
 * Context: the handler or the resume hook.  Locking: kbd_lock held.
 */
static bool drain(void)
{
	bool any = false;

	for (;;) {
		u8 st;
		int c;

		if (pending >= 0) {
			/* Leave the ring's last slot to the serial line
			 * (the diagram in kernel/console.c). */
			if (!console_input_char_spare(pending, 1)) {
				stalled = console_input_stall_spare(1);
				if (stalled) {
					nr_stalls++;
					return any;
				}
				continue;	/* room came back: retry */
			}
			pending = -1;
			nr_chars++;
		}
		st = inb(I8042_STATUS);
		if (!(st & STR_OBF))
			return any;
		c = inb(I8042_DATA);
		any = true;
		nr_bytes++;
		if (st & STR_AUXDATA)
			continue;	/* the mouse port is off; stray byte */
		pending = atkbd_decode(&kbd, (u8)c);
	}
}

/*
 * i8042_resume - the console has room again: hand over the kept byte
 * and read on.  Context: task (the console's reader).
 * Locking: takes kbd_lock.
 */
static void i8042_resume(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&kbd_lock, flags);
	if (stalled) {
		stalled = false;
		console_input_resumed();
		drain();
	}
	raw_spin_unlock_irqrestore(&kbd_lock, flags);
}

/*
 * i8042_interrupt - keyboard bytes to the console ring (see drain()).
 * Context: irq thread irq/1-i8042 (rt) or hardirq; never sleeps.
 * Locking: takes kbd_lock.
 */
static irqreturn_t i8042_interrupt(int irq, void *dev_id)
{
	unsigned long flags;
	bool any = false;

	(void)irq;
	(void)dev_id;
	raw_spin_lock_irqsave(&kbd_lock, flags);
	nr_runs++;
	if (!stalled)
		any = drain();
	raw_spin_unlock_irqrestore(&kbd_lock, flags);
	return any ? IRQ_HANDLED : IRQ_NONE;
}

/* [2]..[6] of i8042_init: returns the command byte to run with, or a
 * negative errno after saying what failed. */
static int __init controller_setup(void)
{
	int ctr, r;

	if (command(CMD_KBD_DISABLE) || command(CMD_AUX_DISABLE))
		goto out_timeout;
	flush_output();
	ctr = command_read(CMD_READ_CTR);	/* [3] */
	if (ctr < 0)
		goto out_timeout;
	ctr &= ~(CTR_KBD_INT | CTR_AUX_INT);
	ctr |= CTR_AUX_DISABLE | CTR_XLATE;
	r = command_read(CMD_SELF_TEST);	/* [4] */
	if (r != SELF_TEST_OK) {
		pr_warn("i8042: controller self-test failed (%#x, want %#x): "
			"no PS/2 keyboard\n", r, SELF_TEST_OK);
		return -EIO;
	}
	/* The self-test may reset the controller: write the byte after it. */
	if (command(CMD_WRITE_CTR) || write_data((u8)ctr))
		goto out_timeout;
	r = command_read(CMD_KBD_TEST);	/* [5] */
	if (r != 0) {
		pr_warn("i8042: keyboard port test failed (%#x): no PS/2 "
			"keyboard\n", r);
		return -EIO;
	}
	if (command(CMD_KBD_ENABLE))	/* [6] */
		goto out_timeout;
	ctr &= ~CTR_KBD_DISABLE;
	if (write_data(KBD_ENABLE_SCANNING) || read_data() != KBD_ACK)
		pr_info("i8042: keyboard did not ack enable-scanning (no "
			"keyboard plugged in?)\n");
	return ctr;

out_timeout:
	pr_warn("i8042: controller does not answer: no PS/2 keyboard\n");
	return -ETIMEDOUT;
}

/*
 * i8042_init - see i8042.h.
 *   [1] ACPI: no 8042 -> say so, stop.  A floating bus (status 0xff)
 *       means no controller either.
 *   [2] Both ports off, the output buffer emptied.
 *   [3] Read the command byte; interrupts off, translation on.
 *   [4] Controller self-test; write the command byte again.
 *   [5] Keyboard port test.
 *   [6] Port on, the keyboard told to scan.
 *   [7] IRQ 1 requested (thread irq/1-i8042 under rt), then its
 *       interrupt enabled in the command byte.
 */
void __init i8042_init(void)
{
	unsigned long flags;
	int ctr, err;

	might_sleep();
	if (acpi.have_fadt && !acpi.fadt.has_8042) {	/* [1] */
		pr_info("i8042: ACPI FADT says there is no 8042: no PS/2 "
			"keyboard (USB keyboards need the firmware's legacy "
			"emulation, which sets the flag)\n");
		return;
	}
	if (inb(I8042_STATUS) == 0xff) {
		pr_info("i8042: no controller at 0x60/0x64: no PS/2 keyboard\n");
		return;
	}
	ctr = controller_setup();	/* [2]..[6] */
	if (ctr < 0)
		return;
	raw_spin_lock_irqsave(&kbd_lock, flags);
	atkbd_init(&kbd);
	raw_spin_unlock_irqrestore(&kbd_lock, flags);
	console_set_input_resume_extra(i8042_resume);
	err = request_irq(I8042_IRQ, i8042_interrupt, 0, "i8042", &kbd_dev);
	if (err) {	/* [7] */
		pr_warn("i8042: irq %d not requested (%d): no PS/2 keyboard\n",
			I8042_IRQ, err);
		return;
	}
	if (command(CMD_WRITE_CTR) || write_data((u8)(ctr | CTR_KBD_INT))) {
		pr_warn("i8042: cannot enable the keyboard interrupt\n");
		return;
	}
	/* Without a UART nothing polls: the keyboard's interrupt is now the
	 * input's producer, and the reader may sleep between keys. */
	if (!uart_present())
		console_set_input_irq(true);
	pr_info("i8042: PS/2 keyboard on irq %d (%s), scancode set 2 "
		"translated to set 1\n", I8042_IRQ,
		irq_is_threaded(I8042_IRQ) ? "thread irq/1-i8042" : "hard irq");
}

/* i8042_ignored_scancodes - bytes the decoder made nothing of (the
 * garbage-input test reads it).  Context: any. */
unsigned long i8042_ignored_scancodes(void)
{
	return READ_ONCE(kbd.ignored);
}

/* cmd_kbd - `kbd`: the keyboard's counters and state, for a report when
 * typing does nothing. */
static int cmd_kbd(int argc, char **argv)
{
	unsigned long flags;
	struct atkbd k;
	unsigned long runs, bytes, chars, stalls;
	bool st;
	int pend;
	u8 status;

	(void)argc;
	(void)argv;
	raw_spin_lock_irqsave(&kbd_lock, flags);
	k = kbd;
	runs = nr_runs;
	bytes = nr_bytes;
	chars = nr_chars;
	stalls = nr_stalls;
	st = stalled;
	pend = pending;
	status = inb(I8042_STATUS);
	raw_spin_unlock_irqrestore(&kbd_lock, flags);
	console_printf("i8042: %lu handler runs, %lu scancodes, %lu chars, "
		       "%lu ignored, %lu stalls; status %#x%s\n", runs, bytes,
		       chars, k.ignored, stalls, status,
		       st ? " (stalled)" : "");
	console_printf("keys: shift %d/%d ctrl %d/%d caps %d extended %d "
		       "skip %d pending %d\n", k.shift_left, k.shift_right,
		       k.ctrl_left, k.ctrl_right, k.caps_lock, k.extended,
		       k.skip, pend);
	return 0;
}
SHELL_COMMAND(kbd, "PS/2 keyboard: counters, modifier state, controller status", cmd_kbd);
