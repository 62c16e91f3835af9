/*
 * tests/kernel/test_user_tty.c - /dev/console's line discipline and
 * termios calls (kernel/fs/tty_console.c), driven from ring 3 by
 * user/tests/t_tty.c (its header lists every check).
 *
 * Scenario: [1] the console's input ring is drained of anything typed
 * before; [2] the bytes t_tty expects are queued as a keyboard or the
 * UART would queue them (console_input_char), all before it starts, so
 * no read depends on when a byte arrives; [3] t_tty must exit 0 (its
 * exit code is its failed checks, each printed with what it expected
 * and saw); [4] nothing of the input is left in the ring: every byte was
 * read by the line discipline, none leaks to the kernel shell.
 * The kernel shell does not read meanwhile: the suite runs from it (or
 * before it, at boot) and waits for the program.
 */
#include "tests/kernel/user_helpers.h"
#include "kernel/ktest.h"
#include "kernel/console.h"
#include "lib/string.h"

/* t_tty's input, in the order of its reads: erase, kill, a line read in
 * pieces, the line left by a faulting read, raw bytes, a CR read raw,
 * then ^D */
static const char tty_input[] = "ab\177c\r"
				"xy\025zw\n"
				"hello\n"
				"bad\n"
				"qrs\r"
				"\004";

static void test_user_tty_line_discipline_answers_as_linux(struct ktest *t)
{
	size_t queued = 0;
	int status, left = 0;

	if (!user_have_program(t, "t_tty"))
		return;
	while (console_trygetc() >= 0)					/* [1] */
		;
	for (size_t i = 0; i < sizeof(tty_input) - 1; i++)		/* [2] */
		queued += console_input_char((u8)tty_input[i]);
	KTEST_EXPECT(t, queued == sizeof(tty_input) - 1,
		     "queued %zu of %zu input bytes", queued,
		     sizeof(tty_input) - 1);
	status = user_run(t, "t_tty");					/* [3] */
	KTEST_EXPECT(t, status == 0, "t_tty: expected exit 0, got status %#x "
		     "(failed checks listed above)", status);
	while (console_trygetc() >= 0)					/* [4] */
		left++;
	KTEST_EXPECT(t, left == 0, "input left in the ring: want 0, saw %d",
		     left);
}

KTEST_SUITE(user_tty,
	    KTEST_CASE(test_user_tty_line_discipline_answers_as_linux));
