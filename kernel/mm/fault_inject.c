/*
 * kernel/mm/fault_inject.c - failslab and fail_page_alloc (rules and
 * eligibility in fault_inject.h), and their boot parameters.
 *
 * The random numbers come from splitmix64 over one atomic counter: no
 * lock, any context, and a fixed seed, so a run with the same order of
 * eligible calls fails the same ones.
 * Linux counterpart: lib/fault-inject.c (should_fail_ex,
 * setup_fault_attr), mm/failslab.c, mm/fail_page_alloc.c.
 */
#include "kernel/mm/fault_inject.h"
#include "kernel/mm/slab.h"
#include "kernel/cmdline.h"
#include "kernel/irqflags.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"

struct fault_attr failslab = { .name = "failslab", .interval = 1 };
struct fault_attr fail_page_alloc = { .name = "fail_page_alloc",
				      .interval = 1 };

static bool boot_done;
static u64 rnd_state = 0x2545f4914f6cdd1dULL;	/* any odd seed */

/* fault_random - the next splitmix64 value.  Context: any. */
static u64 fault_random(void)
{
	u64 z = __atomic_add_fetch(&rnd_state, 0x9e3779b97f4a7c15ULL,
				   __ATOMIC_RELAXED);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

bool fault_attr_enabled(const struct fault_attr *attr)
{
	return READ_ONCE(attr->times) != 0 && READ_ONCE(attr->probability);
}

/* eligible - the context rule of fault_inject.h. */
static bool eligible(const struct fault_attr *attr)
{
	struct task_struct *only = READ_ONCE(attr->task);

	if (!READ_ONCE(boot_done) || !fault_attr_enabled(attr))
		return false;
	if (preempt_count() != 0 || irqs_disabled() ||
	    (current->flags & PF_IDLE))
		return false;
	return !only || only == current;
}

/*
 * should_fail - see fault_inject.h; the steps are the header's.
 * Counters are atomic; a failure under a racing `times` budget may
 * overshoot it by the number of CPUs (Linux: the same).
 */
bool should_fail(struct fault_attr *attr, size_t size)
{
	unsigned long interval = READ_ONCE(attr->interval);
	long times;

	if (!eligible(attr))
		return false;
	__atomic_fetch_add(&attr->calls, 1, __ATOMIC_RELAXED);
	times = READ_ONCE(attr->times);
	if (times == 0)							/* [1] */
		return false;
	if (READ_ONCE(attr->space) > 0) {				/* [2] */
		__atomic_fetch_sub(&attr->space, (long)size, __ATOMIC_RELAXED);
		return false;
	}
	if (interval > 1 &&						/* [3] */
	    __atomic_add_fetch(&attr->count, 1, __ATOMIC_RELAXED) % interval)
		return false;
	if (fault_random() % 100 >= READ_ONCE(attr->probability))	/* [4] */
		return false;
	if (times > 0)
		__atomic_fetch_sub(&attr->times, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&attr->failures, 1, __ATOMIC_RELAXED);
	return true;
}

bool should_failslab(size_t size, int flags)
{
	if (flags & __GFP_ATOMIC)
		return false;
	return should_fail(&failslab, size);
}

bool should_fail_alloc_page(unsigned int order)
{
	return should_fail(&fail_page_alloc, PAGE_SIZE << order);
}

int fault_attr_set(struct fault_attr *attr, unsigned long probability,
		   unsigned long interval, long times, long space,
		   struct task_struct *task)
{
	if (probability > 100)
		return -EINVAL;
	/* probability last: it is what turns the attr on */
	WRITE_ONCE(attr->probability, 0);
	WRITE_ONCE(attr->interval, interval ? interval : 1);
	WRITE_ONCE(attr->space, space);
	WRITE_ONCE(attr->task, task);
	WRITE_ONCE(attr->times, times);
	WRITE_ONCE(attr->probability, probability);
	return 0;
}

void fault_attr_off(struct fault_attr *attr)
{
	WRITE_ONCE(attr->probability, 0);
	WRITE_ONCE(attr->times, 0);
	WRITE_ONCE(attr->task, NULL);
}

void fault_inject_boot_done(void)
{
	WRITE_ONCE(boot_done, true);
	if (fault_attr_enabled(&failslab) || fault_attr_enabled(&fail_page_alloc))
		pr_info("fault: injecting allocation failures from now on "
			"(failslab %lu%%, fail_page_alloc %lu%%)\n",
			failslab.probability, fail_page_alloc.probability);
}

/*
 * parse_fault_attr - "<interval>,<probability>,<space>,<times>", Linux's
 * setup_fault_attr() syntax (times -1: no limit).
 */
static int __init parse_fault_attr(struct fault_attr *attr, const char *val)
{
	long v[4];
	char buf[64], *s, *comma;
	int i, err;

	if (!val || strscpy(buf, val, sizeof(buf)) < 0)
		return -EINVAL;
	s = buf;
	for (i = 0; i < 4; i++) {
		comma = strchr(s, ',');
		if ((i < 3) != (comma != NULL))
			goto out_bad;
		if (comma)
			*comma = '\0';
		err = kstrtol(s, 10, &v[i]);
		if (err)
			goto out_bad;
		if (comma)
			s = comma + 1;
	}
	if (v[0] < 0 || v[1] < 0 ||
	    fault_attr_set(attr, v[1], v[0], v[3], v[2], NULL))
		goto out_bad;
	return 0;
out_bad:
	pr_err("%s=%s: expected <interval>,<probability>,<space>,<times>\n",
	       attr->name, val);
	return -EINVAL;
}

static int __init parse_failslab(const char *val)
{
	return parse_fault_attr(&failslab, val);
}
CMDLINE_PARAM("failslab", parse_failslab);

static int __init parse_fail_page_alloc(const char *val)
{
	return parse_fault_attr(&fail_page_alloc, val);
}
CMDLINE_PARAM("fail_page_alloc", parse_fail_page_alloc);
