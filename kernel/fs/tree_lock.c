/*
 * kernel/fs/tree_lock.c - the file-system tree's rw_semaphore (why one
 * lock, and why this type: kernel/fs/tree_lock.h).
 *
 * rw_semaphore knows no owner outside rt, so the assertions keep their
 * own record beside it: the writing task, and a count of readers.
 * Linux counterpart: the i_rwsem of each directory (include/linux/fs.h
 * inode_lock, inode_lock_shared) and lockdep_assert_held on it.
 */
#include "kernel/fs/tree_lock.h"
#include "kernel/locking/semaphore.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"

static DECLARE_RWSEM(fs_tree_sem);

/* under fs_tree_sem: the writer sets and clears it while holding it for
 * writing; readers only compare it with current */
static struct task_struct *fs_tree_writer;
static int fs_tree_readers;	/* atomic: tasks inside down_read */

void fs_tree_read_lock(void)
{
	might_sleep();
	down_read(&fs_tree_sem);
	__atomic_fetch_add(&fs_tree_readers, 1, __ATOMIC_RELAXED);
}

void fs_tree_read_unlock(void)
{
	BUG_ON(__atomic_fetch_sub(&fs_tree_readers, 1, __ATOMIC_RELAXED) <= 0);
	up_read(&fs_tree_sem);
}

void fs_tree_write_lock(void)
{
	might_sleep();
	down_write(&fs_tree_sem);
	BUG_ON(fs_tree_writer);
	fs_tree_writer = current;
}

void fs_tree_write_unlock(void)
{
	BUG_ON(fs_tree_writer != current);
	fs_tree_writer = NULL;
	up_write(&fs_tree_sem);
}

bool fs_tree_is_locked(void)
{
	return READ_ONCE(fs_tree_writer) ||
	       __atomic_load_n(&fs_tree_readers, __ATOMIC_RELAXED) > 0;
}

bool fs_tree_is_write_locked(void)
{
	return READ_ONCE(fs_tree_writer) == current;
}
