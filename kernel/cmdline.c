/*
 * kernel/cmdline.c - split the boot command line into words and hand
 * each "name" or "name=value" to its registered handler.
 *
 * Handlers live in a linker-section table (kernel/cmdline.h), so adding a
 * parameter never edits this file.  Words are separated by spaces or
 * tabs; non-printable bytes make a word invalid (reported, skipped).
 * Linux counterpart: kernel/params.c and init/main.c's __setup().
 */
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/string.h"

extern const struct cmdline_param __cmdline_params_start[];
extern const struct cmdline_param __cmdline_params_end[];

static void handle_word(char *word)
{
	const struct cmdline_param *p;
	char *eq = strchr(word, '=');
	const char *val = NULL;
	int err;

	for (char *c = word; *c; c++) {
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e) {
			pr_warn("cmdline: parameter with a non-printable byte ignored\n");
			return;
		}
	}
	if (eq) {
		*eq = '\0';
		val = eq + 1;
	}
	for (p = __cmdline_params_start; p < __cmdline_params_end; p++) {
		if (strcmp(p->name, word))
			continue;
		err = p->setup(val);
		if (err)
			pr_warn("cmdline: bad value '%s' for '%s' (error %d), default kept\n",
				val ? val : "", word, err);
		return;
	}
	pr_warn("cmdline: unknown parameter '%s' ignored\n", word);
}

/*
 * cmdline_parse - see cmdline.h.
 * Context: boot CPU, before other CPUs start.  Locking: none.
 */
void __init cmdline_parse(const char *cmdline)
{
	static char copy[512];
	char *p = copy;

	strscpy(copy, cmdline, sizeof(copy));
	while (*p) {
		char *word;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		word = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
		handle_word(word);
	}
}
