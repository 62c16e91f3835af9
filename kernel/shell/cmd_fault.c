/*
 * kernel/shell/cmd_fault.c - the `fault` command: allocation-failure
 * injection (kernel/mm/fault_inject.h) and, to see the memory debugger
 * at work, bugs injected on purpose (kernel/mm/slab_debug.h):
 *
 *	fault                       settings and counters of both
 *	fault slab|page [probability P] [interval N] [times T] [space S]
 *	fault slab|page off, fault off
 *	fault uaf                   write after kfree, then kmalloc again
 *	fault double-free           kfree twice
 *	fault redzone               write one byte past a kmalloc(40)
 * The injected bugs print a full report ("BUG: slab: ...") with the
 * allocation and free sites (fault_demo_alloc, fault_demo_free).
 * Linux counterpart: /sys/kernel/debug/failslab/, fail_page_alloc/
 * (probability, interval, times, space), lkdtm's SLAB_* crash types.
 */
#include "kernel/shell/shell.h"
#include "kernel/mm/fault_inject.h"
#include "kernel/mm/mm_report.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/slab_debug.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

#define FAULT_USAGE "fault [slab|page [probability P] [interval N] " \
	"[times T] [space S] | slab|page off | off | uaf | double-free | redzone]"
#define DEMO_SEARCH 20000	/* kmalloc-64 objects tried to meet it again */

static void show_attr(const char *what, const struct fault_attr *a)
{
	console_printf("%-5s (%s): %s probability %lu%% interval %lu times %ld "
		       "space %ld%s; %lu eligible calls, %lu failed\n", what,
		       a->name, fault_attr_enabled(a) ? "on, " : "off,",
		       a->probability, a->interval, a->times, a->space,
		       a->task ? " (one task)" : "", a->calls, a->failures);
}

/* set_attr - "probability P interval N times T space S", any order, any
 * subset (defaults: probability 100, interval 1, times -1, space 0). */
static int set_attr(struct fault_attr *a, int argc, char **argv)
{
	long prob = 100, interval = 1, times = -1, space = 0, *v;
	int err;

	if (argc == 1 && !strcmp(argv[0], "off")) {
		fault_attr_off(a);
		return 0;
	}
	if (argc % 2)
		return shell_usage(FAULT_USAGE);
	for (int i = 0; i < argc; i += 2) {
		long max = 1L << 40, min = 0;	/* any sane count */

		if (!strcmp(argv[i], "probability")) {
			v = &prob;
			max = 100;
		} else if (!strcmp(argv[i], "interval")) {
			v = &interval;
			min = 1;
		} else if (!strcmp(argv[i], "times")) {
			v = &times;
			min = -1;
		} else if (!strcmp(argv[i], "space")) {
			v = &space;
		} else {
			return shell_usage(FAULT_USAGE);
		}
		err = shell_parse_long("fault", argv[i], argv[i + 1], min, max, v);
		if (err)
			return err;
	}
	return fault_attr_set(a, prob, interval, times, space, NULL);
}

/* The demo's sites: noinline, and no tail calls, so the reports name
 * them. */
static noinline void *fault_demo_alloc(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void fault_demo_free(void *p)
{
	kfree(p);
	barrier();
}

/* demo_uaf - free, write, then kmalloc(64) until the object comes back:
 * its poison check reports the write. */
static int demo_uaf(void)
{
	u8 *p = fault_demo_alloc(64);
	bool met;

	if (!p)
		return -ENOMEM;
	fault_demo_free(p);
	p[8] = 0x41;
	met = slab_debug_meet_again(64, p, DEMO_SEARCH);
	console_printf("fault uaf: wrote byte 8 of %p after kfree; %s\n", p,
		       met ? "kmalloc met it again (report above)" :
			     "kmalloc never met it again (SLAB_DEBUG=0?)");
	return 0;
}

static int demo_double_free(void)
{
	void *p = fault_demo_alloc(96);

	if (!p)
		return -ENOMEM;
	fault_demo_free(p);
	kfree(p);
	console_printf("fault double-free: freed %p twice (report above)\n", p);
	return 0;
}

static int demo_redzone(void)
{
	u8 *p = fault_demo_alloc(40);

	if (!p)
		return -ENOMEM;
	p[40] = 0;
	fault_demo_free(p);
	console_printf("fault redzone: wrote byte 40 of a kmalloc(40) (report "
		       "above)\n");
	return 0;
}

static int cmd_fault(int argc, char **argv)
{
	int err;

	if (argc == 1) {
		show_attr("slab", &failslab);
		show_attr("page", &fail_page_alloc);
		console_printf("memory-debugging reports so far: %lu\n",
			       mm_report_count());
		return 0;
	}
	if (!strcmp(argv[1], "slab") || !strcmp(argv[1], "page")) {
		err = set_attr(argv[1][0] == 's' ? &failslab : &fail_page_alloc,
			       argc - 2, argv + 2);
		if (!err)
			show_attr(argv[1], argv[1][0] == 's' ? &failslab :
							      &fail_page_alloc);
		return err;
	}
	if (argc != 2)
		return shell_usage(FAULT_USAGE);
	if (!strcmp(argv[1], "off")) {
		fault_attr_off(&failslab);
		fault_attr_off(&fail_page_alloc);
		return 0;
	}
	if (!strcmp(argv[1], "uaf"))
		err = demo_uaf();
	else if (!strcmp(argv[1], "double-free"))
		err = demo_double_free();
	else if (!strcmp(argv[1], "redzone"))
		err = demo_redzone();
	else
		return shell_usage(FAULT_USAGE);
	if (err)
		console_printf("fault: out of memory\n");
	return err;
}
SHELL_COMMAND(fault, "inject allocation failures (fault slab|page ...) or a "
	      "memory bug (fault uaf|double-free|redzone)", cmd_fault);
