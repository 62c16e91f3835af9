/*
 * kernel/workloads/soak.c - the soak: loads, torture, pi_stress, cyclictest
 * and the pitest scripts at once (see soak.h).
 *
 * Threads during a soak of S seconds (the runner is the caller, the
 * shell or the soak suite, SCHED_OTHER):
 *
 *	runner          soak-pi_stress     soak-cyclictest    torture, loads
 *	[1] loads
 *	[2] torture_start("all", S) ------------------------> S seconds
 *	[3] start ----> pi_stress_run(S)   cyclictest_run(-D S)
 *	[4] pitest scripts in turn,
 *	    until S passed
 *	[5] torture_wait, wait for both threads, stop the loads
 *	[6] add up, print the verdict
 *
 * Every part bounds itself by S; the runner's waits in [5] are plain
 * completions.  A part that cannot start stops what was started before
 * it ([1]-[3] unwind in reverse).
 * Linux counterpart: none in-tree (see soak.h).
 */
#include "kernel/workloads/soak.h"
#include "kernel/workloads/cyclictest.h"
#include "kernel/workloads/load.h"
#include "kernel/workloads/torture.h"
#include "kernel/workloads/rttester.h"
#include "kernel/locking/spinlock.h"
#include "kernel/cmdline.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/wait.h"
#include "kernel/smp.h"
#include "kernel/version.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

unsigned int soak_duration;

static int __init parse_soak_duration(const char *val)
{
	unsigned long s;

	if (!val || kstrtoul(val, 10, &s) || !s || s > SOAK_MAX_SECONDS)
		return -EINVAL;
	soak_duration = s;
	return 0;
}
CMDLINE_PARAM("soak.duration", parse_soak_duration);

/* [1] the background loads: kind, n, section (µs) */
static const struct {
	enum load_kind kind;
	int n, us;
} soak_loads[] = {
	{ LOAD_HACKBENCH, 1, 0 },
	{ LOAD_LOCKHOG, 2, 200 },
	{ LOAD_IRQ, 1000, 0 },
};

/* pi_stress's groups pause between iterations: back to back they would
 * keep every CPU busy at FIFO 20-22 and starve whatever runs below
 * (the SCHED_OTHER pitest threads, the loads, torture's SCHED_OTHER
 * side) for the whole soak - seen: pitest W: timeouts, cyclictest
 * maxima of seconds */
#define SOAK_PI_STRESS_GAP_US 1000

/* The pitest's W: bound during a soak: its SCHED_OTHER threads compete
 * with every load and torture thread (under none nothing preempts those),
 * so 5 s without a step is starvation, not a lost wake-up; a minute
 * still tells a stuck tester from a slow one. */
#define SOAK_PITEST_WAIT_S 60

/* One soak at a time: its state is static, like the pitest's. */
static struct soak_state {
	unsigned int seconds;
	struct soak_result *res;
	struct completion pi_done, ct_done;
} soak;
static bool soak_running;	/* under soak_lock */
static DEFINE_SPINLOCK(soak_lock);

static int soak_pi_stress_fn(void *unused)
{
	struct pi_stress_opts o = {
		.seconds = soak.seconds,
		.gap_us = SOAK_PI_STRESS_GAP_US,
	};
	char line[128];

	soak.res->pi_stress_rc = pi_stress_run(&o, &soak.res->pi);
	printk("soak: %s\n", pi_stress_verdict(line, sizeof(line),
					       &soak.res->pi));
	complete(&soak.pi_done);
	return 0;
}

/* soak_ct_emit - keep the largest "Max:" of cyclictest's T: lines. */
static void soak_ct_emit(void *ctx, const char *line)
{
	const char *m = strstr(line, "Max:");
	long v = 0;

	if (strncmp(line, "T:", 2) || !m)
		return;
	for (m += 4; *m == ' '; m++)
		;
	for (; *m >= '0' && *m <= '9'; m++)
		v = v * 10 + (*m - '0');
	if (v > soak.res->cyclictest_max_us)
		soak.res->cyclictest_max_us = v;
	printk("soak: cyclictest %s\n", line);
}

static int soak_cyclictest_fn(void *unused)
{
	struct cyclictest_opts o = {
		.threads = num_online_cpus(),
		.affinity = CT_AFFINITY_SPREAD,
		.prio = 99,
		.interval_us = 1000,
		.distance_us = 500,
		.duration_s = soak.seconds,
		.quiet = true,
	};

	soak.res->cyclictest_rc = cyclictest_run(&o, soak_ct_emit, NULL, NULL,
						 NULL);
	complete(&soak.ct_done);
	return 0;
}

/* soak_start_thread - [3] one helper thread, woken; NULL on -ENOMEM. */
static struct task_struct *soak_start_thread(int (*fn)(void *),
					     const char *name)
{
	struct task_struct *p = kthread_create(fn, NULL, "%s", name);

	if (p) {
		get_task_struct(p);
		wake_up_process(p);
	}
	return p;
}

/*
 * soak_pitest - [4] the built-in scripts in turn until end.  The scripts
 * that end in a deadlock on purpose (t2-l2-deadlock) are left out: the
 * pi suite runs them once, with the validator's report expected; here
 * each pass would leave the tester's threads in the cycle for its
 * recovery to undo and print the same validator report again.
 */
