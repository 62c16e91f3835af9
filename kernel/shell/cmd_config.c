/*
 * kernel/shell/cmd_config.c - `config`: the preemption model and every
 * build-time option, one line each with its value and how to change it,
 * in the order of the article's "PREEMPT_RT configuration options"
 * (High-Level Preemption-Option Selection, Feature-Selection, Debugging)
 * followed by rtk's own.
 *
 * Where the values come from: the model's switches from
 * kernel/sched/preempt_model.h (make PREEMPT=), the timing and debugging
 * options from the Makefile's option variables (TIMING_OPTS, DEBUG_OPTS,
 * LOCK_DEBUG_OPTS, LATENCY_TRACE: -DCONFIG_<name>), RT_DEADLOCK_DETECT
 * from kernel/locking/deadlock.h (on unless -DRT_DEADLOCK_DETECT=0).
 * PREEMPT_BKL follows the model (preempt_model.h, kernel/locking/bkl.h);
 * LPPTEST is always built (drivers/lpptest.c) and says whether COM2, its
 * stimulus line, was found.
 * Linux counterpart: /proc/config.gz (CONFIG_IKCONFIG_PROC).
 */
#include "kernel/shell/shell.h"
#include "drivers/lpptest.h"
#include "kernel/debug/latency_timing.h"
#include "kernel/locking/deadlock.h"
#include "kernel/locking/debug_irqflags.h"
#include "kernel/locking/rtlock_mode.h"
#include "kernel/printk.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/smp.h"
#include "kernel/version.h"
#include "lib/errno.h"
#include "lib/string.h"

/* The -DCONFIG_<name> options as 0/1, for the table below. */
#ifdef CONFIG_LATENCY_TRACE
#define CFG_LATENCY_TRACE 1
#else
#define CFG_LATENCY_TRACE 0
#endif
#ifdef CONFIG_PRINTK_IGNORE_LOGLEVEL
#define CFG_PRINTK_IGNORE_LOGLEVEL 1
#else
#define CFG_PRINTK_IGNORE_LOGLEVEL 0
#endif
#ifdef CONFIG_DETECT_SOFTLOCKUP
#define CFG_DETECT_SOFTLOCKUP 1
#else
#define CFG_DETECT_SOFTLOCKUP 0
#endif
#if defined(CONFIG_DEBUG_PREEMPT)
#define CFG_DEBUG_PREEMPT 1
#else
#define CFG_DEBUG_PREEMPT 0
#endif

#define MODEL_IS(m) (!strcmp(RTK_PREEMPT_NAME, m))

static void show(const char *name, int on, const char *how)
{
	console_printf("  %-24s %s  %s\n", name, on ? "y" : "n", how);
}

/* cmd_config - Context: task (the shell). */
static int cmd_config(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return -EINVAL;
	console_printf("rtk %s, PREEMPT_%s, NR_CPUS %d, online %d\n",
		       RTK_VERSION, RTK_PREEMPT_NAME, NR_CPUS,
		       num_online_cpus());
	console_printf("High-level preemption-option selection "
		       "(make PREEMPT=none|voluntary|desktop|rt):\n");
	show("PREEMPT_NONE", MODEL_IS("NONE"), "");
	show("PREEMPT_VOLUNTARY", MODEL_IS("VOLUNTARY"), "");
	show("PREEMPT_DESKTOP", MODEL_IS("DESKTOP"), "");
	show("PREEMPT_RT", MODEL_IS("RT"), "");

	console_printf("Feature selection (follow the model):\n");
	show("PREEMPT", PREEMPT_ON_ENABLE && PREEMPT_ON_IRQ_RETURN,
	     "preempt on preempt_enable / irq return");
	show("PREEMPT_HARDIRQS", PREEMPT_HARDIRQS, "threaded IRQ handlers");
	show("PREEMPT_RCU", PREEMPT_RCU, "preemptible RCU readers");
	show("PREEMPT_SOFTIRQS", PREEMPT_SOFTIRQS, "softirqs in ksoftirqd");
	show("(voluntary points)", PREEMPT_VOLUNTARY_POINTS,
	     "cond_resched / might_resched preempt");
	show("(rt irq flags)", PREEMPT_RT_IRQFLAGS,
	     "local_irq_*() only disable preemption");
	console_printf("  %-24s %s  BKL is %s (kernel/locking/bkl.h)\n",
		       "PREEMPT_BKL", PREEMPT_BKL ? "y" : "n",
		       PREEMPT_BKL ? "kernel_sem, preemptible" :
				     "kernel_flag, preemption off");

	console_printf("Debugging (make NAME=0|1):\n");
	show("CRITICAL_PREEMPT_TIMING",
	     latency_kind_enabled(LATENCY_PREEMPT_OFF),
	     "or LATENCY_TIMING=1; `latency`");
	show("CRITICAL_IRQSOFF_TIMING", latency_kind_enabled(LATENCY_IRQS_OFF),
	     "or LATENCY_TIMING=1; `latency`");
	show("DEBUG_IRQ_FLAGS", DEBUG_IRQ_FLAGS_ENABLED, "default 1");
	show("DEBUG_PREEMPT", CFG_DEBUG_PREEMPT,
	     "default 0; Linux's: smp_processor_id() checks");
	console_printf("  %-24s %s  default 0; spinlock_t mode now %s "
		       "(`rtlock`)\n", "DEBUG_RT_LOCKING_MODE",
		       RTLOCK_MODE_SWITCHABLE ? "y" : "n",
		       rtlock_mode_name(rtlock_get_mode()));
	show("DETECT_SOFTLOCKUP", CFG_DETECT_SOFTLOCKUP,
	     "default 1; `softlockup`");
	show("LATENCY_TRACE", CFG_LATENCY_TRACE,
	     "implies the timing options; `latency trace`");
	console_printf("  %-24s %s  %s, mode %s, LPT1 %s\n",
		       "LPPTEST", "y", lpptest_present() ?
		       "COM2 irq 3" : "no COM2 (QEMU: a second -serial)",
		       lpptest_mode_name(lpptest_get_mode()),
		       lpptest_parport_present() ? "found (IRQ 7 not host-driven)" :
						    "absent");
	show("PRINTK_IGNORE_LOGLEVEL", CFG_PRINTK_IGNORE_LOGLEVEL, "default 0");
	show("RT_DEADLOCK_DETECT", RT_DEADLOCK_DETECT,
	     "EXTRA_CFLAGS=-DRT_DEADLOCK_DETECT=0 to drop");
	show("RTC_HISTOGRAM", 1, "always built; `rtc hist`");
	show("WAKEUP_TIMING", latency_kind_enabled(LATENCY_WAKEUP),
	     "or LATENCY_TIMING=1; `latency`");
	return 0;
}
SHELL_COMMAND(config, "show the preemption model and every build option",
	      cmd_config);
