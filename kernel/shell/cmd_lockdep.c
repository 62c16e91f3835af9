/*
 * kernel/shell/cmd_lockdep.c - `lockdep`: the lock validator's state
 * (kernel/locking/lockdep.h) and a demonstration.
 *
 *	lockdep			counts: classes, dependencies, reports
 *	lockdep classes		every live class: init site, subclass,
 *				dependencies out of it, irq usage
 *				('+' taken in hard irq, '-' with irqs on)
 *	lockdep abba		take demo lock A then B, then B then A: the
 *				validator reports the second order the first
 *				time it is taken (no deadlock happens: one
 *				task, one order after the other); the demo
 *				classes are forgotten afterwards, so it can be
 *				run again
 */
#include "kernel/locking/lockdep.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"

static DEFINE_RAW_SPINLOCK(lockdep_demo_a);
static DEFINE_RAW_SPINLOCK(lockdep_demo_b);

static void print_class(const char *name, const char *file, int line,
			unsigned int subclass, unsigned int deps,
			const char *usage, void *arg)
{
	(void)arg;
	console_printf("  %-28s %s %3u deps  %s:%d", name, usage, deps,
		       file ? file : "(uninitialised)", line);
	if (subclass)
		console_printf(" subclass %u", subclass);
	console_printf("\n");
}

/* lockdep_abba - the demonstration.  Context: task (the shell). */
static int lockdep_abba(void)
{
	struct lockdep_stats before, after;

	lockdep_get_stats(&before);
	console_printf("lockdep abba: A then B ...\n");
	raw_spin_lock(&lockdep_demo_a);
	raw_spin_lock(&lockdep_demo_b);
	raw_spin_unlock(&lockdep_demo_b);
	raw_spin_unlock(&lockdep_demo_a);
	console_printf("lockdep abba: B then A (the report comes here) ...\n");
	raw_spin_lock(&lockdep_demo_b);
	raw_spin_lock(&lockdep_demo_a);
	raw_spin_unlock(&lockdep_demo_a);
	raw_spin_unlock(&lockdep_demo_b);
	lockdep_get_stats(&after);
	console_printf("lockdep abba: %lu new report(s), last %s\n",
		       after.reports - before.reports,
		       lockdep_kind_name(after.last_kind));
	lockdep_reset_map(&lockdep_demo_a.dep_map);
	lockdep_reset_map(&lockdep_demo_b.dep_map);
	return 0;
}

/* cmd_lockdep - Context: task (the shell). */
static int cmd_lockdep(int argc, char **argv)
{
	struct lockdep_stats st;

	if (!LOCKDEP_ENABLED) {
		console_printf("lockdep: built with LOCKDEP=0\n");
		return -EOPNOTSUPP;
	}
	if (argc == 2 && !strcmp(argv[1], "abba"))
		return lockdep_abba();
	if (argc == 2 && !strcmp(argv[1], "classes")) {
		lockdep_for_each_class(print_class, NULL);
		return 0;
	}
	if (argc != 1) {
		console_printf("usage: lockdep [classes|abba]\n");
		return -EINVAL;
	}
	lockdep_get_stats(&st);
	console_printf("validator %s: %u/%u classes, %u/%u dependencies\n",
		       st.enabled ? "on" : "OFF (a table overflowed)",
		       st.classes, st.max_classes, st.edges, st.max_edges);
	console_printf("reports: %lu (%lu expected by self-tests), last %s\n",
		       st.reports, st.expected,
		       lockdep_kind_name(st.last_kind));
	return 0;
}

SHELL_COMMAND(lockdep, "lock validator: lockdep [classes|abba]", cmd_lockdep);
