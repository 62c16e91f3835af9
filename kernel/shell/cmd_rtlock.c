/*
 * kernel/shell/cmd_rtlock.c - `rtlock`: lock debugging state and the
 * DEBUG_RT_LOCKING_MODE switch (kernel/locking/rtlock_mode.h), plus the
 * DEBUG_IRQ_FLAGS reports (kernel/locking/debug_irqflags.h) and the
 * desched thread's counters (kernel/sched/deferred.h).
 *
 *	rtlock			mode, irq-flag reports, deferred releases
 *	rtlock mode rt|raw	switch spinlock_t (PREEMPT=rt builds with
 *				DEBUG_RT_LOCKING_MODE only)
 */
#include "kernel/locking/rtlock_mode.h"
#include "kernel/locking/debug_irqflags.h"
#include "kernel/sched/deferred.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"

static int rtlock_switch(const char *arg)
{
	enum rtlock_mode mode;
	int ret;

	if (strcmp(arg, "rt") && strcmp(arg, "raw")) {
		console_printf("rtlock: unknown mode '%s' (rt or raw)\n", arg);
		return -EINVAL;
	}
	mode = !strcmp(arg, "rt") ? RTLOCK_MODE_RT : RTLOCK_MODE_RAW;
	ret = rtlock_set_mode(mode);
	if (ret)
		console_printf("rtlock: spinlock_t is fixed at %s in this build "
			       "(PREEMPT=rt and DEBUG_RT_LOCKING_MODE=1 switch)\n",
			       rtlock_mode_name(rtlock_get_mode()));
	else
		console_printf("rtlock: spinlock_t mode %s\n",
			       rtlock_mode_name(mode));
	return ret;
}

/* cmd_rtlock - Context: task (the shell). */
static int cmd_rtlock(int argc, char **argv)
{
	struct debug_irqflags_report r;
	struct deferred_stats d;
	unsigned long n;

	if (argc == 3 && !strcmp(argv[1], "mode"))
		return rtlock_switch(argv[2]);
	if (argc != 1) {
		console_printf("usage: rtlock [mode rt|raw]\n");
		return -EINVAL;
	}
	console_printf("spinlock_t mode: %s (%s)\n",
		       rtlock_mode_name(rtlock_get_mode()),
		       RTLOCK_MODE_SWITCHABLE ? "switchable" : "fixed");
	n = debug_irqflags_reports(&r);
	console_printf("DEBUG_IRQ_FLAGS: %s, %lu reports", 
		       DEBUG_IRQ_FLAGS_ENABLED ? "on" : "off", n);
	if (n)
		console_printf(", last %s at %s:%d flags %#lx saved %#lx%s", r.lock_name,
			       r.file, r.line, r.seen, r.saved,
			       r.no_save ? " (no save)" : "");
	console_printf("\n");
	deferred_get_stats(&d);
	console_printf("desched: tasks %lu/%lu released, mm %lu/%lu released, "
		       "%lu released non-preemptible; %d mm_structs live\n",
		       d.tasks_released, d.tasks_queued, d.mms_released,
		       d.mms_queued, d.released_atomic, mm_count_live());
	return 0;
}
SHELL_COMMAND(rtlock, "lock debugging: spinlock_t mode rt|raw, irq-flag reports",
	      cmd_rtlock);
