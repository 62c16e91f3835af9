/*
 * kernel/workloads/rttester.c - the scriptable PI tester (rttester.h), the
 * thread side: tester threads and their locks, their command handling
 * and the wake-up stop hook in the rt_mutex slow path.  The opcodes and
 * the state digits are in rttester_internal.h; the script interpreter
 * that posts the commands is rttester_script.c.
 *
 * Every change of a thread's lock state bumps the global event counter;
 * the thread's "E" value is the counter after its last change.
 * Linux counterpart: kernel/locking/rtmutex-tester.c (v4.1); rtk leaves
 * out the BKL opcodes (9, 10) and the sysfs files.
 * Article: "Priority inheritance for in-kernel spinlocks and semaphores"
 * (the blocked / woken-but-not-yet-running states it scripts).
 */
#include "kernel/workloads/rttester_internal.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/signal.h"
#include "lib/errno.h"
#include "lib/bug.h"

bool rttester_active;
struct rttest_thread rttest_threads[RTTEST_THREADS];
static struct rt_mutex rttest_locks[RTTEST_LOCKS];
static int rttest_event;
static const char *const rttest_lock_names[RTTEST_LOCKS] = {
	"L0", "L1", "L2", "L3", "L4", "L5", "L6", "L7",
};

static void rttest_set_state(struct rttest_thread *td, int id, int st)
{
	WRITE_ONCE(td->mutexes[id], st);
	WRITE_ONCE(td->event,
		   __atomic_add_fetch(&rttest_event, 1, __ATOMIC_SEQ_CST));
}

static bool is_lock_op(int op)
{
	return op >= RTTEST_LOCK && op <= RTTEST_LOCKINTNOWAIT;
}

static bool lock_op_stops(int op)
{
	return op == RTTEST_LOCK || op == RTTEST_LOCKINT;
}

/* Release every tester lock current (td's thread) owns, by the locks'
 * owner words (the digit of a lock it waits for, a self-deadlock's,
 * stays).  Context: the tester thread, no wait_lock held. */
static void rttest_release_all(struct rttest_thread *td)
{
	int i;

	BUG_ON(td->task != current);
	for (i = 0; i < RTTEST_LOCKS; i++) {
		if (rt_mutex_owner(&rttest_locks[i]) != current)
			continue;
		rt_mutex_unlock(&rttest_locks[i]);
		if (td->mutexes[i] == ST_LOCKED)
			rttest_set_state(td, i, ST_UNLOCKED);
	}
}

/*
 * rttest_unwind - the cleanup asked td (current) to let go: release its
 * locks while it sleeps in another lock call (a deadlock cycle left by a
 * script: each member then gets the lock it waits for, and the cleanup's
 * reset releases that too).
 * Context: the tester thread, in __rttester_wakeup() after a wake-up,
 * no wait_lock held.
 */
static void rttest_unwind(struct rttest_thread *td)
{
	if (!READ_ONCE(td->unwind))
		return;
	WRITE_ONCE(td->unwind, false);
	rttest_release_all(td);
}

/*
 * rttest_handle_op - run td's posted command; in_wakeup: called from the
 * wake-up stop, where only lockcont, reset, resetevent and nop are legal
 * (the thread is in the middle of a lock call).  Returns the result the
 * script reads as "O".  Context: the tester thread, may sleep.
 */
