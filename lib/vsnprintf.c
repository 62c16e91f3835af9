/*
 * lib/vsnprintf.c - vsnprintf() and friends for the kernel and printk.
 *
 * One pass over the format; output goes through put(), which counts
 * every character but stores only those that fit, giving C99's return
 * value for free.  Conversions and flags: see lib/vsnprintf.h.
 * Linux counterpart: lib/vsprintf.c (rtk leaves out floating point, the
 * %p extensions, %n and positional arguments).
 */
#include "lib/vsnprintf.h"
#include "lib/string.h"

struct outbuf {
	char *buf;		/* destination */
	size_t size;		/* bytes available at buf, NUL included */
	size_t len;		/* characters produced so far (stored or not) */
};

static void put(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_repeat(struct outbuf *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

#define F_LEFT	0x01	/* '-' */
#define F_ZERO	0x02	/* '0' */
#define F_ALT	0x04	/* '#' */
#define F_PLUS	0x08	/* '+' */
#define F_SPACE	0x10	/* ' ' */

struct spec {
	unsigned int flags;	/* F_* */
	int width;		/* minimum field width, 0 if none */
	int prec;		/* precision, -1 if none */
};

/*
 * put_string - at most prec bytes of s, padded to the width.
 */
static void put_string(struct outbuf *o, const char *s, const struct spec *sp)
{
	size_t n = sp->prec >= 0 ? strnlen(s, (size_t)sp->prec) : strlen(s);
	int pad = sp->width > (int)n ? sp->width - (int)n : 0;

	if (!(sp->flags & F_LEFT))
		put_repeat(o, ' ', pad);
	while (n--)
		put(o, *s++);
	if (sp->flags & F_LEFT)
		put_repeat(o, ' ', pad);
}

/*
 * put_number - one integer conversion.
 * [1] digits of the magnitude, least significant first, into tmp;
 *     precision 0 with value 0 prints no digits (C99 7.19.6.1);
 * [2] the prefix: sign for signed conversions, "0x"/"0X" for '#' with a
 *     non-zero hex value, a leading '0' for '#' octal when not already
 *     there;
 * [3] layout: [spaces] prefix [zeros] digits [spaces]; '0' pads with
 *     zeros only without '-' and without a precision.
 */
static void put_number(struct outbuf *o, unsigned long long mag, bool negative,
		       bool is_signed, unsigned int base, bool upper,
		       const struct spec *sp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];		/* 22 octal digits cover 64 bits */
	char prefix[3];
	int ndig = 0, npre = 0, zeros, pad, i;
	unsigned long long v = mag;

	/* [1] */
	if (!(v == 0 && sp->prec == 0)) {
		do {
			tmp[ndig++] = digits[v % base];
			v /= base;
		} while (v);
	}
	/* [2] */
	if (is_signed) {
		if (negative)
			prefix[npre++] = '-';
		else if (sp->flags & F_PLUS)
			prefix[npre++] = '+';
		else if (sp->flags & F_SPACE)
			prefix[npre++] = ' ';
	}
	if ((sp->flags & F_ALT) && base == 16 && mag != 0) {
		prefix[npre++] = '0';
		prefix[npre++] = upper ? 'X' : 'x';
	}
	zeros = sp->prec > ndig ? sp->prec - ndig : 0;
	if ((sp->flags & F_ALT) && base == 8 &&
	    (ndig == 0 || tmp[ndig - 1] != '0') && zeros == 0)
		zeros = 1;
	/* [3] */
	pad = sp->width - npre - zeros - ndig;
	if (pad < 0)
		pad = 0;
	if ((sp->flags & F_ZERO) && !(sp->flags & F_LEFT) && sp->prec < 0) {
		zeros += pad;
		pad = 0;
	}
	if (!(sp->flags & F_LEFT))
		put_repeat(o, ' ', pad);
	for (i = 0; i < npre; i++)
		put(o, prefix[i]);
	put_repeat(o, '0', zeros);
	while (ndig--)
		put(o, tmp[ndig]);
	if (sp->flags & F_LEFT)
		put_repeat(o, ' ', pad);
}

enum length { LEN_HH, LEN_H, LEN_INT, LEN_L, LEN_LL, LEN_Z };

/* fetch_unsigned/fetch_signed - the next argument, converted per length. */
static unsigned long long fetch_unsigned(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_HH:
		return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H:
		return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L:
		return va_arg(*ap, unsigned long);
	case LEN_LL:
		return va_arg(*ap, unsigned long long);
	case LEN_Z:
		return va_arg(*ap, size_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

static long long fetch_signed(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_HH:
		return (signed char)va_arg(*ap, int);
	case LEN_H:
		return (short)va_arg(*ap, int);
	case LEN_L:
		return va_arg(*ap, long);
	case LEN_LL:
		return va_arg(*ap, long long);
	case LEN_Z:
		return va_arg(*ap, ssize_t);
	default:
		return va_arg(*ap, int);
	}
}

/* parse_decimal - a run of digits at *fmt, advancing it. */
static int parse_decimal(const char **fmt)
{
	int n = 0;

	while (**fmt >= '0' && **fmt <= '9') {
		if (n < 100000)	/* absurd widths are clamped, not overflowed */
			n = n * 10 + (**fmt - '0');
		(*fmt)++;
	}
	return n;
}

/*
 * format - the engine behind all four entry points.
 * [1] copy literal text; [2] flags; [3] width ('*' takes an int, a
 * negative one means '-'); [4] precision; [5] length; [6] conversion.
 * An unknown conversion is copied literally from its '%', so a bad
 * format shows up in the output instead of eating arguments.
 */
static void format(struct outbuf *o, const char *fmt, va_list *ap)
{
	while (*fmt) {
		const char *start;
		struct spec sp = { 0, 0, -1 };
		enum length len = LEN_INT;
		unsigned long long u;
		long long s;
		char c;

		/* [1] */
		if (*fmt != '%') {
			put(o, *fmt++);
			continue;
		}
		start = fmt++;
		/* [2] */
		for (;; fmt++) {
			if (*fmt == '-')
				sp.flags |= F_LEFT;
			else if (*fmt == '0')
				sp.flags |= F_ZERO;
			else if (*fmt == '#')
				sp.flags |= F_ALT;
			else if (*fmt == '+')
				sp.flags |= F_PLUS;
			else if (*fmt == ' ')
				sp.flags |= F_SPACE;
			else
				break;
		}
		/* [3] */
		if (*fmt == '*') {
			sp.width = va_arg(*ap, int);
			if (sp.width < 0) {
				sp.flags |= F_LEFT;
				sp.width = sp.width < -100000 ? 100000
							  : -sp.width;
			}
			fmt++;
		} else {
			sp.width = parse_decimal(&fmt);
		}
		/* [4] */
		if (*fmt == '.') {
			fmt++;
			if (*fmt == '*') {
				sp.prec = va_arg(*ap, int);
				if (sp.prec < 0)
					sp.prec = -1;	/* as if omitted */
				fmt++;
			} else {
				sp.prec = parse_decimal(&fmt);
			}
		}
		/* [5] */
		if (*fmt == 'h') {
			len = LEN_H;
			if (*++fmt == 'h') {
				len = LEN_HH;
				fmt++;
			}
		} else if (*fmt == 'l') {
			len = LEN_L;
			if (*++fmt == 'l') {
				len = LEN_LL;
				fmt++;
			}
		} else if (*fmt == 'z') {
			len = LEN_Z;
			fmt++;
		}
		/* [6] */
		c = *fmt;
		switch (c) {
		case 's': {
			const char *str = va_arg(*ap, const char *);

			put_string(o, str ? str : "(null)", &sp);
			break;
		}
		case 'c': {
			char ch = (char)va_arg(*ap, int);
			int pad = sp.width > 1 ? sp.width - 1 : 0;

			if (!(sp.flags & F_LEFT))
				put_repeat(o, ' ', pad);
			put(o, ch);
			if (sp.flags & F_LEFT)
				put_repeat(o, ' ', pad);
			break;
		}
		case 'd':
		case 'i':
			s = fetch_signed(ap, len);
			u = s < 0 ? 0ULL - (unsigned long long)s
				  : (unsigned long long)s;
			put_number(o, u, s < 0, true, 10, false, &sp);
			break;
		case 'u':
			u = fetch_unsigned(ap, len);
			put_number(o, u, false, false, 10, false, &sp);
			break;
		case 'x':
		case 'X':
			u = fetch_unsigned(ap, len);
			put_number(o, u, false, false, 16, c == 'X', &sp);
			break;
		case 'o':
			u = fetch_unsigned(ap, len);
			put_number(o, u, false, false, 8, false, &sp);
			break;
		case 'p': {
			/* always "0x" + 16 digits: addresses line up */
			struct spec ps = { F_ZERO, 16, -1 };

			u = (uintptr_t)va_arg(*ap, void *);
			put(o, '0');
			put(o, 'x');
			put_number(o, u, false, false, 16, false, &ps);
			break;
		}
		case '%':
			put(o, '%');
			break;
		default:
			/* unknown (or a format ending in '%'): copy literally */
			while (start < fmt)
				put(o, *start++);
			if (!c)
				return;
			put(o, c);
			break;
		}
		fmt++;
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { buf, size, 0 };
	va_list aq;

	va_copy(aq, ap);
	format(&o, fmt, &aq);
	va_end(aq);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len > (size_t)__INT_MAX__ ? __INT_MAX__ : (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, size, fmt, ap);

	if (size == 0)
		return 0;
	return (size_t)n < size ? n : (int)(size - 1);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
