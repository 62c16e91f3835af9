/*
 * kernel/shell/cmd_rtc.c - `rtc start HZ`, `rtc stop`, `rtc hist`:
 * RTC_HISTOGRAM (drivers/rtc_cmos.h).  `rtc hist` prints the counts,
 * the cyclictest-style summary line of the handler thread and the
 * histogram block of lib/latency_hist.h (1 µs buckets of
 * interrupt-to-thread latency).
 *
 * Linux counterpart: the 2.6-rt /proc/sys/kernel/rtc_histogram output.
 */
#include "drivers/rtc_cmos.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"

static void emit(void *ctx, const char *line)
{
	console_printf("%s\n", line);
}

static int rtc_show(bool hist)
{
	const struct lat_stat *one[1];
	struct rtc_hist_stats s;
	char line[LAT_LINE_MAX];

	rtc_hist_read(&s);
	if (s.hz)
		console_printf("rtc: periodic at %u Hz", s.hz);
	else
		console_printf("rtc: stopped");
	console_printf(", %llu interrupts, %llu missed by the thread\n",
		       (unsigned long long)s.irqs,
		       (unsigned long long)s.missed);
	lat_format_thread(line, sizeof(line), 0, &s.st);
	console_printf("%s\n", line);
	if (!hist)
		return 0;
	one[0] = &s.st;
	return lat_print_hist(one, 1, emit, NULL);
}

/* cmd_rtc - see the file header.  Context: task (the shell). */
static int cmd_rtc(int argc, char **argv)
{
	struct rtc_hist_stats s;
	long hz;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "start")) {
		if (shell_parse_long("rtc", "HZ", argv[2], 2, 8192, &hz))
			return -EINVAL;
		ret = rtc_start((u32)hz);
		rtc_hist_read(&s);
		if (ret == -EBUSY && s.hz)
			console_printf("rtc: already running at %u Hz (rtc stop "
				       "first)\n", s.hz);
		else if (ret == -EINVAL)
			console_printf("rtc: HZ %ld is not a power of two "
				       "(2, 4, ... 8192)\n", hz);
		else if (ret)
			console_printf("rtc start: error %d\n", ret);
		else
			console_printf("rtc: periodic at %ld Hz\n", hz);
		return ret;
	}
	if (argc == 2 && !strcmp(argv[1], "stop")) {
		ret = rtc_stop();
		rtc_hist_read(&s);
		if (ret)
			console_printf("rtc stop: not running\n");
		else
			console_printf("rtc: stopped (%llu interrupts; `rtc "
				       "hist` keeps the figures)\n",
				       (unsigned long long)s.irqs);
		return ret;
	}
	if (argc == 2 && !strcmp(argv[1], "hist"))
		return rtc_show(true);
	if (argc == 1)
		return rtc_show(false);
	console_printf("usage: rtc [start HZ|stop|hist]\n");
	return -EINVAL;
}
SHELL_COMMAND(rtc, "RTC periodic irq latency histogram: start HZ|stop|hist",
	      cmd_rtc);