static int rttest_handle_op(struct rttest_thread *td, bool in_wakeup)
{
	int op = READ_ONCE(td->opcode), id = READ_ONCE(td->opdata);
	int prev, ret;

	switch (op) {
	case RTTEST_NOP:
		return 0;
	case RTTEST_LOCKCONT:
		if (id < 0 || id >= RTTEST_LOCKS)
			return -EINVAL;
		rttest_set_state(td, id, ST_BLOCKING);
		return 0;
	case RTTEST_RESET:
		rttest_release_all(td);
		return 0;
	case RTTEST_RESETEVENT:
		__atomic_store_n(&rttest_event, 0, __ATOMIC_SEQ_CST);
		return 0;
	}
	if (in_wakeup || id < 0 || id >= RTTEST_LOCKS)
		return -EINVAL;

	switch (op) {
	case RTTEST_LOCK:
	case RTTEST_LOCKNOWAIT:
		/* rt_mutex_lock cannot fail and would wait for itself for
		 * ever: refuse, the script reads -EDEADLK as the result */
		if (rt_mutex_owner(&rttest_locks[id]) == current)
			return -EDEADLK;
		rttest_set_state(td, id, ST_BLOCKING);
		rt_mutex_lock(&rttest_locks[id]);
		rttest_set_state(td, id, ST_LOCKED);
		return 0;
	case RTTEST_LOCKINT:
	case RTTEST_LOCKINTNOWAIT:
		/* on -EINTR/-EDEADLK the digit goes back (a self-deadlock
		 * keeps "locked") */
		prev = td->mutexes[id];
		rttest_set_state(td, id, ST_BLOCKING);
		ret = rt_mutex_lock_interruptible(&rttest_locks[id]);
		rttest_set_state(td, id, ret ? prev : ST_LOCKED);
		return ret;
	case RTTEST_UNLOCK:
		if (td->mutexes[id] != ST_LOCKED)
			return -EINVAL;
		rt_mutex_unlock(&rttest_locks[id]);
		rttest_set_state(td, id, ST_UNLOCKED);
		return 0;
	}
	return -EINVAL;
}

static struct rttest_thread *rttest_thread_of(struct task_struct *p)
{
	int i;

	for (i = 0; i < RTTEST_THREADS; i++)
		if (rttest_threads[i].task == p)
			return &rttest_threads[i];
	return NULL;
}

/*
 * The tester's stops in rt_mutex_slowlock, reached through its two hooks
 * (kernel/debug/hooks.h: trace_rt_mutex_block, trace_rt_mutex_wakeup):
 *	[1] __rttester_block: the lock command's thread is queued and the
 *	    PI chain walked, so a script that sees "blocked" sees the
 *	    finished boost
 *	[2] __rttester_wakeup, after each wake-up in the sleep loop: release
 *	    the held locks if the cleanup asked for it (rttest_unwind)
 *	[3] nowait commands stay "blocked" and retry at once
 *	[4] lock/lockint: clear the opcode (the thread takes commands
 *	    again), mark "blockedwake" and run commands until lockcont; the
 *	    lock stays free for a stealer meanwhile
 *	[5] restore the lock command for the next sleep of this call and
 *	    mark the lock "blocked" again: the retry that follows takes it
 *	    ("locked") or sleeps, and the next wake-up stops again
 * Any task that is not a tester thread running a lock command on lock
 * returns at once.  Context: task, current->state set by the caller
 * (who sets it again after retaking wait_lock).  Locking:
 * __rttester_block with lock->wait_lock held (irqs off),
 * __rttester_wakeup with none.
 */
static struct rttest_thread *rttest_locking_thread(struct rt_mutex *lock,
						   int *op, int *dat)
{
	struct rttest_thread *td = rttest_thread_of(current);

	if (!td)
		return NULL;
	*op = READ_ONCE(td->opcode);
	*dat = READ_ONCE(td->opdata);
	if (!is_lock_op(*op) || lock != &rttest_locks[*dat])
		return NULL;
	return td;
}

void __rttester_block(struct rt_mutex *lock)
{
	struct rttest_thread *td;
	int op, dat;

	BUG_ON(!raw_irqs_disabled());	/* wait_lock held: only stores here */
	td = rttest_locking_thread(lock, &op, &dat);
	if (td && td->mutexes[dat] == ST_BLOCKING)		/* [1] */
		rttest_set_state(td, dat, ST_BLOCKED);
}

