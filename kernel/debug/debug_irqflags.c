/*
 * kernel/debug/debug_irqflags.c - DEBUG_IRQ_FLAGS: the table of
 * outstanding *_lock_irqsave() saves (see debug_irqflags.h).
 *
 * The table holds SAVE_SLOTS entries, scanned linearly under one raw
 * lock: 128 is well above what rtk holds at once (a handful of irqsave
 * sections per CPU, nested at most two or three deep), and the scan only
 * costs in debug builds.  A save whose restore went through a different
 * call (spin_unlock() + local_irq_restore()) leaves a stale entry; the
 * next save of the same (lock, task) reuses it.  If the table ever
 * overflows, the oldest slot is reused and "no matching save" is no
 * longer reported (it could be the evicted entry), only mismatches.
 */
#include "kernel/locking/debug_irqflags.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/sched/sched.h"
#include "kernel/printk.h"

static DEFINE_RAW_SPINLOCK(irqflags_lock);
static unsigned long nr_reports;		/* under irqflags_lock */
static struct debug_irqflags_report last_report;

#if defined(CONFIG_DEBUG_IRQ_FLAGS)
#define SAVE_SLOTS 128

struct irqflags_save {
	const void *lock;		/* NULL: free slot */
	struct task_struct *task;	/* who saved (NULL in early boot) */
	unsigned long flags;
	const char *file;
	int line;
};

/* under irqflags_lock */
static struct irqflags_save saves[SAVE_SLOTS];
static unsigned int next_evict;
static unsigned long nr_overflows;

/* find_slot - the entry of (lock, task), else a free one if want_free,
 * else NULL.  Locking: irqflags_lock held. */
static struct irqflags_save *find_slot(const void *lock,
				       struct task_struct *task,
				       bool want_free)
{
	struct irqflags_save *free_slot = NULL;
	unsigned int i;

	for (i = 0; i < SAVE_SLOTS; i++) {
		if (saves[i].lock == lock && saves[i].task == task)
			return &saves[i];
		if (!saves[i].lock && !free_slot)
			free_slot = &saves[i];
	}
	return want_free ? free_slot : NULL;
}

void debug_irqflags_saved(const void *lock, unsigned long flags,
			  const char *file, int line)
{
	struct task_struct *task = current_or_null();
	struct irqflags_save *s;
	unsigned long irq;

	raw_spin_lock_irqsave(&irqflags_lock, irq);
	s = find_slot(lock, task, true);
	if (!s) {
		nr_overflows++;
		s = &saves[next_evict];
		next_evict = (next_evict + 1) % SAVE_SLOTS;
	}
	*s = (struct irqflags_save){ lock, task, flags, file, line };
	raw_spin_unlock_irqrestore(&irqflags_lock, irq);
}

void debug_irqflags_check(const void *lock, const char *op, const char *name,
			  unsigned long flags, const char *file, int line)
{
	struct task_struct *task = current_or_null();
	struct irqflags_save *s, found = { 0 };
	bool report;
	unsigned long irq;

	raw_spin_lock_irqsave(&irqflags_lock, irq);
	s = find_slot(lock, task, false);
	if (s) {
		found = *s;
		s->lock = NULL;
	}
	report = s ? found.flags != flags : nr_overflows == 0;
	if (report) {
		nr_reports++;
		last_report = (struct debug_irqflags_report){
			.op = op, .lock_name = name, .file = file, .line = line,
			.seen = flags, .saved = found.flags, .no_save = !s,
		};
	}
	raw_spin_unlock_irqrestore(&irqflags_lock, irq);
	if (!report)
		return;
	if (!s)
		pr_err("DEBUG_IRQ_FLAGS: %s(%s) at %s:%d (task %s): flags "
		       "%#lx, but no irqsave of this lock by this task is "
		       "outstanding\n",
		       op, name, file, line, task ? task->name : "-", flags);
	else
		pr_err("DEBUG_IRQ_FLAGS: %s(%s) at %s:%d (task %s): flags "
		       "%#lx did not come from the matching save, which "
		       "returned %#lx at %s:%d\n",
		       op, name, file, line, task ? task->name : "-", flags,
		       found.flags, found.file, found.line);
}
#endif /* CONFIG_DEBUG_IRQ_FLAGS */

unsigned long debug_irqflags_reports(struct debug_irqflags_report *last)
{
	unsigned long irq, n;

	raw_spin_lock_irqsave(&irqflags_lock, irq);
	n = nr_reports;
	if (last)
		*last = last_report;
	raw_spin_unlock_irqrestore(&irqflags_lock, irq);
	return n;
}
