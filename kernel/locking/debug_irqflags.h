/*
 * kernel/locking/debug_irqflags.h - DEBUG_IRQ_FLAGS (make
 * DEBUG_IRQ_FLAGS=0 drops it): spin_unlock_irqrestore(),
 * read_unlock_irqrestore() and write_unlock_irqrestore() report a flags
 * value that did not come from the matching *_lock_irqsave() -- one
 * saved for another lock, a stale or altered copy, or no save at all.
 * Restoring the wrong word is how an irqsave section re-enables
 * interrupts under a raw lock still held, or leaves them off for good.
 *
 * Each *_lock_irqsave() on any lock type (raw_spinlock_t, spinlock_t,
 * raw_rwlock_t, rwlock_t) records (lock, task) ->
 * (flags, file:line) in a small table; the unlock looks the pair up,
 * compares, reports a mismatch with both values and both sites, and
 * forgets the entry.  Keyed by task, not CPU: under rt a spinlock_t
 * holder may migrate between the save and the restore.  One entry per
 * (lock, task): a nested irqsave of the same lock by the same task (a
 * recursive read_lock_irqsave) replaces the outer entry, so the outer
 * restore is then reported as having no save.
 * Linux counterpart: the PREEMPT_RT patch's CONFIG_DEBUG_IRQ_FLAGS
 * (mainline later has CONFIG_DEBUG_IRQFLAGS, which only checks that
 * local_irq_restore() runs with irqs off).
 */
#ifndef KERNEL_LOCKING_DEBUG_IRQFLAGS_H
#define KERNEL_LOCKING_DEBUG_IRQFLAGS_H

#include "lib/types.h"

/* The last report, for tests and the shell. */
struct debug_irqflags_report {
	const char *op;			/* "spin_unlock_irqrestore", ... */
	const char *lock_name;		/* the unlock's lock expression */
	const char *file;		/* the unlock site */
	int line;
	unsigned long seen;		/* flags handed to the restore */
	unsigned long saved;		/* what the save returned */
	bool no_save;			/* no save recorded for (lock, task) */
};

#if defined(CONFIG_DEBUG_IRQ_FLAGS)
#define DEBUG_IRQ_FLAGS_ENABLED 1
/* debug_irqflags_saved - record what a *_lock_irqsave() returned.
 * Context: any, right after the save (irqs off or, for an rt
 * spinlock_t, on).  Locking: the table's raw lock, irqs off. */
void debug_irqflags_saved(const void *lock, unsigned long flags,
			  const char *file, int line);
/* debug_irqflags_check - the restore op (its name, for the report) is
 * about to use flags on lock (spelled name at the call site): report if
 * they are not the recorded ones.  Context and locking: as above. */
void debug_irqflags_check(const void *lock, const char *op, const char *name,
			  unsigned long flags, const char *file, int line);
#else
#define DEBUG_IRQ_FLAGS_ENABLED 0
static inline void debug_irqflags_saved(const void *lock, unsigned long flags,
					const char *file, int line)
{
	(void)lock, (void)flags, (void)file, (void)line;
}
static inline void debug_irqflags_check(const void *lock, const char *op,
					const char *name, unsigned long flags,
					const char *file, int line)
{
	(void)lock, (void)op, (void)name, (void)flags, (void)file, (void)line;
}
#endif

/* debug_irqflags_reports - how many reports so far; *last (if not NULL)
 * gets the last one.  0 without DEBUG_IRQ_FLAGS. */
unsigned long debug_irqflags_reports(struct debug_irqflags_report *last);

#endif /* KERNEL_LOCKING_DEBUG_IRQFLAGS_H */
