/*
 * user/lib/printf.c - console output for user programs: printf and
 * friends format into a stack buffer with lib/vsnprintf.c and write(2)
 * it in one call, so the lines of concurrent threads do not interleave
 * inside a line (one write is one console write on rtk and on Linux).
 *
 * Output longer than PRINTF_BUF is cut; the return value is still the
 * length the whole output would have had (C99's rule).
 */
#include "user/lib/ulib.h"

ssize_t write_all(int fd, const void *buf, size_t count)
{
	const char *p = buf;
	size_t done = 0;
	ssize_t n;

	while (done < count) {
		n = write(fd, p + done, count - done);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return n;
		if (n == 0)
			return -EIO;
		done += n;
	}
	return done;
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	char buf[PRINTF_BUF];
	int len = vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t out = len < (int)sizeof(buf) ? (size_t)len : sizeof(buf) - 1;
	ssize_t ret = write_all(fd, buf, out);

	return ret < 0 ? (int)ret : len;
}

int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vdprintf(fd, fmt, ap);
	va_end(ap);
	return ret;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vdprintf(1, fmt, ap);
	va_end(ap);
	return ret;
}

int puts(const char *s)
{
	return dprintf(1, "%s\n", s);
}

__noreturn void die(const char *fmt, ...)
{
	char buf[PRINTF_BUF];
	va_list ap;
	int len;

	len = scnprintf(buf, sizeof(buf), "%s: ", program_name);
	va_start(ap, fmt);
	len += vscnprintf(buf + len, sizeof(buf) - len - 1, fmt, ap);
	va_end(ap);
	buf[len++] = '\n';
	write_all(2, buf, len);
	exit(1);
}

static const struct {
	int err;
	const char *name;
} errno_names[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" },
	{ EINTR, "EINTR" }, { EIO, "EIO" }, { E2BIG, "E2BIG" },
	{ EBADF, "EBADF" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
	{ EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
	{ EINVAL, "EINVAL" }, { ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" },
	{ EDEADLK, "EDEADLK" }, { ENOSYS, "ENOSYS" },
	{ ETIMEDOUT, "ETIMEDOUT" },
};

const char *strerror_name(int err)
{
	size_t i;

	if (err == 0)
		return "no error";
	if (err < 0)
		err = -err;
	for (i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	return "E?";
}
