/*
 * kernel/shell/shell.h - the serial console shell and its command table.
 *
 * A command group is one file kernel/shell/cmd_<group>.c:
 *	static int cmd_uptime(int argc, char **argv) { ... return 0; }
 *	SHELL_COMMAND(uptime, "time since boot and CPUs online", cmd_uptime);
 * Commands register through the .shell_cmds linker section.  A command
 * returns 0 or a negative errno (the shell prints the error name).
 */
#ifndef KERNEL_SHELL_SHELL_H
#define KERNEL_SHELL_SHELL_H

#include "lib/compiler.h"

struct shell_command {
	const char *name;
	const char *help;	/* one line, shown by `help` */
	int (*run)(int argc, char **argv);
};

#define SHELL_COMMAND(cname, helptext, fn)                                   \
	static const struct shell_command __shell_cmd_##cname __used          \
		__attribute__((section(".shell_cmds"), aligned(8))) = {        \
			.name = #cname,                                       \
			.help = helptext,                                     \
			.run = fn,                                            \
		}

#define SHELL_PROMPT "rtk> "
#define SHELL_LINE_MAX 256
#define SHELL_ARGS_MAX 32

/* shell_run - read and run commands forever.  Context: task. */
void shell_run(void) __noreturn;
/* shell_execute - split line into words and run the command; returns its
 * result or -ENOENT for an unknown command.  line is modified. */
int shell_execute(char *line);
/* shell_read_line - read one edited line for commands that take input
 * (pitest scripts).  Returns the length, or -EINTR on ctrl-C. */
int shell_read_line(char *buf, int size, bool echo);
/* shell_interrupted - true once ctrl-C arrived since the last call; for
 * long-running commands (cyclictest) to stop early. */
bool shell_interrupted(void);

/*
 * shell_parse_long - s as a decimal number in min..max into *out.  On a
 * mistake prints one line and returns its errno:
 *	"<cmd>: <what> '<s>' is not a number"		-EINVAL
 *	"<cmd>: <what> <s> out of range (<min>..<max>)"	-ERANGE
 * (also when kstrtol itself overflows).  Context: task (the shell).
 */
int shell_parse_long(const char *cmd, const char *what, const char *s,
		     long min, long max, long *out);
/* shell_usage - print "usage: <line>" and return -EINVAL. */
int shell_usage(const char *line);
/* shell_no_args - for commands without arguments: with any, print
 * "usage: <cmd> (no arguments)" and return -EINVAL; else 0. */
int shell_no_args(int argc, char **argv);

#endif /* KERNEL_SHELL_SHELL_H */
