/*
 * lib/string.c - memory and string functions, and kstrtol/kstrtoul.
 *
 * Plain byte-at-a-time C: clear rather than fast.  The compiler may turn
 * a struct copy into a call to memcpy/memset, so these must exist even
 * in a freestanding build.  Linux counterpart: lib/string.c,
 * lib/kstrtox.c (rtk leaves out the word-at-a-time versions).
 */
#include "lib/string.h"
#include "lib/errno.h"

void *memset(void *s, int c, size_t n)
{
	unsigned char *p = s;

	while (n--)
		*p++ = (unsigned char)c;
	return s;
}

void *memcpy(void *dest, const void *src, size_t n)
{
	unsigned char *d = dest;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dest;
}

/* memmove - copy backwards when dest overlaps the tail of src. */
void *memmove(void *dest, const void *src, size_t n)
{
	unsigned char *d = dest;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return dest;
	if ((uintptr_t)d < (uintptr_t)s || (uintptr_t)d >= (uintptr_t)s + n) {
		while (n--)
			*d++ = *s++;
	} else {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dest;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p < *q ? -1 : 1;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t maxlen)
{
	size_t n = 0;

	while (n < maxlen && s[n])
		n++;
	return n;
}

/* strcmp/strncmp compare as unsigned char, like the C library. */
int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	while (*p && *p == *q) {
		p++;
		q++;
	}
	if (*p == *q)
		return 0;
	return *p < *q ? -1 : 1;
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p < *q ? -1 : 1;
		if (!*p)
			break;
	}
	return 0;
}

/* strchr - c == '\0' finds the terminator, as in C. */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strcpy(char *dest, const char *src)
{
	char *d = dest;

	while ((*d++ = *src++))
		;
	return dest;
}

char *strstr(const char *haystack, const char *needle)
{
	size_t nlen = strlen(needle);

	if (!nlen)
		return (char *)haystack;
	for (; *haystack; haystack++)
		if (*haystack == *needle && !strncmp(haystack, needle, nlen))
			return (char *)haystack;
	return NULL;
}

ssize_t strscpy(char *dest, const char *src, size_t size)
{
	size_t i;

	if (size == 0)
		return -E2BIG;
	for (i = 0; i < size; i++) {
		dest[i] = src[i];
		if (!src[i])
			return (ssize_t)i;
	}
	dest[size - 1] = '\0';
	return -E2BIG;
}

size_t strlcat(char *dest, const char *src, size_t size)
{
	size_t dlen = strnlen(dest, size);
	size_t slen = strlen(src);
	size_t room, n;

	if (dlen == size)	/* dest not terminated within size */
		return size + slen;
	room = size - dlen - 1;
	n = slen < room ? slen : room;
	memcpy(dest + dlen, src, n);
	dest[dlen + n] = '\0';
	return dlen + slen;
}

/* digit_value - value of c as a digit in bases up to 36, or 36 if none. */
static unsigned int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned int)(c - '0');
	if (c >= 'a' && c <= 'z')
		return (unsigned int)(c - 'a' + 10);
	if (c >= 'A' && c <= 'Z')
		return (unsigned int)(c - 'A' + 10);
	return 36;
}

/*
 * parse_unsigned - the unsigned magnitude in s (no sign), with kstrtoul's
 * base rules and trailing-newline allowance.
 * [1] resolve base 0 / the "0x" prefix, [2] at least one digit,
 * [3] accumulate, refusing overflow, [4] only "\n" may follow.
 */
static int parse_unsigned(const char *s, unsigned int base,
			  unsigned long *res)
{
	unsigned long val = 0;
	unsigned int d;
	bool overflow = false;
	const char *start;

	/* [1] */
	if (base == 0) {
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
		    digit_value(s[2]) < 16) {
			base = 16;
			s += 2;
		} else if (s[0] == '0') {
			base = 8;
		} else {
			base = 10;
		}
	} else if (base == 16) {
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
		    digit_value(s[2]) < 16)
			s += 2;
	} else if (base < 2 || base > 36) {
		return -EINVAL;
	}
	/* [2], [3] */
	start = s;
	while ((d = digit_value(*s)) < base) {
		if (val > (~0UL - d) / base)
			overflow = true;
		val = val * base + d;
		s++;
	}
	if (s == start)
		return -EINVAL;
	/* [4] */
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	*res = val;
	return 0;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	if (*s == '+')
		s++;
	return parse_unsigned(s, base, res);
}

int kstrtol(const char *s, unsigned int base, long *res)
{
	unsigned long mag;
	bool neg = false;
	int ret;

	if (*s == '-') {
		neg = true;
		s++;
	} else if (*s == '+') {
		s++;
	}
	ret = parse_unsigned(s, base, &mag);
	if (ret)
		return ret;
	if (neg) {
		if (mag > (unsigned long)__LONG_MAX__ + 1)
			return -ERANGE;
		*res = (long)(0UL - mag);
	} else {
		if (mag > (unsigned long)__LONG_MAX__)
			return -ERANGE;
		*res = (long)mag;
	}
	return 0;
}
