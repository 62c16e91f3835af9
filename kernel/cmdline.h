/*
 * kernel/cmdline.h - kernel command-line parameters.
 *
 * Each parameter registers itself next to the code it configures:
 *	static int __init parse_foo(const char *val) { ... }
 *	CMDLINE_PARAM("foo", parse_foo);
 * val is the text after '=' or NULL for a bare flag ("nosmp").  The
 * handler returns 0 or a negative errno; a bad value is reported and the
 * default kept.  Unknown parameters get a warning and are ignored.
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include "lib/compiler.h"

struct cmdline_param {
	const char *name;
	int (*setup)(const char *val);
};

#define CMDLINE_PARAM(pname, fn)                                             \
	static const struct cmdline_param __cmdline_param_##fn __used         \
		__attribute__((section(".cmdline_params"), aligned(8))) = {    \
			.name = pname,                                       \
			.setup = fn,                                         \
		}

/* cmdline_parse - run the handlers for every word of cmdline.
 * Context: boot CPU, early. */
void cmdline_parse(const char *cmdline);

#endif /* KERNEL_CMDLINE_H */
