/*
 * kernel/shell/cmd_config.c - `config`: the preemption model and every
 * build-time option that follows from it (kernel/sched/preempt_model.h;
 * the article's "PREEMPT_RT configuration options").
 */
#include "kernel/shell/shell.h"
#include "kernel/locking/debug_irqflags.h"
#include "kernel/locking/rtlock_mode.h"
#include "kernel/printk.h"
#include "kernel/version.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/smp.h"
#include "kernel/debug/latency_timing.h"

static const char *yn(int v)
{
	return v ? "y" : "n";
}

static int cmd_config(int argc, char **argv)
{
	console_printf("rtk %s\n", RTK_VERSION);
	console_printf("PREEMPT_%s (make PREEMPT=none|voluntary|desktop|rt)\n",
		       RTK_PREEMPT_NAME);
	console_printf("  voluntary preemption points (cond_resched): %s\n",
		       yn(PREEMPT_VOLUNTARY_POINTS));
	console_printf("  PREEMPT (on preempt_enable / irq return):   %s\n",
		       yn(PREEMPT_ON_ENABLE && PREEMPT_ON_IRQ_RETURN));
	console_printf("  local_irq_*() only disable preemption:      %s\n",
		       yn(PREEMPT_RT_IRQFLAGS));
	console_printf("  PREEMPT_HARDIRQS (threaded handlers):       %s\n",
		       yn(PREEMPT_HARDIRQS));
	console_printf("  PREEMPT_SOFTIRQS (ksoftirqd threads):       %s\n",
		       yn(PREEMPT_SOFTIRQS));
	console_printf("  NR_CPUS %d, online %d\n", NR_CPUS, num_online_cpus());
	console_printf("  CRITICAL_PREEMPT_TIMING %s, CRITICAL_IRQSOFF_TIMING %s, "
		       "WAKEUP_TIMING %s (make LATENCY_TIMING=1; `latency`)\n",
		       yn(latency_kind_enabled(LATENCY_PREEMPT_OFF)),
		       yn(latency_kind_enabled(LATENCY_IRQS_OFF)),
		       yn(latency_kind_enabled(LATENCY_WAKEUP)));
	console_printf("  PRINTK_IGNORE_LOGLEVEL %s, DETECT_SOFTLOCKUP %s "
		       "(make PRINTK_IGNORE_LOGLEVEL=1 DETECT_SOFTLOCKUP=0|1)\n",
#ifdef CONFIG_PRINTK_IGNORE_LOGLEVEL
		       "y",
#else
		       "n",
#endif
#ifdef CONFIG_DETECT_SOFTLOCKUP
		       "y");
#else
		       "n");
#endif
	console_printf("  DEBUG_IRQ_FLAGS %s, DEBUG_RT_LOCKING_MODE %s, spinlock_t "
		       "mode %s (make DEBUG_IRQ_FLAGS=0|1 "
		       "DEBUG_RT_LOCKING_MODE=0|1; `rtlock`)\n",
		       yn(DEBUG_IRQ_FLAGS_ENABLED), yn(RTLOCK_MODE_SWITCHABLE),
		       rtlock_mode_name(rtlock_get_mode()));
	return 0;
}
SHELL_COMMAND(config, "show the preemption model and build options", cmd_config);
