/*
 * kernel/mm/mm_struct.h - struct mm_struct: a reference-counted address
 * space.  rtk has one so far, init_mm, the kernel's page tables, which
 * every kernel thread uses; mm_alloc() makes further ones that share the
 * kernel's tables until user address spaces exist (then each gets its own
 * PML4 with the kernel half copied).
 *
 * mm_count counts references to the structure (mmgrab/mmdrop, Linux's
 * "lazy" references); the last mmdrop frees it through __mmdrop(), which
 * takes mmlist_lock, a spinlock_t -- a sleeping lock under PREEMPT_RT.
 * So a drop with preemption or interrupts off (the scheduler's switch
 * path, a raw lock held) must use mmdrop_delayed(), which hands the
 * release to the desched thread (article, "Deferred operations";
 * kernel/sched/deferred.h).
 * Linux counterpart: include/linux/mm_types.h (struct mm_struct),
 * kernel/fork.c (mm_alloc, __mmdrop), include/linux/sched/mm.h (mmgrab,
 * mmdrop); PREEMPT_RT 2.6.1x mmdrop_delayed.  rtk leaves out mm_users /
 * mmget / mmput (no user mappings to tear down yet), VMAs, and mm_cpumask.
 */
#ifndef KERNEL_MM_MM_STRUCT_H
#define KERNEL_MM_MM_STRUCT_H

#include "lib/types.h"
#include "lib/list.h"

struct mm_struct {
	int mm_count;			/* atomic; freed at 0 (never init_mm) */
	u64 pgd;			/* physical address of its PML4 (CR3) */
	const char *name;		/* "init_mm", or the mm_alloc caller's */

	/* under mmlist_lock (mm_struct.c) */
	struct list_head mmlist;	/* every live mm_struct */

	/* under deferred_lock (kernel/sched/deferred.c) */
	struct list_head delayed_list;	/* queued by mmdrop_delayed */
};

/* init_mm - the kernel address space.  Holds one reference of its own,
 * so it is never freed. */
extern struct mm_struct init_mm;

/* mm_struct_init - fill in init_mm's page-table root.  Context: boot,
 * after mm_init(). */
void mm_struct_init(void);

/* mm_alloc - a new address space with one reference; NULL when out of
 * memory.  Context: task, may sleep (takes mmlist_lock). */
struct mm_struct *mm_alloc(const char *name);

/* mmgrab - take a reference.  Context: any. */
static inline void mmgrab(struct mm_struct *mm)
{
	__atomic_fetch_add(&mm->mm_count, 1, __ATOMIC_RELAXED);
}

/* __mmdrop - free mm, whose last reference is gone.  Context: task,
 * preemptible under rt (takes mmlist_lock). */
void __mmdrop(struct mm_struct *mm);

/* mmdrop - drop a reference, freeing mm here if it was the last.
 * Context: task; the final drop takes a spinlock_t (may sleep under rt). */
void mmdrop(struct mm_struct *mm);

/* mmdrop_delayed - drop a reference; the release of the last one runs
 * later in the desched thread.  Context: any (preemption or irqs off
 * too) except under a run-queue lock. */
void mmdrop_delayed(struct mm_struct *mm);

/* mm_count_live - how many mm_structs exist (init_mm included). */
int mm_count_live(void);

#endif /* KERNEL_MM_MM_STRUCT_H */
