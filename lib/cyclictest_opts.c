/*
 * lib/cyclictest_opts.c - parse the cyclictest command line
 * (flags in cyclictest_opts.h).  Pure: no console, no allocation.
 *
 * Counterpart: rt-tests src/cyclictest/cyclictest.c process_options()
 * (getopt_long there; a small hand-written loop here, since the shell
 * has no getopt, taking the same clustered forms).  As in rt-tests, -S
 * wins over -t and -a whatever the order.
 *
 * The per-thread rule, rt-tests main()'s thread set-up loop (checked
 * against rt-tests 1.x/2.x src/cyclictest/cyclictest.c):
 *	interval(N) = -i + N * -d, except with -h: every thread gets -i
 *		("distance is ignored and set to 0, if histogram enabled");
 *		-S does not change this (cyclictest -S on two CPUs prints
 *		I:1000 and I:1500);
 *	prio(N) = -p for every thread; only --priospread lowers it by one
 *		per thread.  Releases before about 2014 (0.8x) lowered it
 *		by default, "if (priority && !histogram && !smp) priority--",
 *		which is where "-t gives P:99 P:98 ..." comes from; current
 *		rt-tests does not.
 * The next deadline, rt-tests timerthread() after each sample:
 *	next += interval; while (now > next) next += interval;
 *	so a wake-up that came one or more whole periods late records one
 *	sample, and the periods it missed are skipped, not made up with
 *	immediate extra samples (each of which would record the same stall
 *	again, a period shorter).  "now > next" is strict: a wake-up that
 *	read the clock exactly at the following deadline still sleeps for
 *	it (a zero-length sleep).
 * The floor: rt-tests' --priospread decrements unchecked (a thread that
 * reaches 0 runs SCHED_OTHER, below 0 pthread_create() fails; 0.8x
 * stopped at 0 and ran the rest SCHED_OTHER).  rtk's threads are always
 * SCHED_FIFO (issue 6), so the spread stops at priority 1.
 */
#include "lib/cyclictest_opts.h"
#include "lib/latency_hist.h"
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
 * rt-tests' letters that rtk does not implement (see cyclictest_opts.h
 * for what each one is); named in the message instead of "unknown".
 */
static const char not_in_rtk[] = "AbBcCEfHIMNoOPrRsTuUvwW";

/* takes_value - 1: needs a value, 2: optional number, 0: a lone flag. */
static int takes_value(char c)
{
	switch (c) {
	case 'p':
	case 'i':
	case 'd':
	case 'l':
	case 'D':
	case 'h':
		return 1;
	case 't':
	case 'a':
		return 2;
	default:
		return 0;
	}
}

/*
 * apply - set the field of flag c from val (NULL: the optional value of
 * -t / -a was left out).  Returns 0 or -EINVAL with err filled.
 */
static int apply(struct cyclictest_opts *o, char c, const char *val,
		 int nr_cpus, bool *distance_set, char *err, size_t errlen)
{
	const char flag[2] = { c, 0 };
	unsigned long v = 0;
	int ret = 0;

	switch (c) {
	case 't':
		if (!val) {
			o->threads = nr_cpus < LAT_MAX_THREADS ? nr_cpus
							       : LAT_MAX_THREADS;
			break;
		}
		ret = parse_ranged(flag, val, 1, LAT_MAX_THREADS, "threads",
				   &v, err, errlen);
		o->threads = (int)v;
		break;
	case 'a':
		if (!val) {
			o->affinity = CT_AFFINITY_SPREAD;
			break;
		}
		ret = parse_ranged(flag, val, 0, nr_cpus - 1, "CPU", &v, err,
				   errlen);
		o->affinity = (int)v;
		break;
	case 'p':
		ret = parse_ranged(flag, val, 1, 99, "priority", &v, err,
				   errlen);
		o->prio = (int)v;
		break;
	case 'i':
		ret = parse_ranged(flag, val, CT_INTERVAL_MIN_US,
				   CT_INTERVAL_MAX_US, "interval (us)", &v,
				   err, errlen);
		o->interval_us = (u32)v;
		break;
	case 'd':
		ret = parse_ranged(flag, val, 0, CT_INTERVAL_MAX_US,
				   "distance (us)", &v, err, errlen);
		o->distance_us = (u32)v;
		*distance_set = true;
		break;
	case 'l':
		ret = parse_ranged(flag, val, 0, 1000000000UL, "loops", &v,
				   err, errlen);
		o->loops = v;
		break;
	case 'D':
		ret = parse_duration(val, &o->duration_s, err, errlen);
		break;
	case 'h':
		ret = parse_ranged(flag, val, 1, LAT_HIST_MAX_US,
				   "histogram size (us)", &v, err, errlen);
		o->hist_us = (u32)v;
		break;
	}
	return ret;
}

