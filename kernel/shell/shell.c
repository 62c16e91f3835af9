/*
 * kernel/shell/shell.c - the `rtk> ` prompt: line editing, word
 * splitting and command dispatch.
 *
 * Input bytes come from the console input queue (kernel/console.c).
 * Editing: printable ASCII is echoed and stored; backspace/DEL erase one
 * character; ctrl-U erases the line; ctrl-C drops it.  Everything else
 * (NUL, other control characters, escape sequences such as arrow keys,
 * bytes >= 0x80) is ignored, and a line longer than SHELL_LINE_MAX - 1
 * is rejected whole when Enter arrives, so no input can overflow or
 * wedge the reader.  Like xv6's sh.c, small and plain.
 */
#include "kernel/shell/shell.h"
#include "kernel/console.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

extern const struct shell_command __shell_cmds_start[];
extern const struct shell_command __shell_cmds_end[];

#define CTRL(c) ((c) & 0x1f)
#define ESC 0x1b

static bool ctrl_c_seen;

/* Input typed while a command ran (see shell_interrupted). */
static char typeahead[256];
static unsigned int typeahead_len, typeahead_pos;

/* shell_getc - the next byte: typed-ahead ones first.  Context: task. */
static int shell_getc(void)
{
	if (typeahead_pos < typeahead_len) {
		int c = (unsigned char)typeahead[typeahead_pos++];

		if (typeahead_pos == typeahead_len)
			typeahead_len = typeahead_pos = 0;
		return c;
	}
	return console_getc();
}

bool shell_interrupted(void)
{
	int c;

	/* A long-running command polls us: look at waiting input for ^C.
	 * Other bytes are typed ahead: keep them for the next line (as a
	 * tty does) instead of eating them; ^C flushes them, as ISIG does. */
	while (typeahead_len < sizeof(typeahead) &&
	       (c = console_trygetc()) >= 0) {
		if (c == CTRL('C')) {
			ctrl_c_seen = true;
			typeahead_len = typeahead_pos = 0;
		} else {
			typeahead[typeahead_len++] = (char)c;
		}
	}
	if (ctrl_c_seen) {
		ctrl_c_seen = false;
		return true;
	}
	return false;
}

int shell_parse_long(const char *cmd, const char *what, const char *s,
		     long min, long max, long *out)
{
	long v;
	int ret = kstrtol(s, 10, &v);

	if (ret == -ERANGE || (!ret && (v < min || v > max))) {
		console_printf("%s: %s %s out of range (%ld..%ld)\n", cmd, what,
			       s, min, max);
		return -ERANGE;
	}
	if (ret) {
		console_printf("%s: %s '%s' is not a number\n", cmd, what, s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int shell_usage(const char *line)
{
	console_printf("usage: %s\n", line);
	return -EINVAL;
}

int shell_no_args(int argc, char **argv)
{
	if (argc <= 1)
		return 0;
	console_printf("usage: %s (no arguments)\n", argv[0]);
	return -EINVAL;
}

static void erase_chars(int n)
{
	while (n-- > 0)
		console_write("\b \b", 3);
}

/*
 * shell_read_line - see shell.h.
 * Context: task (waits for input).  Locking: none; one reader.
 */
int shell_read_line(char *buf, int size, bool echo)
{
	int len = 0, esc = 0;
	bool too_long = false;

	for (;;) {
		int c = shell_getc();

		if (esc) {
			/* Skip "ESC [ ... final": final bytes are 0x40..0x7e. */
			if (esc == 1 && c != '[') {
				esc = 0;
			} else if (esc == 1) {
				esc = 2;
			} else if (c >= 0x40 && c <= 0x7e) {
				esc = 0;
			}
			continue;
		}
		switch (c) {
		case '\r':
		case '\n':
			if (echo)
				console_write("\n", 1);
			if (too_long) {
				console_printf("shell: line longer than %d characters ignored\n",
					       size - 1);
				len = 0;
			}
			buf[len] = '\0';
			return len;
		case '\b':
		case 0x7f:
			if (len > 0) {
				len--;
				if (echo)
					erase_chars(1);
			}
			break;
		case CTRL('U'):
			if (echo)
				erase_chars(len);
			len = 0;
			too_long = false;
			break;
		case CTRL('C'):
			if (echo)
				console_write("^C\n", 3);
			buf[0] = '\0';
			return -EINTR;
		case ESC:
			esc = 1;
			break;
		default:
			if (c < 0x20 || c > 0x7e)
				break;	/* NUL, control, binary: ignored */
			if (len >= size - 1) {
				too_long = true;
				break;
			}
			buf[len++] = (char)c;
			if (echo) {
				char ch = (char)c;

				console_write(&ch, 1);
			}
			break;
		}
	}
}

static const struct shell_command *find_command(const char *name)
{
	const struct shell_command *cmd;

	for (cmd = __shell_cmds_start; cmd < __shell_cmds_end; cmd++)
		if (!strcmp(cmd->name, name))
			return cmd;
	return NULL;
}

/*
 * shell_execute - see shell.h.
 * Context: task.
 */
int shell_execute(char *line)
{
	char *argv[SHELL_ARGS_MAX + 1];
	const struct shell_command *cmd;
	int argc = 0, ret;
	char *p = line;

	while (*p) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		if (argc == SHELL_ARGS_MAX) {
			console_printf("shell: more than %d words\n", SHELL_ARGS_MAX);
			return -E2BIG;
		}
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	argv[argc] = NULL;
	if (!argc)
		return 0;
	cmd = find_command(argv[0]);
	if (!cmd) {
		console_printf("%s: unknown command (type 'help' for the list)\n",
			       argv[0]);
		return -ENOENT;
	}
	ret = cmd->run(argc, argv);
	if (ret == -ENOMEM)
		console_printf("%s: failed: out of memory (error %d)\n",
			       argv[0], ret);
	else if (ret < 0 && ret != -EINTR)
		console_printf("%s: failed (error %d)\n", argv[0], ret);
	return ret;
}

__noreturn void shell_run(void)
{
	static char line[SHELL_LINE_MAX];

	for (;;) {
		console_write(SHELL_PROMPT, sizeof(SHELL_PROMPT) - 1);
		if (shell_read_line(line, sizeof(line), true) < 0)
			continue;
		ctrl_c_seen = false;
		shell_execute(line);
	}
}

static int cmd_help(int argc, char **argv)
{
	const struct shell_command *cmd, *last = NULL, *next;

	(void)argc;
	(void)argv;
	/* The table is in link order; print it sorted by name without
	 * allocating: each round picks the smallest name after the last. */
	for (;;) {
		next = NULL;
		for (cmd = __shell_cmds_start; cmd < __shell_cmds_end; cmd++) {
			if (last && strcmp(cmd->name, last->name) <= 0)
				continue;
			if (!next || strcmp(cmd->name, next->name) < 0)
				next = cmd;
		}
		if (!next)
			break;
		console_printf("  %-10s %s\n", next->name, next->help);
		last = next;
	}
	return 0;
}
SHELL_COMMAND(help, "list every command with a one-line description", cmd_help);
