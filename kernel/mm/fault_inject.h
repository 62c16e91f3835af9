/*
 * kernel/mm/fault_inject.h - allocation failures on purpose: failslab
 * (kmalloc, kmem_cache_alloc) and fail_page_alloc (alloc_pages), each
 * with a probability, an interval, a budget of failures and an optional
 * task filter, set by the `fault` shell command or at boot with Linux's
 * syntax: failslab=<interval>,<probability>,<space>,<times> (and the
 * same for fail_page_alloc=).
 *
 * should_fail() decides, for one eligible call: [1] no failures left
 * (times 0) - no; [2] space: the first `space` bytes asked for still
 * succeed; [3] interval N > 1: only every N-th eligible call may fail;
 * [4] it fails with probability percent.  A failure returns NULL from
 * the allocator, as real exhaustion would.
 *
 * Eligible - the allocations a caller can be expected to handle:
 *   - after boot (fault_inject_boot_done(), called by kmain just before
 *     the self-tests or the shell): the boot sequence has no way back
 *     from a failed allocation, and BUG_ONs on one;
 *   - task context only: preempt_count 0, interrupts on, not the idle
 *     task.  Interrupt handlers, raw-lock holders and irqs-off sections
 *     (timers, the scheduler, the lock validator, printk, a slab refill
 *     under its cache lock) are exempt: Linux has the same split in
 *     practice (GFP_ATOMIC users there fail rarely, and mostly in
 *     drivers), and rtk's atomic paths allocate only in boot or
 *     bookkeeping code with no error path;
 *   - failslab: not __GFP_ATOMIC (Linux's ignore-gfp-wait=N would
 *     include them; rtk keeps atomic requests out, see above);
 *   - fail_page_alloc: alloc_pages has no gfp argument, so the context
 *     rule alone decides;
 *   - the task filter: when fault_attr.task is set, only that task's
 *     allocations (Linux's task-filter / make-it-fail): the self-test
 *     uses it so that background threads are not hit.
 * Linux counterpart: lib/fault-inject.c (should_fail, fault_attr),
 * mm/failslab.c, mm/fail_page_alloc.c, Documentation/fault-injection.
 */
#ifndef KERNEL_MM_FAULT_INJECT_H
#define KERNEL_MM_FAULT_INJECT_H

#include "lib/types.h"

struct task_struct;

struct fault_attr {
	const char *name;		/* "failslab", "fail_page_alloc" */
	/* settings: set by one writer (shell, test, boot), read racily */
	unsigned long probability;	/* percent, 0..100 */
	unsigned long interval;		/* >1: only every interval-th call */
	long times;			/* failures left; -1: no limit */
	long space;			/* bytes that still succeed first */
	struct task_struct *task;	/* only this task; NULL: any */
	/* counters, atomic: */
	unsigned long calls;		/* eligible calls seen */
	unsigned long count;		/* interval counter */
	unsigned long failures;		/* failures injected */
};

extern struct fault_attr failslab;
extern struct fault_attr fail_page_alloc;

/* should_fail - see the file header; size in bytes.  Context: any. */
bool should_fail(struct fault_attr *attr, size_t size);

/* should_failslab - fail this kmalloc/kmem_cache_alloc?  Context: any. */
bool should_failslab(size_t size, int flags);

/* should_fail_alloc_page - fail this alloc_pages(order)?  Context: any. */
bool should_fail_alloc_page(unsigned int order);

/* fault_attr_set - new settings (counters kept); -EINVAL for a
 * probability over 100.  times -1: no limit.  Context: any. */
int fault_attr_set(struct fault_attr *attr, unsigned long probability,
		   unsigned long interval, long times, long space,
		   struct task_struct *task);

/* fault_attr_off - no more failures from attr (times 0, probability 0). */
void fault_attr_off(struct fault_attr *attr);

/* fault_attr_enabled - may attr fail anything at all now? */
bool fault_attr_enabled(const struct fault_attr *attr);

/* fault_inject_boot_done - from now on allocations are eligible.
 * Context: kmain, once, before the self-tests and the shell. */
void fault_inject_boot_done(void);

#endif /* KERNEL_MM_FAULT_INJECT_H */