/*
 * cyclictest_parse - see cyclictest_opts.h.
 *
 *  [1] defaults: 1 thread, floating, interval 1000 µs, distance 500 µs
 *      as rt-tests; priority 99 where rt-tests has 0 (SCHED_OTHER
 *      threads unless -p is given), because issue 6 asks for SCHED_FIFO
 *      99 by default: a measuring thread below the loads it measures
 *      would measure the loads, not the kernel;
 *  [2] per word: "--priospread", or a cluster of letters as getopt
 *      reads them: lone flags (-S -q -m -n) go on to the next letter; a
 *      flag with a value takes the rest of the word ("-p99") or else
 *      the next word; -t and -a take the next word only if it is a
 *      number, since their value is optional;
 *  [3] -S: threads = nr_cpus, thread N on CPU N;
 *  [4] -h: distance 0, and note a -d given with it (rt-tests warns).
 */
int cyclictest_parse(int argc, char **argv, int nr_cpus,
		     struct cyclictest_opts *o, char *err, size_t errlen)
{
	bool smp = false, distance_set = false;
	int i, ret;

	if (nr_cpus < 1)
		nr_cpus = 1;
	memset(o, 0, sizeof(*o));		/* [1] */
	o->threads = 1;
	o->affinity = CT_AFFINITY_NONE;
	o->prio = 99;
	o->interval_us = 1000;
	o->distance_us = CT_DISTANCE_DEFAULT_US;
	if (errlen)
		err[0] = '\0';

	for (i = 1; i < argc; i++) {		/* [2] */
		const char *arg = argv[i], *p;

		if (arg[0] != '-' || arg[1] == '\0') {
			snprintf(err, errlen, "cyclictest: unexpected '%s'",
				 arg);
			return -EINVAL;
		}
		if (arg[1] == '-') {
			if (strcmp(arg, "--priospread"))
				goto unknown;
			o->priospread = true;
			continue;
		}
		for (p = arg + 1; *p; p++) {
			const char *val = p[1] ? p + 1 : NULL;
			int kind = takes_value(*p);

			if (*p == 'S' || *p == 'q' || *p == 'm' || *p == 'n') {
				if (*p == 'S')
					smp = true;
				else if (*p == 'q')
					o->quiet = true;
				continue;
			}
			if (!kind) {
				if (strchr(not_in_rtk, *p))
					goto not_implemented;
				goto unknown;
			}
			if (!val && i + 1 < argc &&
			    (kind == 1 || is_digit(argv[i + 1][0])))
				val = argv[++i];
			if (!val && kind == 1) {
				snprintf(err, errlen,
					 "cyclictest: -%c needs a value", *p);
				return -EINVAL;
			}
			ret = apply(o, *p, val, nr_cpus, &distance_set, err,
				    errlen);
			if (ret)
				return ret;
			break;		/* the value ended the word */
		}
	}

	if (smp) {				/* [3] */
		o->threads = nr_cpus < LAT_MAX_THREADS ? nr_cpus
						       : LAT_MAX_THREADS;
		o->affinity = CT_AFFINITY_SPREAD;
	}
	if (o->hist_us) {			/* [4] */
		o->distance_ignored = distance_set;
		o->distance_us = 0;
	}
	return 0;

not_implemented:
	snprintf(err, errlen,
		 "cyclictest: '%s': rt-tests option not implemented in rtk (see cyclictest_opts.h)",
		 argv[i]);
	return -EINVAL;
unknown:
	snprintf(err, errlen,
		 "cyclictest: unknown option '%s' (use -S -t -a -p -i -d -l -D -h -q -m -n --priospread)",
		 argv[i]);
	return -EINVAL;
}

/*
 * The rule in this file's header.  Context: any; pure.
 */
int cyclictest_thread_prio(const struct cyclictest_opts *o, int n)
{
	int prio = o->priospread ? o->prio - n : o->prio;

	return prio < 1 ? 1 : prio;
}

u32 cyclictest_thread_interval(const struct cyclictest_opts *o, int n)
{
	/* at most 10 s + 31 * 10 s: fits u32 µs */
	return o->interval_us + (u32)n * o->distance_us;
}

/*
 * cyclictest_next_deadline - the deadline after a sample taken at now
 * for the deadline next, period interval_ns: rt-tests' rule in this
 * file's header, the missed periods skipped with one division instead
 * of rt-tests' loop (the same result: the first next + k * interval,
 * k >= 1, that is not before now).  Context: any; pure.
 */
s64 cyclictest_next_deadline(s64 next, s64 now, s64 interval_ns)
{
	next += interval_ns;
	if (now > next)
		next += ((now - next - 1) / interval_ns + 1) * interval_ns;
	return next;
}
