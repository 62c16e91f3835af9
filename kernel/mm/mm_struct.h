/*
 * kernel/mm/mm_struct.h - struct mm_struct: a reference-counted address
 * space.  init_mm holds the kernel's page tables; mm_alloc() makes one
 * that shares them (tests of the counting), mm_alloc_user() one with
 * its own page-table root whose kernel half is the kernel's and whose
 * user half (kernel/mm/user_mm.c) belongs to one process.
 *
 * Two counts, as in Linux: mm_users counts the threads that use the
 * user half (mmget/mmput: the last mmput unmaps and frees the user
 * pages, exit_mmap), and together they hold one mm_count.  mm_count
 * counts references to the structure and its page tables: mm_users'
 * one, and one per exited thread whose CPU still runs on the tables
 * until its final switch, which drops it with mmdrop_delayed (preemption
 * is off there; kernel/sched/core.c switch_mm, finish_task_switch).
 * Kernel threads run on init_mm; they do not borrow a user mm (see
 * switch_mm for why).
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
 * mmdrop, mmget, mmput); PREEMPT_RT 2.6.1x mmdrop_delayed.  rtk leaves
 * out VMAs (user pages are tracked in the page tables alone:
 * kernel/mm/user_mm.h) and
 * mm_cpumask (a TLB shootdown goes to every CPU); owner_tgid stands for
 * Linux's mm->owner (a task, under CONFIG_MEMCG).
 */
#ifndef KERNEL_MM_MM_STRUCT_H
#define KERNEL_MM_MM_STRUCT_H

#include "lib/types.h"
#include "lib/list.h"
#include "kernel/locking/rtmutex.h"

struct mm_struct {
	int mm_count;			/* atomic; freed at 0 (never init_mm) */
	int mm_users;			/* atomic; threads using the user half */
	u64 pgd;			/* physical address of its page-table root */
	bool own_pgd;			/* pgd is its own (mm_alloc_user) */
	const char *name;		/* "init_mm", or the mm_alloc caller's */
	int owner_tgid;			/* the process it was made for (set
					 * once by process_spawn); 0: none */

	/* the user half, under mmap_lock (kernel/mm/user_mm.c) */
	struct rt_mutex mmap_lock;
	unsigned long nr_pages;		/* private user pages mapped now (a
					 * file's pages are not counted) */
	unsigned long mmap_next;	/* mmap hands out below this */
	unsigned long start_brk;	/* the heap's start: the page-aligned
					 * end of the program (elf_load) */
	unsigned long brk;		/* the heap's end as brk(2) set it */
	struct list_head mapped_files;	/* struct mm_file_ref: every inode
					 * mapped once, held until exit_mmap
					 * (kernel/mm/file_mmap.c) */

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

/* mm_alloc_user - a new address space with its own page-table root (the
 * kernel half shared), mm_users 1 and mm_count 1; NULL when out of
 * memory.  Context: task, may sleep. */
struct mm_struct *mm_alloc_user(const char *name);

/* dup_mm - a fork's copy of old's user half (kernel/mm/dup_mmap.c):
 * mm_users 1, mm_count 1; NULL without memory.  Context: task, sleeps. */
struct mm_struct *dup_mm(struct mm_struct *old, const char *name);

/* mmget - one more thread uses mm's user half.  Context: any. */
static inline void mmget(struct mm_struct *mm)
{
	__atomic_fetch_add(&mm->mm_users, 1, __ATOMIC_RELAXED);
}

/* mmput - a thread is done with the user half; the last one unmaps it
 * (exit_mmap) and drops mm_users' mm_count reference.
 * Context: task, may sleep. */
void mmput(struct mm_struct *mm);

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

/* mm_count_owned_by - how many mm_structs made for process tgid exist
 * (pids are not reused: kernel/sched/tasklist.c), so that a leak check
 * of one process's mms is not moved by other processes' spawns and
 * exits, as mm_count_live's is.  Context: task, may sleep (takes
 * mmlist_lock). */
int mm_count_owned_by(int tgid);

#endif /* KERNEL_MM_MM_STRUCT_H */
