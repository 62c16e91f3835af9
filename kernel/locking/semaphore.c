/*
 * kernel/locking/semaphore.c - the counting semaphore and the counting
 * rw-semaphore without priority inheritance (compat_semaphore,
 * compat_rw_semaphore; also struct semaphore/rw_semaphore outside rt),
 * and the rt struct semaphore's initialiser (semaphore.h).
 *
 * Both keep their state under the wait queue's raw lock and sleep on the
 * queue; a sleeper re-tests its condition after every wakeup:
 *	[1] queue and set the sleep state (prepare_to_wait)
 *	[2] try to take it under the lock; done if so
 *	[3] interruptible and kernel_signal()ed: -EINTR
 *	[4] schedule, then back to [1]
 * Releases wake all sleepers (each re-tests), so no wakeup is lost when a
 * woken waiter leaves through a signal.
 * Linux counterpart: kernel/locking/semaphore.c, rwsem-spinlock.c.
 */
#include "kernel/locking/semaphore.h"
#include "kernel/signal.h"
#include "kernel/debug/hooks.h"
#include "lib/errno.h"

typedef bool (*sem_try_fn)(void *sem);

static bool sem_try_locked(wait_queue_head_t *wq, sem_try_fn try, void *sem)
{
	unsigned long flags;
	bool ok;

	raw_spin_lock_irqsave(&wq->lock, flags);
	ok = try(sem);
	raw_spin_unlock_irqrestore(&wq->lock, flags);
	return ok;
}

/* sem_wait - Context: task, may sleep.  0 or -EINTR. */
static int sem_wait(wait_queue_head_t *wq, sem_try_fn try, void *sem,
		    long state)
{
	struct wait_queue_entry e = { .task = NULL };	/* entry.next NULL: unqueued */
	int ret = 0;

	might_sleep();
	if (sem_try_locked(wq, try, sem))
		return 0;
	for (;;) {
		prepare_to_wait(wq, &e, state);			/* [1] */
		if (sem_try_locked(wq, try, sem))		/* [2] */
			break;
		if (state == TASK_INTERRUPTIBLE &&
		    signal_pending(current)) {			/* [3] */
			ret = -EINTR;
			break;
		}
		schedule();					/* [4] */
	}
	finish_wait(wq, &e);
	if (ret)
		wake_up_all(wq);	/* pass on a wakeup meant for us */
	return ret;
}

DEFINE_RACE_WINDOW(sem_release_window);

/*
 * sem_release - rel(sem) and wake every sleeper, both under the queue
 * lock: the unlock is the last touch of sem.  A sleeper that is already
 * running may take the semaphore as soon as rel() is visible, return,
 * and end sem's lifetime (a semaphore on its stack); a wake-up after the
 * unlock touched the dead object:
 *
 *	CPU0 (compat_up)		CPU1 (compat_down, sem on its stack)
 *	lock; count++; unlock
 *					try: count > 0, taken; returns
 *					the frame is reused
 *	wake_up_all(&sem->wait): takes
 *	and releases a dead lock
 *
 * sem_release_window marks the point after the unlock
 * (tests/kernel/test_completion_races.c, test_on_stack_compat_up).  The
 * timed-out-waiter race of completions does not arise here: a release
 * wakes all sleepers and each re-tests.
 * Context: any.  Locking: takes wq->lock.
 */
static void sem_release(wait_queue_head_t *wq, void (*rel)(void *), void *sem)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&wq->lock, flags);
	rel(sem);
	__wake_up_locked(wq, 0);
	raw_spin_unlock_irqrestore(&wq->lock, flags);
	trace_race_window(&sem_release_window);
}

/* ---- compat_semaphore: Locking of the helpers: sem->wait.lock held */
static bool sem_try_down(void *p)
{
	struct compat_semaphore *sem = p;

	if (sem->count <= 0)
		return false;
	sem->count--;
	return true;
}

static void sem_do_up(void *p)
{
	((struct compat_semaphore *)p)->count++;
}

void compat_sema_init(struct compat_semaphore *sem, int val)
{
	sem->count = val;
	init_waitqueue_head(&sem->wait);
}

void compat_down(struct compat_semaphore *sem)
{
	sem_wait(&sem->wait, sem_try_down, sem, TASK_UNINTERRUPTIBLE);
}

int compat_down_interruptible(struct compat_semaphore *sem)
{
	return sem_wait(&sem->wait, sem_try_down, sem, TASK_INTERRUPTIBLE);
}

int compat_down_trylock(struct compat_semaphore *sem)
{
	return !sem_try_locked(&sem->wait, sem_try_down, sem);
}

/* compat_up - Context: any (an event may be posted from an irq). */
void compat_up(struct compat_semaphore *sem)
{
	sem_release(&sem->wait, sem_do_up, sem);
}

/* ---- compat_rw_semaphore: activity >0 readers, -1 writer */
static bool rwsem_try_read(void *p)
{
	struct compat_rw_semaphore *sem = p;

	if (sem->activity < 0)
		return false;
	sem->activity++;
	return true;
}

static bool rwsem_try_write(void *p)
{
	struct compat_rw_semaphore *sem = p;

	if (sem->activity != 0)
		return false;
	sem->activity = -1;
	return true;
}

static void rwsem_do_up_read(void *p)
{
	struct compat_rw_semaphore *sem = p;

	BUG_ON(sem->activity <= 0);
	sem->activity--;
}

static void rwsem_do_up_write(void *p)
{
	struct compat_rw_semaphore *sem = p;

	BUG_ON(sem->activity != -1);
	sem->activity = 0;
}

static void rwsem_do_downgrade(void *p)
{
	struct compat_rw_semaphore *sem = p;

	BUG_ON(sem->activity != -1);
	sem->activity = 1;
}

void compat_init_rwsem(struct compat_rw_semaphore *sem)
{
	sem->activity = 0;
	init_waitqueue_head(&sem->wait);
}

void compat_down_read(struct compat_rw_semaphore *sem)
{
	sem_wait(&sem->wait, rwsem_try_read, sem, TASK_UNINTERRUPTIBLE);
}

int compat_down_read_trylock(struct compat_rw_semaphore *sem)
{
	return sem_try_locked(&sem->wait, rwsem_try_read, sem);
}

void compat_up_read(struct compat_rw_semaphore *sem)
{
	sem_release(&sem->wait, rwsem_do_up_read, sem);
}

void compat_down_write(struct compat_rw_semaphore *sem)
{
	sem_wait(&sem->wait, rwsem_try_write, sem, TASK_UNINTERRUPTIBLE);
}

int compat_down_write_trylock(struct compat_rw_semaphore *sem)
{
	return sem_try_locked(&sem->wait, rwsem_try_write, sem);
}

void compat_up_write(struct compat_rw_semaphore *sem)
{
	sem_release(&sem->wait, rwsem_do_up_write, sem);
}

void compat_downgrade_write(struct compat_rw_semaphore *sem)
{
	sem_release(&sem->wait, rwsem_do_downgrade, sem);
}

#if defined(CONFIG_PREEMPT_RT)
/* rt_sema_init_named - under rt a semaphore is a PI mutex: only a count
 * of 1 (free) makes sense; anything else is an event use (WARN, and the
 * semaphore starts free). */
void rt_sema_init_named(struct semaphore *sem, int val, const char *name,
			const char *file, int line)
{
	WARN(val != 1, "%s (%s:%d): struct semaphore with count %d under "
	     "PREEMPT_RT; event use needs compat_semaphore\n", name, file,
	     line, val);
	__rt_mutex_init(&sem->lock, name, file, line);
}
#endif
