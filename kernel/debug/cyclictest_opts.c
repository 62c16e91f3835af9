/*
 * kernel/debug/cyclictest_opts.c - parse the cyclictest command line
 * (flags in cyclictest_opts.h).  Pure: no console, no allocation.
 *
 * Counterpart: rt-tests src/cyclictest/cyclictest.c process_options()
 * (getopt_long there; a small hand-written loop here, since the shell
 * has no getopt).  As in rt-tests, -S wins over -t and -a whatever the
 * order.
 */
#include "kernel/debug/cyclictest_opts.h"
#include "kernel/debug/latency_hist.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* parse_ranged - v = s as decimal within [lo, hi], or a message. */
static int parse_ranged(const char *flag, const char *s, unsigned long lo,
			unsigned long hi, const char *what, unsigned long *v,
			char *err, size_t errlen)
{
	if (kstrtoul(s, 10, v) || *v < lo || *v > hi) {
		snprintf(err, errlen, "cyclictest: -%s %s: %s must be %lu..%lu",
			 flag, s, what, lo, hi);
		return -EINVAL;
	}
	return 0;
}

/* parse_duration - "30", "30s", "5m", "2h", "1d" in seconds. */
static int parse_duration(const char *s, u64 *secs, char *err,
			  size_t errlen)
{
	char num[24];
	size_t len = strlen(s);
	unsigned long v, mult = 1;

	if (len && !is_digit(s[len - 1])) {
		switch (s[len - 1]) {
		case 's':
			break;
		case 'm':
			mult = 60;
			break;
		case 'h':
			mult = 3600;
			break;
		case 'd':
			mult = 86400;
			break;
		default:
			goto bad;
		}
		len--;
	}
	if (len == 0 || len >= sizeof(num))
		goto bad;
	memcpy(num, s, len);
	num[len] = '\0';
	/* a year of seconds is plenty and keeps v * mult far from overflow */
	if (kstrtoul(num, 10, &v) || v == 0 || v * mult > 366UL * 86400)
		goto bad;
	*secs = (u64)v * mult;
	return 0;
bad:
	snprintf(err, errlen,
		 "cyclictest: -D %s: duration must be 1..366d (suffix s, m, h, d)",
		 s);
	return -EINVAL;
}

/*
 * cyclictest_parse - see cyclictest_opts.h.
 *
 *  [1] defaults as rt-tests: 1 thread, floating, prio 99, 1000 µs;
 *  [2] per word: the flag letter, then its value glued ("-p99") or in
 *      the next word; -t and -a take the next word only if it is a
 *      number, since their value is optional;
 *  [3] -S: threads = nr_cpus, thread N on CPU N.
 */
int cyclictest_parse(int argc, char **argv, int nr_cpus,
		     struct cyclictest_opts *o, char *err, size_t errlen)
{
	bool smp = false;
	unsigned long v;
	int i, ret;

	if (nr_cpus < 1)
		nr_cpus = 1;
	memset(o, 0, sizeof(*o));		/* [1] */
	o->threads = 1;
	o->affinity = CT_AFFINITY_NONE;
	o->prio = 99;
	o->interval_us = 1000;
	if (errlen)
		err[0] = '\0';

	for (i = 1; i < argc; i++) {		/* [2] */
		const char *arg = argv[i];
		const char *val = NULL;
		char flag[2] = { 0, 0 };

		if (arg[0] != '-' || arg[1] == '\0') {
			snprintf(err, errlen, "cyclictest: unexpected '%s'",
				 arg);
			return -EINVAL;
		}
		flag[0] = arg[1];
		if (arg[2])
			val = arg + 2;

		switch (arg[1]) {
		case 'S':
		case 'q':
			if (val)
				goto unknown;
			if (arg[1] == 'S')
				smp = true;
			else
				o->quiet = true;
			continue;
		case 't':
		case 'a':
			if (!val && i + 1 < argc && is_digit(argv[i + 1][0]))
				val = argv[++i];
			break;
		case 'p':
		case 'i':
		case 'l':
		case 'D':
		case 'h':
			if (!val && i + 1 < argc)
				val = argv[++i];
			if (!val) {
				snprintf(err, errlen,
					 "cyclictest: -%s needs a value",
					 flag);
				return -EINVAL;
			}
			break;
		default:
			goto unknown;
		}

		ret = 0;
		switch (arg[1]) {
		case 't':
			if (!val) {
				o->threads = nr_cpus < LAT_MAX_THREADS ?
						     nr_cpus : LAT_MAX_THREADS;
				break;
			}
			ret = parse_ranged(flag, val, 1, LAT_MAX_THREADS,
					   "threads", &v, err, errlen);
			o->threads = (int)v;
			break;
		case 'a':
			if (!val) {
				o->affinity = CT_AFFINITY_SPREAD;
				break;
			}
			ret = parse_ranged(flag, val, 0, nr_cpus - 1, "CPU",
					   &v, err, errlen);
			o->affinity = (int)v;
			break;
		case 'p':
			ret = parse_ranged(flag, val, 1, 99, "priority", &v,
					   err, errlen);
			o->prio = (int)v;
			break;
		case 'i':
			ret = parse_ranged(flag, val, CT_INTERVAL_MIN_US,
					   CT_INTERVAL_MAX_US, "interval (us)",
					   &v, err, errlen);
			o->interval_us = (u32)v;
			break;
		case 'l':
			ret = parse_ranged(flag, val, 0, 1000000000UL, "loops",
					   &v, err, errlen);
			o->loops = v;
			break;
		case 'D':
			ret = parse_duration(val, &o->duration_s, err, errlen);
			break;
		case 'h':
			ret = parse_ranged(flag, val, 1, LAT_HIST_MAX_US,
					   "histogram size (us)", &v, err,
					   errlen);
			o->hist_us = (u32)v;
			break;
		}
		if (ret)
			return ret;
	}

	if (smp) {				/* [3] */
		o->threads = nr_cpus < LAT_MAX_THREADS ? nr_cpus
						       : LAT_MAX_THREADS;
		o->affinity = CT_AFFINITY_SPREAD;
	}
	return 0;

unknown:
	snprintf(err, errlen,
		 "cyclictest: unknown option '%s' (use -S -t -a -p -i -l -D -h -q)",
		 argv[i]);
	return -EINVAL;
}
