/*
 * lib/seq_buf.c - appending formatted text to a fixed buffer (see
 * seq_buf.h).  A piece is written whole or not at all, so a reader never
 * sees half a line: vsnprintf formats into the free space, and a result
 * that did not fit is taken back (the NUL moved to where the piece
 * began).
 */
#include <stdarg.h>
#include "lib/seq_buf.h"
#include "lib/vsnprintf.h"

void seq_buf_init(struct seq_buf *s, char *buf, size_t size)
{
	s->buffer = buf;
	s->size = size;
	s->len = 0;
	s->overflow = false;
	buf[0] = '\0';
}

int seq_buf_printf(struct seq_buf *s, const char *fmt, ...)
{
	size_t room = s->size - s->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s->buffer + s->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		s->buffer[s->len] = '\0';
		s->overflow = true;
		return -1;
	}
	s->len += (size_t)n;
	return 0;
}

int seq_buf_puts(struct seq_buf *s, const char *str)
{
	return seq_buf_printf(s, "%s", str);
}

int seq_buf_print_cpulist(struct seq_buf *s, u64 mask, unsigned int nbits)
{
	const char *sep = "";
	int ret = 0;

	for (unsigned int i = 0; i < nbits; i++) {
		unsigned int j = i;

		if (!(mask >> i & 1))
			continue;
		while (j + 1 < nbits && (mask >> (j + 1) & 1))
			j++;
		if (j == i)
			ret |= seq_buf_printf(s, "%s%u", sep, i);
		else
			ret |= seq_buf_printf(s, "%s%u-%u", sep, i, j);
		sep = ",";
		i = j;
	}
	return ret | seq_buf_puts(s, "\n");
}
