/*
 * lib/bug.h - BUG(), BUG_ON(), WARN_ON(), WARN_ON_ONCE(), WARN(),
 * BUILD_BUG_ON().
 *
 * A broken invariant stops the kernel through __bug(), which prints
 * file:line and the expression and panics; a WARN reports through
 * __warn() with a backtrace and goes on.  Both back ends live outside
 * lib/: kernel/panic.c in the kernel, tests/host/fake_arch.c on the host.
 * Linux counterpart: include/asm-generic/bug.h, include/linux/build_bug.h
 * (rtk leaves out the bug table and taint flags).
 */
#ifndef LIB_BUG_H
#define LIB_BUG_H

#include "lib/compiler.h"
#include "lib/types.h"

/* __bug - report "BUG at file:line: expr" and stop.  Context: any. */
__noreturn void __bug(const char *file, int line, const char *expr);

/* __warn - report a warning at file:line with a backtrace; returns.
 * Context: any. */
void __warn(const char *file, int line, const char *fmt, ...) __printf(3, 4);

#define BUG() __bug(__FILE__, __LINE__, "BUG()")

#define BUG_ON(cond)                                                    \
	do {                                                            \
		if (unlikely(cond))                                     \
			__bug(__FILE__, __LINE__, "BUG_ON(" #cond ")"); \
	} while (0)

/* WARN_ON - warn when cond is true; evaluates to cond (as an int). */
#define WARN_ON(cond)                                                   \
	({                                                              \
		int __ret_warn = !!(cond);                              \
		if (unlikely(__ret_warn))                               \
			__warn(__FILE__, __LINE__, "%s",                \
			       "WARN_ON(" #cond ")");                   \
		unlikely(__ret_warn);                                   \
	})

/* WARN - like WARN_ON with a printf-style message. */
#define WARN(cond, ...)                                                 \
	({                                                              \
		int __ret_warn = !!(cond);                              \
		if (unlikely(__ret_warn))                               \
			__warn(__FILE__, __LINE__, __VA_ARGS__);        \
		unlikely(__ret_warn);                                   \
	})

/* WARN_ON_ONCE - warn the first time cond is true at this site only;
 * always evaluates to cond. */
#define WARN_ON_ONCE(cond)                                              \
	({                                                              \
		static bool __warned;                                   \
		int __ret_warn = !!(cond);                              \
		if (unlikely(__ret_warn) && !__warned) {                \
			__warned = true;                                \
			__warn(__FILE__, __LINE__, "%s",                \
			       "WARN_ON_ONCE(" #cond ")");              \
		}                                                       \
		unlikely(__ret_warn);                                   \
	})

/* BUILD_BUG_ON - fail the compile when cond (a constant) is true. */
#define BUILD_BUG_ON(cond) \
	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

#endif /* LIB_BUG_H */
