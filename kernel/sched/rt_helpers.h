/*
 * kernel/sched/rt_helpers.h - the article's _rt / _nort checking and
 * CPU-number helpers ("Miscellaneous"):
 *
 *   BUG_ON_RT(c), WARN_ON_RT(c)		check only under PREEMPT_RT
 *   BUG_ON_NONRT(c), WARN_ON_NONRT(c)	check only under the other models
 *   in_atomic_rt()			in_atomic() || irqs_disabled()
 *					under rt, false otherwise
 *   smp_processor_id_rt(cpu)		cpu under rt (the caller's idea of
 *					its CPU, it may migrate anyway),
 *					smp_processor_id() otherwise
 *
 * The conditions are compiled under every model (sizeof keeps them
 * type-checked without evaluating them).  spin_lock_rt/_nort are the
 * locking code's (kernel/locking).  Low-level code only, as the article
 * says.  Linux counterpart: the -rt patch's include/linux/bug.h and
 * smp.h additions.
 */
#ifndef KERNEL_SCHED_RT_HELPERS_H
#define KERNEL_SCHED_RT_HELPERS_H

#include "lib/bug.h"
#include "kernel/irqflags.h"

#define __RT_UNCHECKED(c) ((void)sizeof(!!(c)), 0)

#if PREEMPT_RT_IRQFLAGS
#define BUG_ON_RT(c) BUG_ON(c)
#define WARN_ON_RT(c) WARN_ON(c)
#define BUG_ON_NONRT(c) ((void)__RT_UNCHECKED(c))
#define WARN_ON_NONRT(c) __RT_UNCHECKED(c)
#define in_atomic_rt() (in_atomic() || irqs_disabled())
#define smp_processor_id_rt(cpu) (cpu)
#else
#define BUG_ON_RT(c) ((void)__RT_UNCHECKED(c))
#define WARN_ON_RT(c) __RT_UNCHECKED(c)
#define BUG_ON_NONRT(c) BUG_ON(c)
#define WARN_ON_NONRT(c) WARN_ON(c)
#define in_atomic_rt() 0
#define smp_processor_id_rt(cpu) ((void)(cpu), smp_processor_id())
#endif

#endif /* KERNEL_SCHED_RT_HELPERS_H */
