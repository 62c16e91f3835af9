/*
 * kernel/mm/mm_struct.c - the reference-counted address space (see
 * kernel/mm/mm_struct.h): init_mm, mm_alloc, mmdrop, mmdrop_delayed.
 * The delayed release is kernel/sched/deferred.c's desched thread.
 * Linux counterpart: kernel/fork.c (mm_alloc, __mmdrop, mmlist_lock).
 */
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/user_mm.h"
#include "kernel/mm/slab.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/deferred.h"
#include "arch/x86_64/arch.h"
#include "lib/bug.h"
#include "lib/string.h"

/* Protects the mmlist of every mm_struct.  A spinlock_t on purpose: it
 * is what makes a final mmdrop illegal in atomic context under rt. */
static DEFINE_SPINLOCK(mmlist_lock);

struct mm_struct init_mm = {
	.mm_count = 1,
	.mm_users = 1,
	.name = "init_mm",
	.mmlist = LIST_HEAD_INIT(init_mm.mmlist),
	.mapped_files = LIST_HEAD_INIT(init_mm.mapped_files),
	.delayed_list = LIST_HEAD_INIT(init_mm.delayed_list),
};

void __init mm_struct_init(void)
{
	init_mm.pgd = mmu_kernel_cr3();
}

struct mm_struct *mm_alloc(const char *name)
{
	struct mm_struct *mm;

	might_sleep();
	mm = kmalloc(sizeof(*mm), GFP_KERNEL | __GFP_ZERO);
	if (!mm)
		return NULL;
	mm->mm_count = 1;
	/* no user half: the kernel's tables are the whole space */
	mm->pgd = init_mm.pgd;
	mm->name = name;
	rt_mutex_init(&mm->mmap_lock);
	INIT_LIST_HEAD(&mm->mapped_files);
	INIT_LIST_HEAD(&mm->delayed_list);
	spin_lock(&mmlist_lock);
	list_add_tail(&mm->mmlist, &init_mm.mmlist);
	spin_unlock(&mmlist_lock);
	return mm;
}

struct mm_struct *mm_alloc_user(const char *name)
{
	struct mm_struct *mm;
	u64 pgd;

	might_sleep();
	pgd = arch_pgd_alloc();
	if (!pgd)
		return NULL;
	mm = mm_alloc(name);
	if (!mm) {
		arch_pgd_free(pgd);
		return NULL;
	}
	mm->pgd = pgd;
	mm->own_pgd = true;
	mm->mm_users = 1;
	mm->mmap_next = USER_MMAP_TOP;
	return mm;
}

void mmput(struct mm_struct *mm)
{
	might_sleep();
	if (__atomic_sub_fetch(&mm->mm_users, 1, __ATOMIC_ACQ_REL) == 0) {
		exit_mmap(mm);
		mmdrop(mm);
	}
}

void __mmdrop(struct mm_struct *mm)
{
	might_sleep();
	BUG_ON(mm == &init_mm);
	BUG_ON(__atomic_load_n(&mm->mm_count, __ATOMIC_RELAXED) != 0);
	spin_lock(&mmlist_lock);
	list_del(&mm->mmlist);
	spin_unlock(&mmlist_lock);
	if (mm->own_pgd)
		arch_pgd_free(mm->pgd);	/* exit_mmap freed the pages */
	kfree(mm);
}

/* mm_put_ref - drop one reference; true if it was the last. */
static bool mm_put_ref(struct mm_struct *mm)
{
	int left = __atomic_sub_fetch(&mm->mm_count, 1, __ATOMIC_ACQ_REL);

	BUG_ON(left < 0);
	BUG_ON(left == 0 && mm == &init_mm);
	return left == 0;
}

void mmdrop(struct mm_struct *mm)
{
	if (mm_put_ref(mm))
		__mmdrop(mm);
}

void mmdrop_delayed(struct mm_struct *mm)
{
	if (mm_put_ref(mm))
		deferred_queue_mm(mm);
}

int mm_count_live(void)
{
	struct mm_struct *mm;
	int n = 1;	/* init_mm heads the list */

	spin_lock(&mmlist_lock);
	list_for_each_entry(mm, &init_mm.mmlist, mmlist)
		n++;
	spin_unlock(&mmlist_lock);
	return n;
}

int mm_count_owned_by(int tgid)
{
	struct mm_struct *mm;
	int n = 0;

	might_sleep();
	spin_lock(&mmlist_lock);
	list_for_each_entry(mm, &init_mm.mmlist, mmlist)
		n += READ_ONCE(mm->owner_tgid) == tgid;
	spin_unlock(&mmlist_lock);
	return n;
}
