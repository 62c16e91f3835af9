/*
 * lib/vsnprintf.h - formatted output into a buffer.
 *
 * Conversions: %s %c %d %i %u %x %X %o %p %% with the h, hh, l, ll, z
 * length modifiers; flags '-' '0' '#' '+' ' '; width and precision
 * (including '*').  %p prints "0x" and 16 hex digits; a NULL %s prints
 * "(null)"; an unknown conversion is printed literally.  No floating
 * point.  Linux counterpart: lib/vsprintf.c (rtk leaves out the %pX
 * extensions: %pS is done by kernel/ksyms.c's ksym_snprint instead).
 */
#ifndef LIB_VSNPRINTF_H
#define LIB_VSNPRINTF_H

#include <stdarg.h>
#include "lib/types.h"
#include "lib/compiler.h"

/*
 * vsnprintf/snprintf - C99 semantics: write at most size bytes including
 * the NUL (nothing at all when size == 0) and return the length the full
 * output would have had.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/*
 * vscnprintf/scnprintf - as above, but return the number of characters
 * actually written to buf (excluding the NUL): 0 when size == 0, at most
 * size - 1.  Safe to use for "pos += scnprintf(buf + pos, len - pos ...)".
 */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#endif /* LIB_VSNPRINTF_H */
