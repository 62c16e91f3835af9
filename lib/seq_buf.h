/*
 * lib/seq_buf.h - text formatted into a fixed buffer, piece by piece,
 * with overflow remembered instead of silently cut: what the generated
 * files of /proc and /sys (kernel/fs/procfs.c) are written with.  Pure:
 * host-tested (tests/host/test_seq_buf.c).
 * Linux counterpart: include/linux/seq_buf.h, lib/seq_buf.c.
 */
#ifndef LIB_SEQ_BUF_H
#define LIB_SEQ_BUF_H

#include "lib/types.h"
#include "lib/compiler.h"

struct seq_buf {
	char *buffer;		/* size bytes; always NUL-terminated */
	size_t size;
	size_t len;		/* bytes written, without the NUL */
	bool overflow;		/* something did not fit (and was dropped) */
};

/* seq_buf_init - an empty buffer over buf[0..size), size >= 1. */
void seq_buf_init(struct seq_buf *s, char *buf, size_t size);

/* seq_buf_printf - append; a piece that does not fit whole is dropped
 * whole and marks the buffer overflowed.  Returns 0 or -1 (overflow). */
int seq_buf_printf(struct seq_buf *s, const char *fmt, ...) __printf(2, 3);

/* seq_buf_puts - append a string, as seq_buf_printf("%s"). */
int seq_buf_puts(struct seq_buf *s, const char *str);

/* seq_buf_print_cpulist - the set bits of mask (nbits wide) as Linux's
 * cpu list: "0-3,6,8-9", and a newline ("\n" alone when empty). */
int seq_buf_print_cpulist(struct seq_buf *s, u64 mask, unsigned int nbits);

static inline bool seq_buf_has_overflowed(const struct seq_buf *s)
{
	return s->overflow;
}

#endif /* LIB_SEQ_BUF_H */
