/*
 * kernel/irqflags.h - the interrupt-flag families of the portable kernel:
 *
 * raw_local_irq_*(): the machine's operations (arch_local_irq_*, in
 *	arch/x86_64/irqflags_hw.h through arch.h) with the irqs-off timing
 *	hooks of CRITICAL_IRQSOFF_TIMING (kernel/debug/latency_timing.h);
 *	they really disable interrupts under every model.  The article's
 *	Summary ("Interrupt Handlers") reserves them for SA_NODELAY
 *	handlers, the scheduler and synchronisation primitives.
 *
 * local_irq_*(), whose meaning depends on the preemption model (article,
 * Summary, "Interrupt Handlers"):
 *
 *  none/voluntary/desktop: local_irq_disable() and friends are the raw
 *	operations: interrupts really are disabled.
 *  rt: they do not touch IF; they only disable preemption, which is
 *	enough against every handler except SA_NODELAY ones (those run in
 *	hard-irq context, and code sharing data with them must use the
 *	raw_local_irq_*() family).
 *
 * Under rt the "soft" interrupt-disable state is one per-CPU flag,
 * rt_soft_irqs_off, saved and restored with the task at a context
 * switch (kernel/sched/core.c); while it is set preemption is off.  The
 * flags value stays meaningful: local_irq_save() stores ARCH_IRQ_ENABLED
 * when the soft state was "enabled" and 0 when it was "disabled", so
 * irqs_disabled_flags(flags) and local_irq_restore(flags) behave as with
 * the raw family (disable does not nest, restore returns to the saved
 * state).  irqs_disabled() is true when either the soft flag or the real
 * IF says so.
 * The _nort helpers (no effect under rt) are here too.
 * Linux counterpart: include/linux/irqflags.h; the 2.6.1x -rt patch's
 * local_irq_*() mapping and *_nort() macros.
 */
#ifndef KERNEL_IRQFLAGS_H
#define KERNEL_IRQFLAGS_H

#include "arch/x86_64/arch.h"
#include "kernel/debug/hooks.h"
#include "kernel/percpu.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/preempt_model.h"

/* The trace_hardirqs_*() hooks are CRITICAL_IRQSOFF_TIMING's (nothing
 * without it): kernel/debug/hooks.h. */
#define raw_local_save_flags(flags)                                          \
	do {                                                                 \
		(flags) = arch_local_save_flags();                           \
	} while (0)
#define raw_local_irq_disable()                                              \
	do {                                                                 \
		unsigned long __lat_was = trace_irq_flags();                 \
		arch_local_irq_disable();                                    \
		trace_hardirqs_off(__lat_was);                               \
	} while (0)
#define raw_local_irq_enable()                                               \
	do {                                                                 \
		trace_hardirqs_on(ARCH_IRQ_ENABLED);                         \
		arch_local_irq_enable();                                     \
	} while (0)
#define raw_local_irq_save(flags)                                            \
	do {                                                                 \
		(flags) = arch_local_irq_save();                             \
		trace_hardirqs_off(flags);                                   \
	} while (0)
#define raw_local_irq_restore(flags)                                         \
	do {                                                                 \
		trace_hardirqs_on(flags);                                    \
		arch_local_irq_restore(flags);                               \
	} while (0)
#define raw_irqs_disabled_flags(flags) arch_irqs_disabled_flags(flags)
#define raw_irqs_disabled() arch_irqs_disabled()

DECLARE_PER_CPU(int, rt_soft_irqs_off);

static inline bool rt_soft_irqs_off_now(void)
{
	return this_cpu_read(rt_soft_irqs_off) != 0;
}

#if PREEMPT_RT_IRQFLAGS

static inline void local_irq_disable(void)
{
	if (!this_cpu_read(rt_soft_irqs_off)) {
		preempt_disable();
		this_cpu_write(rt_soft_irqs_off, 1);
	}
}

static inline void local_irq_enable(void)
{
	if (this_cpu_read(rt_soft_irqs_off)) {
		this_cpu_write(rt_soft_irqs_off, 0);
		preempt_enable();
	}
}

static inline unsigned long __local_irq_save(void)
{
	unsigned long flags = this_cpu_read(rt_soft_irqs_off) ? 0
							     : ARCH_IRQ_ENABLED;

	local_irq_disable();
	return flags;
}

#define local_irq_save(flags)                                                \
	do {                                                                 \
		(flags) = __local_irq_save();                                \
	} while (0)

static inline void local_irq_restore(unsigned long flags)
{
	if (flags & ARCH_IRQ_ENABLED)
		local_irq_enable();
	else
		local_irq_disable();
}

#define local_save_flags(flags)                                              \
	do {                                                                 \
		(flags) = this_cpu_read(rt_soft_irqs_off) ? 0 : ARCH_IRQ_ENABLED; \
	} while (0)

#define irqs_disabled() (rt_soft_irqs_off_now() || raw_irqs_disabled())

#else /* !PREEMPT_RT_IRQFLAGS: the raw operations */

#define local_irq_disable() raw_local_irq_disable()
#define local_irq_enable() raw_local_irq_enable()
#define local_irq_save(flags) raw_local_irq_save(flags)
#define local_irq_restore(flags) raw_local_irq_restore(flags)
#define local_save_flags(flags) raw_local_save_flags(flags)
#define irqs_disabled() (rt_soft_irqs_off_now() || raw_irqs_disabled())

#endif

#define irqs_disabled_flags(flags) raw_irqs_disabled_flags(flags)

/*
 * The _nort family: the normal effect under none/voluntary/desktop,
 * nothing under rt (where the protection comes from a sleeping lock or
 * from the code running in a thread anyway).  flags is set so that a
 * restore_nort of it is harmless and irqs_disabled_flags() says
 * "enabled".
 */
#if PREEMPT_RT_IRQFLAGS
#define local_irq_disable_nort() do { } while (0)
#define local_irq_enable_nort() do { } while (0)
#define local_irq_save_nort(flags)                                           \
	do {                                                                 \
		(flags) = ARCH_IRQ_ENABLED;                                     \
	} while (0)
#define local_irq_restore_nort(flags) ((void)(flags))
#define preempt_disable_nort() do { } while (0)
#define preempt_enable_nort() do { } while (0)
#else
#define local_irq_disable_nort() local_irq_disable()
#define local_irq_enable_nort() local_irq_enable()
#define local_irq_save_nort(flags) local_irq_save(flags)
#define local_irq_restore_nort(flags) local_irq_restore(flags)
#define preempt_disable_nort() preempt_disable()
#define preempt_enable_nort() preempt_enable()
#endif

#endif /* KERNEL_IRQFLAGS_H */
