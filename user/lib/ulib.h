/*
 * user/lib/ulib.h - what a user program includes: the start-up contract
 * (main), exit, console output (printf to fd 1, dprintf) and the shared
 * string and formatting code.
 *
 * Strings and formatting are the kernel's own lib/string.c and
 * lib/vsnprintf.c, built a second time with the user flags (user/user.mk):
 * they are portable and host-tested, so user space gets the same
 * conversions as printk (no floating point, see lib/vsnprintf.h).
 * Linux counterpart: a tiny subset of libc's <stdio.h>/<stdlib.h>.
 */
#ifndef USER_LIB_ULIB_H
#define USER_LIB_ULIB_H

#include <stdarg.h>
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"
#include "user/lib/sys.h"

#define PRINTF_BUF 1024	/* longest printf output; more is cut (no malloc) */

/* main - every program defines it; its return value is the exit status. */
int main(int argc, char **argv);

/* exit - end the whole process (all threads) with status. */
__noreturn void exit(int status);

/* write_all - write all count bytes to fd, retrying short writes.
 * Returns count or a negative errno. */
ssize_t write_all(int fd, const void *buf, size_t count);

int printf(const char *fmt, ...) __printf(1, 2);
int dprintf(int fd, const char *fmt, ...) __printf(2, 3);
int vdprintf(int fd, const char *fmt, va_list ap);
/* puts - s and a newline on fd 1 */
int puts(const char *s);

/* die - "prog: message\n" on fd 2, then exit(1) */
__noreturn void die(const char *fmt, ...) __printf(1, 2);

/* strerror_name - "EINVAL" for -EINVAL or EINVAL; "no error" for 0,
 * "E?" if unknown */
const char *strerror_name(int err);

/* the program's argv[0] basename, set by __libc_start */
extern const char *program_name;

#endif /* USER_LIB_ULIB_H */
