/*
 * user/tests/t_tty.c - /dev/console's read side as a program sees it
 * (kernel/fs/tty_console.c).  tests/kernel/test_user_tty.c queues the
 * input below into the console's ring before it starts the program, so
 * every read finds its bytes waiting; the program checks, on fd 0:
 *   1. TCGETS gives Linux's defaults (ICANON, ECHO, ISIG, ICRNL; VEOF
 *      ^D, VERASE DEL); TCSETS without ECHO is 0 (the rest quiet);
 *   2. canonical reads: "ab<DEL>c<CR>" reads as "ac\n" (VERASE, ICRNL);
 *      "xy<^U>zw\n" as "zw\n" (VKILL); "hello\n" read 2 bytes at a time
 *      gives "he", "ll", "o\n" (the rest of a line stays);
 *   3. a bad buffer is -EFAULT and the line stays: the next read gets
 *      "bad\n"; poll sees POLLIN while a line waits;
 *   4. non-canonical (ICANON off, VMIN 1): "qrs" comes as it is, no line
 *      needed, CR kept as NL under ICRNL;
 *   5. canonical again: ^D on an empty line is end of file (read 0);
 *   6. bad input: TCSETS from a bad pointer -EFAULT, an unknown ioctl
 *      -ENOTTY, a zero-byte read 0 without consuming anything.
 * The exit status is the number of failed checks, each printed with what
 * was expected and what was seen.
 */
#include "user/lib/ulib.h"

static int failures;

static void check(const char *what, long got, long expected)
{
	if (got != expected) {
		failures++;
		printf("FAIL t_tty %s: expected %ld, got %ld\n", what, expected,
		       got);
	}
}

static void check_read(const char *what, size_t count, const char *want)
{
	char buf[64];
	long n = read(0, buf, count);
	size_t len = strlen(want);

	check(what, n, (long)len);
	if (n == (long)len && memcmp(buf, want, len)) {
		failures++;
		buf[n] = '\0';
		printf("FAIL t_tty %s: expected \"%s\", got \"%s\"\n", what,
		       want, buf);
	}
}

int main(int argc, char **argv)
{
	struct termios t, quiet, raw;
	struct pollfd pfd = { .fd = 0, .events = POLLIN };

	check("TCGETS", ioctl(0, TCGETS, &t), 0);			/* 1 */
	check("ICANON|ECHO|ISIG on", (t.c_lflag & (ICANON | ECHO | ISIG)) ==
					      (ICANON | ECHO | ISIG), 1);
	check("ICRNL on", !!(t.c_iflag & ICRNL), 1);
	check("VEOF is ^D", t.c_cc[VEOF], 4);
	check("VERASE is DEL", t.c_cc[VERASE], 0177);
	quiet = t;
	quiet.c_lflag &= ~ECHO;
	check("TCSETS without ECHO", ioctl(0, TCSETS, &quiet), 0);
	check_read("erase and CR", 64, "ac\n");				/* 2 */
	check_read("kill", 64, "zw\n");
	check_read("short read 1", 2, "he");
	check_read("short read 2", 2, "ll");
	check_read("short read 3", 2, "o\n");
	check("poll sees the waiting line", poll(&pfd, 1, 0), 1);	/* 3 */
	check("... POLLIN", !!(pfd.revents & POLLIN), 1);
	check("read into a bad buffer", read(0, (void *)8, 16), -EFAULT);
	check_read("the line stayed", 64, "bad\n");
	raw = quiet;							/* 4 */
	raw.c_lflag &= ~ICANON;
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	check("TCSETS raw", ioctl(0, TCSETS, &raw), 0);
	check_read("raw bytes, no line", 3, "qrs");
	check_read("raw CR as NL", 1, "\n");
	check("TCSETS canonical", ioctl(0, TCSETS, &quiet), 0);		/* 5 */
	check("zero-byte read", read(0, &raw, 0), 0);			/* 6 */
	check_read("^D on an empty line is EOF", 64, "");
	check("TCSETS from a bad pointer", ioctl(0, TCSETS, (void *)8),
	      -EFAULT);
	check("unknown ioctl", ioctl(0, 0x54ff, &t), -ENOTTY);
	check("TCSETS back to the defaults", ioctl(0, TCSETS, &t), 0);
	printf("t_tty: %s (%d failed)\n", failures ? "FAILED" : "ok",
	       failures);
	return failures;
}