static void soak_pitest(ktime_t end, struct soak_result *res)
{
	struct rttest_result r;
	int i = 0;

	rttest_set_wait_seconds(SOAK_PITEST_WAIT_S);
	while (ktime_get() < end) {
		const struct pi_script *s = &pi_scripts[i];

		i = (i + 1) % nr_pi_scripts;
		if (strstr(s->name, "deadlock"))
			continue;
		res->pitest_runs++;
		if (rttest_run_script(s->text, &r)) {
			res->pitest_failed++;
			printk("soak: pitest %s: ", s->name);
			rttest_print_result(&r);
		}
	}
	rttest_set_wait_seconds(0);
}

/*
 * soak_run - see soak.h; steps [1]-[6] are drawn at the top of the file.
 */
int soak_run(unsigned int seconds, struct soak_result *res)
{
	unsigned long warn0 = READ_ONCE(warn_count);
	unsigned long msw0 = READ_ONCE(might_sleep_warnings);
	struct torture_summary sum = { .kind = "all" };
	struct task_struct *pi_task, *ct_task;
	int ids[ARRAY_SIZE(soak_loads)], i, err;
	char line[256];

	might_sleep();
	if (!seconds || seconds > SOAK_MAX_SECONDS)
		return -EINVAL;
	spin_lock(&soak_lock);
	err = soak_running ? -EBUSY : 0;
	soak_running = true;
	spin_unlock(&soak_lock);
	if (err)
		return err;
	memset(res, 0, sizeof(*res));
	res->seconds = seconds;
	res->cpus = num_online_cpus();
	res->cyclictest_max_us = -1;
	soak.seconds = seconds;
	soak.res = res;
	init_completion(&soak.pi_done);
	init_completion(&soak.ct_done);

	for (i = 0; i < (int)ARRAY_SIZE(soak_loads); i++) {		/* [1] */
		ids[i] = load_start(soak_loads[i].kind, soak_loads[i].n,
				    soak_loads[i].us);
		if (ids[i] < 0) {
			err = ids[i];
			goto out_loads;
		}
		res->loads++;
	}
	err = torture_start("all", seconds);				/* [2] */
	if (err)
		goto out_loads;
	pi_task = soak_start_thread(soak_pi_stress_fn, "soak-pi_stress");
	if (!pi_task) {							/* [3] */
		err = -ENOMEM;
		goto out_torture;
	}
	ct_task = soak_start_thread(soak_cyclictest_fn, "soak-cyclictest");
	if (!ct_task) {
		err = -ENOMEM;
		goto out_pi;
	}
	printk("soak: %u s on %d CPUs: %d loads, pi_stress, cyclictest, "
	       "pitest\n", seconds, res->cpus, res->loads);
	soak_pitest(ktime_get() + (s64)seconds * NSEC_PER_SEC, res);	/* [4] */
	printk("soak: pitest %lu runs, %lu failed\n", res->pitest_runs,
	       res->pitest_failed);
	err = 0;

	wait_for_completion(&soak.ct_done);				/* [5] */
	kthread_stop(ct_task);
	put_task_struct(ct_task);
out_pi:
	wait_for_completion(&soak.pi_done);
	kthread_stop(pi_task);
	put_task_struct(pi_task);
out_torture:
	if (err)
		torture_stop();
	res->torture_rc = torture_wait(&sum);
	res->torture_ops = sum.ops;
	res->torture_errors = sum.errors;
out_loads:
	while (--i >= 0)
		load_stop(ids[i]);
	res->warnings = READ_ONCE(warn_count) - warn0 +			/* [6] */
			READ_ONCE(might_sleep_warnings) - msw0;
	if (!err)
		printk("%s\n", soak_verdict(line, sizeof(line), res));
	spin_lock(&soak_lock);
	soak_running = false;
	spin_unlock(&soak_lock);
	return err;
}

bool soak_passed(const struct soak_result *res)
{
	return res->loads == (int)ARRAY_SIZE(soak_loads) &&
	       res->torture_errors == 0 && res->torture_rc == 0 &&
	       res->pitest_runs > 0 && res->pitest_failed == 0 &&
	       res->pi_stress_rc == 0 && pi_stress_passed(&res->pi) &&
	       res->cyclictest_rc == 0 && res->cyclictest_max_us >= 0 &&
	       res->warnings == 0;
}

char *soak_verdict(char *buf, size_t size, const struct soak_result *res)
{
	char model[16];
	int i;

	for (i = 0; RTK_PREEMPT_NAME[i] && i < (int)sizeof(model) - 1; i++)
		model[i] = RTK_PREEMPT_NAME[i] | 0x20;	/* lower case */
	model[i] = '\0';
	snprintf(buf, size,
		 "soak-verdict: model=%s cpus=%d seconds=%u torture_errors=%lu "
		 "pitest_failed=%lu pi_stress_unresolved=%lu "
		 "pi_stress_deadlocks=%d cyclictest_max_us=%ld warnings=%lu "
		 "oops=0 result=%s",
		 model, res->cpus, res->seconds, res->torture_errors,
		 res->pitest_failed, res->pi.unresolved, res->pi.deadlocks,
		 res->cyclictest_max_us, res->warnings,
		 soak_passed(res) ? "PASS" : "FAIL");
	return buf;
}
