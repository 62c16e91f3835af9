/*
 * kernel/shell/cmd_pitest.c - `pitest`: run a PI tester script
 * (kernel/workloads/rttester.h): `pitest NAME` a built-in one
 * (tests/pi/NAME.tst), `pitest list` their names, `pitest script` one
 * typed or pasted at the console up to a line `end`.  `pitest` alone
 * prints its usage: entering script mode by default swallowed the next
 * command typed.  Answers "pitest: PASS" or
 * "pitest: FAIL line N: <line> (<seen>)".
 * Linux counterpart: scripts/rt-tester/rt-tester.py reading a script
 * from stdin.
 */
#include "kernel/shell/shell.h"
#include "kernel/workloads/rttester.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/errno.h"

/* The longest of Linux's scripts, with its header comment, is ~3 KiB. */
#define PITEST_SCRIPT_MAX 16384

static char pitest_buf[PITEST_SCRIPT_MAX];	/* one shell, one script */

/* Read lines into pitest_buf up to `end`; -EINTR on ctrl-C, -E2BIG. */
static int pitest_read_script(void)
{
	char line[SHELL_LINE_MAX];
	size_t used = 0;
	int len;

	console_printf("pitest: enter the script, finish with a line 'end'\n");
	for (;;) {
		len = shell_read_line(line, sizeof(line), true);
		if (len < 0)
			return len;
		if (!strcmp(line, "end"))
			break;
		if (used + len + 2 > sizeof(pitest_buf))
			return -E2BIG;
		memcpy(pitest_buf + used, line, len);
		used += len;
		pitest_buf[used++] = '\n';
	}
	pitest_buf[used] = '\0';
	return 0;
}

static int cmd_pitest(int argc, char **argv)
{
	struct rttest_result res;
	const struct pi_script *s;
	int i, ret;

	if (argc != 2) {
		console_printf("usage: pitest NAME | pitest list | pitest script "
			       "(then the script's lines, up to a line 'end')\n");
		return -EINVAL;
	}
	if (!strcmp(argv[1], "list")) {
		for (i = 0; i < nr_pi_scripts; i++)
			console_printf("%s\n", pi_scripts[i].name);
		return 0;
	}
	if (strcmp(argv[1], "script")) {
		s = pi_script_find(argv[1]);
		if (!s) {
			console_printf("pitest: no built-in script %s "
				       "(pitest list)\n", argv[1]);
			return -ENOENT;
		}
		rttest_run_script(s->text, &res);
	} else {
		ret = pitest_read_script();
		if (ret)
			return ret;
		rttest_run_script(pitest_buf, &res);
	}
	rttest_print_result(&res);
	return 0;
}
SHELL_COMMAND(pitest, "run a PI tester script (NAME, list, script: typed up to 'end')",
	      cmd_pitest);
