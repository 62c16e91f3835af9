/*
 * lib/string.h - memory and string functions, and kstrtol/kstrtoul.
 *
 * Portable C; the kernel gets these instead of a libc, the host tests
 * link them in place of libc's (which tests them against real callers).
 * Linux counterpart: lib/string.c, include/linux/string.h, lib/kstrtox.c.
 * rtk leaves out the arch-optimised versions and the fortify checks.
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include "lib/types.h"

void *memset(void *s, int c, size_t n);
void *memcpy(void *dest, const void *src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t maxlen);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strcpy(char *dest, const char *src);
char *strstr(const char *haystack, const char *needle);

/*
 * strscpy - copy src into dest[size], always NUL-terminated when
 * size > 0.  Returns the length copied, or -E2BIG when src did not fit
 * (dest then holds the truncated prefix), as in Linux.
 */
ssize_t strscpy(char *dest, const char *src, size_t size);

/*
 * strlcat - append src to dest[size], NUL-terminated; returns the length
 * the result would have had (strlen(dest) + strlen(src)), so a return
 * >= size means truncation.
 */
size_t strlcat(char *dest, const char *src, size_t size);

/*
 * kstrtol/kstrtoul - parse the whole of s (one trailing '\n' allowed) as
 * an integer in base (2..36, or 0: "0x" hex, leading "0" octal, else
 * decimal; base 16 also accepts "0x").  kstrtol accepts a leading '-'
 * or '+'; kstrtoul a leading '+'.
 * Returns 0 and sets *res, -EINVAL on a malformed string, -ERANGE when
 * the value does not fit.  *res is untouched on failure.
 */
int kstrtol(const char *s, unsigned int base, long *res);
int kstrtoul(const char *s, unsigned int base, unsigned long *res);

#endif /* LIB_STRING_H */
