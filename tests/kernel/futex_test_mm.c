/*
 * tests/kernel/futex_test_mm.c - the address space the in-kernel futex
 * suites run their futexes in.
 *
 * The futex code reaches its words only through user-core's uaccess
 * (kernel/futex/futex_uaccess.h), as Linux's does: a futex is a word in
 * a process's memory.  The suites (test_futex*.c) are kernel threads
 * with their words in kernel memory, so this file gives them a user
 * half to call from:
 *
 *  [1] one test mm (mm_alloc_user), made by the first suite that needs
 *      it and kept for the rest of the boot, so that every suite thread
 *      keys its futexes in the same address space;
 *  [2] a thread that calls futex_op borrows it (kthread_use_mm) and
 *      keeps it until its function returns (kthread.c gives it back)
 *      or, for the runner, until the case ends (ktest.c restore_runner);
 *  [3] the kernel page holding a test's word is mapped, borrowed (never
 *      freed by the mm), at a user address of its own in the test mm;
 *      the futex call gets that user address, the test keeps reading
 *      and writing the word through its kernel name: the same memory.
 *
 * So the PI owner checks (kernel/futex/pi_state.c) see what they see
 * for a process: waiter and owner threads share key->mm, a kernel
 * thread that never borrowed it is a kernel thread (-EPERM).
 * Linux's in-kernel futex tests (tools/testing/selftests/futex) are user
 * programs; before 5.10 a kernel caller could use set_fs(KERNEL_DS).
 */
#include "tests/kernel/futex_helpers.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/user_mm.h"
#include "kernel/sched/kthread.h"
#include "kernel/locking/rtmutex.h"

/* Where the borrowed pages go: low in the user half, below anything the
 * mmap allocator hands out (USER_MMAP_BOTTOM), never touched by ring 3
 * code (the test mm runs none). */
#define FUTEX_TEST_UBASE	0x10000000UL
#define FUTEX_TEST_PAGES	16

static DEFINE_RT_MUTEX(futex_test_lock);	/* the fields below */
static struct mm_struct *futex_test_mm;
static uintptr_t futex_test_kpage[FUTEX_TEST_PAGES];
static int futex_test_nr;

/* futex_test_get_mm - [1] the test mm, made on first use.  Context:
 * task, may sleep.  Locking: futex_test_lock held. */
static struct mm_struct *futex_test_get_mm(void)
{
	BUG_ON(rt_mutex_owner(&futex_test_lock) != current);
	if (!futex_test_mm)
		futex_test_mm = mm_alloc_user("futex-test");
	return futex_test_mm;
}

/* futex_test_slot - [3] the slot whose user page aliases kpage, mapped
 * now if it is new; -ENOMEM, -ENOSPC (more than FUTEX_TEST_PAGES pages
 * of words) or arch_map_user_page's error.  Context: task, may sleep.
 * Locking: futex_test_lock held; takes the mm's mmap_lock. */
static int futex_test_slot(struct mm_struct *mm, uintptr_t kpage)
{
	int i, err;

	BUG_ON(rt_mutex_owner(&futex_test_lock) != current);
	for (i = 0; i < futex_test_nr; i++)
		if (futex_test_kpage[i] == kpage)
			return i;
	if (futex_test_nr == FUTEX_TEST_PAGES)
		return -ENOSPC;
	rt_mutex_lock(&mm->mmap_lock);
	err = __user_map_page(mm, FUTEX_TEST_UBASE + i * PAGE_SIZE,
			      (void *)kpage, MAP_WRITE | MAP_PAGE_BORROWED);
	rt_mutex_unlock(&mm->mmap_lock);
	if (err)
		return err;
	futex_test_kpage[i] = kpage;
	return futex_test_nr++;
}

void futex_test_enter(void)
{
	struct mm_struct *mm;

	might_sleep();
	rt_mutex_lock(&futex_test_lock);
	mm = futex_test_get_mm();
	if (mm && !current->mm)					/* [2] */
		kthread_use_mm(mm);
	rt_mutex_unlock(&futex_test_lock);
	BUG_ON(!mm);	/* no memory for a page-table root at boot */
	BUG_ON(current->mm != mm);	/* a thread on another mm */
}

u32 __user *futex_test_uaddr(const u32 *kaddr)
{
	uintptr_t k = (uintptr_t)kaddr, off = k & (PAGE_SIZE - 1);
	int slot;

	futex_test_enter();
	if (!kaddr)	/* the NULL page stays unmapped: -EFAULT */
		return NULL;
	rt_mutex_lock(&futex_test_lock);
	slot = futex_test_slot(futex_test_mm, k - off);		/* [3] */
	rt_mutex_unlock(&futex_test_lock);
	BUG_ON(slot < 0);	/* a suite with too many word pages */
	return (u32 __user *)(FUTEX_TEST_UBASE + slot * PAGE_SIZE + off);
}