void __rttester_wakeup(struct rt_mutex *lock)
{
	struct rttest_thread *td = rttest_thread_of(current);
	int op, dat, ret;

	BUG_ON(raw_irqs_disabled());
	if (!td)
		return;
	rttest_unwind(td);					/* [2] */
	td = rttest_locking_thread(lock, &op, &dat);
	if (!td || td->mutexes[dat] != ST_BLOCKED)
		return;
	if (!lock_op_stops(op))					/* [3] */
		return;
	WRITE_ONCE(td->opcode, RTTEST_NOP);			/* [4] */
	rttest_set_state(td, dat, ST_BLOCKEDWAKE);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (READ_ONCE(td->opcode) > 0) {
			__set_current_state(TASK_RUNNING);
			ret = rttest_handle_op(td, true);
			if (READ_ONCE(td->opcode) == RTTEST_LOCKCONT)
				break;
			WRITE_ONCE(td->opcode, ret);
			continue;
		}
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(td->opdata, dat);				/* [5] */
	WRITE_ONCE(td->opcode, op);
	if (td->mutexes[dat] == ST_BLOCKING)	/* lockcont: retry, then */
		rttest_set_state(td, dat, ST_BLOCKED);	/* take it or sleep */
}

/* The tester thread: run posted commands, one at a time, for ever. */
static int rttest_thread_fn(void *data)
{
	struct rttest_thread *td = data;
	int ret;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (READ_ONCE(td->opcode) > 0) {
			__set_current_state(TASK_RUNNING);
			ret = rttest_handle_op(td, false);
			WRITE_ONCE(td->opcode, ret);
			continue;
		}
		schedule();
		/* a signal only ends the wait it was sent for */
		flush_signals(current);
	}
	return 0;
}

/* Create the threads and locks once.  A creation that fails (out of
 * memory) returns -ENOMEM; the threads made so far stay and the next
 * call creates only the missing ones (they run for ever, so there is
 * nothing to unwind).  Context: task; script lock held. */
int rttest_init_once(void)
{
	int i;

	if (rttester_active)
		return 0;
	for (i = 0; i < RTTEST_LOCKS; i++)
		__rt_mutex_init(&rttest_locks[i], rttest_lock_names[i],
				__FILE__, __LINE__);
	for (i = 0; i < RTTEST_THREADS; i++) {
		struct rttest_thread *td = &rttest_threads[i];

		if (td->task)
			continue;
		td->task = kthread_create(rttest_thread_fn, td, "rt-test-%d", i);
		if (!td->task)
			return -ENOMEM;
		get_task_struct(td->task);
		wake_up_process(td->task);
	}
	WRITE_ONCE(rttester_active, true);
	return 0;
}

/*
 * rttest_reset_lock_classes - each script is a world of its own: forget
 * the lock orders earlier scripts taught the lock validator, so a
 * script's ABBA is reported every time it runs (L0..L7 are eight
 * classes: their names differ).  Context: task; script lock held, no
 * tester lock held.
 */
void rttest_reset_lock_classes(void)
{
	for (int i = 0; i < RTTEST_LOCKS; i++)
		lockdep_reset_map(&rttest_locks[i].dep_map);
}

bool rttest_owns_locks(const struct task_struct *p)
{
	int i;

	for (i = 0; i < RTTEST_LOCKS; i++)
		if (rt_mutex_owner(&rttest_locks[i]) == p)
			return true;
	return false;
}

bool rttest_locks_idle(void)
{
	int i;

	for (i = 0; i < RTTEST_LOCKS; i++)
		if (rt_mutex_is_locked(&rttest_locks[i]) ||
		    rt_mutex_has_waiters(&rttest_locks[i]))
			return false;
	return true;
}

struct rt_mutex *rttest_lock(int i)
{
	if (!READ_ONCE(rttester_active) || i < 0 || i >= RTTEST_LOCKS)
		return NULL;
	return &rttest_locks[i];
}
