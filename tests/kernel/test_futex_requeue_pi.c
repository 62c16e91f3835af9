/*
 * tests/kernel/test_futex_requeue_pi.c - the futex_requeue_pi suite:
 * FUTEX_WAIT_REQUEUE_PI and FUTEX_CMP_REQUEUE_PI (kernel/futex/
 * requeue_pi.c), a PI condition variable: C is the condvar's word, F
 * the PTHREAD_PRIO_INHERIT mutex's.  A waiter sleeps on C and comes back
 * owning F; the requeue gives F to the top waiter if it is free, else
 * moves the waiters onto F's rt_mutex, where they boost F's owner.
 * Kernel threads with the words in kernel memory, called through the
 * futex test mm (futex_test_mm.c).  Priorities in the kernel scale: FIFO
 * p runs at prio 99 - p, SCHED_OTHER at 120.  Unpinned except the race
 * case: on one CPU and on all.  Longer than 400 lines: one scenario per
 * requeue-PI story, each with its scenario comment, and the race case
 * kept beside the waiters it reuses.
 */
#include "kernel/debug/race_window.h"
#include "kernel/futex/futex_internal.h"
#include "kernel/ktest.h"
#include "kernel/signal.h"
#include "kernel/sched/completion.h"
#include "lib/errno.h"
#include "tests/kernel/futex_helpers.h"
#include "tests/kernel/user_helpers.h"

#define ALL_THE_REST	0x7fffffff	/* nr_requeue of a broadcast */

static u32 cond_word, mutex_word, other_mutex_word;

/* requeue_op - do_futex with both words as the test mm's user
 * addresses (NULL stays NULL). */
static long requeue_op(u32 *uaddr, int op, u32 val, ktime_t *abs,
		       u32 *uaddr2, u32 val2, u32 val3)
{
	return do_futex(futex_test_uaddr(uaddr), op, val, abs,
			futex_test_uaddr(uaddr2), val2, val3);
}

/* One condvar waiter: FUTEX_WAIT_REQUEUE_PI on cond for mutex, note the
 * result and F's word, keep F until told, unlock it. */
struct cv_waiter {
	u32 *cond, *mutex;
	ktime_t deadline;		/* 0: none */
	bool owns_mutex_first;		/* LOCK_PI on mutex before waiting */
	bool calling;			/* about to sleep in the call */
	long ret, unlock_ret;
	u32 seen;			/* F's word right after */
	u32 tid;
	struct completion returned, may_unlock, done;
	struct task_struct *task;
};

static int cv_waiter_fn(void *data)
{
	struct cv_waiter *w = data;
	ktime_t *abs = w->deadline ? &w->deadline : NULL;
	u32 __user *c = futex_test_uaddr(w->cond);
	u32 __user *m = futex_test_uaddr(w->mutex);

	if (w->owns_mutex_first)
		futex_op(w->mutex, FUTEX_LOCK_PI, 0, NULL);
	WRITE_ONCE(w->calling, true);
	w->ret = do_futex(c, FUTEX_WAIT_REQUEUE_PI, 0, abs, m, 0, 0);
	w->seen = futex_word_read(w->mutex);
	complete(&w->returned);
	if (!w->ret || w->owns_mutex_first) {
		wait_for_completion(&w->may_unlock);
		w->unlock_ret = futex_op(w->mutex, FUTEX_UNLOCK_PI, 0, NULL);
	}
	flush_signals(current);
	complete(&w->done);
	return 0;
}

/* cv_waiter_init - w will wait on cond (which holds 0) for mutex until
 * deadline (0: none). */
static void cv_waiter_init(struct cv_waiter *w, u32 *cond, u32 *mutex,
			   ktime_t deadline)
{
	w->cond = cond;
	w->mutex = mutex;
	w->deadline = deadline;
	w->owns_mutex_first = false;
	w->calling = false;
	w->ret = w->unlock_ret = 1;
	w->seen = 0;
	init_completion(&w->returned);
	init_completion(&w->may_unlock);
	init_completion(&w->done);
}

/* cv_waiter_start - w at FIFO prio, unpinned, waiting on cond for
 * mutex, seen asleep there; false if not. */
static bool cv_waiter_start(struct cv_waiter *w, u32 *cond, u32 *mutex,
			    int prio, ktime_t deadline, const char *name)
{
	cv_waiter_init(w, cond, mutex, deadline);
	w->task = start_rt(cv_waiter_fn, w, SCHED_FIFO, prio, -1, name);
	if (!w->task)
		return false;
	w->tid = futex_tid(w->task);
	return wait_flag_then_sleeping(w->task, &w->calling);
}

/* cv_waiter_finish - let w unlock F (if it got it), wait, put it. */
static void cv_waiter_finish(struct cv_waiter *w)
{
	complete(&w->may_unlock);
	wait_for_completion(&w->done);
	put_task_struct(w->task);
}

/* expect_owns_then_unlocks - w returned 0 owning F, its bare TID in the
 * word (nobody else waits); its unlock clears the word. */
static void expect_owns_then_unlocks(struct ktest *t, struct cv_waiter *w,
				     const char *name)
{
	wait_for_completion(&w->returned);
	KTEST_EXPECT_EQ(t, w->ret, 0);
	KTEST_EXPECT(t, w->seen == w->tid, "%s saw F = %#x, want its TID %#x",
		     name, w->seen, w->tid);
	cv_waiter_finish(w);
	KTEST_EXPECT_EQ(t, w->unlock_ret, 0);
	KTEST_EXPECT_EQ(t, futex_word_read(w->mutex), 0);
}

/* signal_cond - the pthread_cond_signal / _broadcast of the scenarios:
 * requeue from C (expected 0) to F. */
static long signal_cond(int nr_requeue)
{
	return requeue_op(&cond_word, FUTEX_CMP_REQUEUE_PI, 1, NULL,
			  &mutex_word, (u32)nr_requeue, 0);
}

/* The mutex owner L: FUTEX_LOCK_PI on F, hold it until told, unlock;
 * its prio after the unlock is noted. */
static struct completion l_locked, l_may_unlock, l_done;
static long l_unlock_ret;
static int l_prio_after_unlock;

static int mutex_owner_fn(void *data)
{
	(void)data;
	futex_op(&mutex_word, FUTEX_LOCK_PI, 0, NULL);
	complete(&l_locked);
	wait_for_completion(&l_may_unlock);
	l_unlock_ret = futex_op(&mutex_word, FUTEX_UNLOCK_PI, 0, NULL);
	l_prio_after_unlock = current->prio;
	complete(&l_done);
	return 0;
}

/*
 * Scenario (requeue, then boost):
 *   L  FIFO 10 (prio 89): owns F (FUTEX_LOCK_PI, uncontended)
 *   H  FIFO 50 (prio 49): FUTEX_WAIT_REQUEUE_PI on C for F, sleeps
 *   M  the test task, SCHED_OTHER: FUTEX_WAKE on C first, then
 *      FUTEX_CMP_REQUEUE_PI(C, 1, 1, F, 0)
 * Observable: the plain wake is -EINVAL and H keeps sleeping (Linux's
 * answer: only a requeue moves a requeue-PI waiter); the requeue returns
 * 1 and H stays asleep, now blocked on F's rt_mutex: L runs at H's prio
 * 49 and F's word is L's TID | FUTEX_WAITERS; FUTEX_WAKE on F is
 * -EINVAL.  L unlocks: L is back at its own 89, H returns 0 with its TID
 * in F's word (nobody else waits), and H's unlock clears it.
 */
static void test_requeue_pi_boosts_the_mutex_owner(struct ktest *t)
{
	struct task_struct *l;
	struct cv_waiter h;
	u32 l_tid;

	WRITE_ONCE(cond_word, 0);
	WRITE_ONCE(mutex_word, 0);
	init_completion(&l_locked);
	init_completion(&l_may_unlock);
	init_completion(&l_done);
	l = start_rt(mutex_owner_fn, NULL, SCHED_FIFO, 10, -1, "frq-L");
	KTEST_ASSERT(t, l != NULL, "kthread_create failed");
	wait_for_completion(&l_locked);
	l_tid = futex_tid(l);
	KTEST_EXPECT_EQ(t, futex_word_read(&mutex_word), l_tid);
	if (!cv_waiter_start(&h, &cond_word, &mutex_word, 50, 0, "frq-H"))
		KTEST_EXPECT(t, 0, "H not seen asleep on C");

	KTEST_EXPECT_EQ(t, futex_op(&cond_word, FUTEX_WAKE, 1, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, signal_cond(1), 1);
	KTEST_EXPECT(t, wait_futex_pi_blocked(h.task),
		     "H not seen blocked on F's rt_mutex after the requeue");
	KTEST_EXPECT(t, !completion_done(&h.returned),
		     "H returned %ld while L holds F", h.ret);
	KTEST_EXPECT(t, READ_ONCE(l->prio) == h.task->normal_prio,
		     "L prio %d while H waits on F, want H's %d",
		     READ_ONCE(l->prio), h.task->normal_prio);
	KTEST_EXPECT(t, futex_word_read(&mutex_word) == (l_tid | FUTEX_WAITERS),
		     "F's word %#x, want L's TID | WAITERS %#x",
		     futex_word_read(&mutex_word), l_tid | FUTEX_WAITERS);
	KTEST_EXPECT_EQ(t, futex_op(&mutex_word, FUTEX_WAKE, 1, NULL),
			-EINVAL);

	complete(&l_may_unlock);
	wait_for_completion(&l_done);
	KTEST_EXPECT_EQ(t, l_unlock_ret, 0);
	KTEST_EXPECT_EQ(t, l_prio_after_unlock, l->normal_prio);
	expect_owns_then_unlocks(t, &h, "H");
	put_task_struct(l);
}

/*
 * Scenario (signal with F free): H (FIFO 50) waits on C for F; F is
 * free.  M: FUTEX_CMP_REQUEUE_PI(C, 1, 0, F, 0).
 * Observable: it returns 1; H returns 0 at once owning F, its bare TID
 * in the word (no rt_mutex was needed); H's unlock clears it.  A second
 * requeue with nobody on C returns 0.
 */
static void test_requeue_pi_takes_a_free_mutex_for_the_waiter(
	struct ktest *t)
{
	struct cv_waiter h;

	WRITE_ONCE(cond_word, 0);
	WRITE_ONCE(mutex_word, 0);
	KTEST_ASSERT(t, cv_waiter_start(&h, &cond_word, &mutex_word, 50,
					0, "frq-H"),
		     "H not seen asleep on C");
	KTEST_EXPECT_EQ(t, signal_cond(0), 1);
	expect_owns_then_unlocks(t, &h, "H");
	KTEST_EXPECT_EQ(t, signal_cond(0), 0);
}

/*
 * Scenario (broadcast with F free): A (FIFO 50) and B (FIFO 40) wait on
 * C for F.  M: FUTEX_CMP_REQUEUE_PI(C, 1, all, F, 0).
 * Observable: it returns 2; A, the top waiter, owns F at once with its
 * TID | FUTEX_WAITERS (B waits); B is blocked on F's rt_mutex, not
 * returned.  A unlocks: B returns 0 owning F, its bare TID in the word.
 */
static void test_requeue_pi_broadcast_hands_the_mutex_on(struct ktest *t)
{
	struct cv_waiter a, b;

	WRITE_ONCE(cond_word, 0);
	WRITE_ONCE(mutex_word, 0);
	KTEST_ASSERT(t, cv_waiter_start(&a, &cond_word, &mutex_word, 50,
					0, "frq-A"),
		     "A not seen asleep on C");
	if (!cv_waiter_start(&b, &cond_word, &mutex_word, 40, 0, "frq-B"))
		KTEST_EXPECT(t, 0, "B not seen asleep on C");
	KTEST_EXPECT_EQ(t, signal_cond(ALL_THE_REST), 2);
	wait_for_completion(&a.returned);
	KTEST_EXPECT_EQ(t, a.ret, 0);
	KTEST_EXPECT(t, a.seen == (a.tid | FUTEX_WAITERS),
		     "A saw F = %#x, want its TID | WAITERS %#x", a.seen,
		     a.tid | FUTEX_WAITERS);
	KTEST_EXPECT(t, wait_futex_pi_blocked(b.task),
		     "B not seen blocked on F's rt_mutex");
	KTEST_EXPECT(t, !completion_done(&b.returned),
		     "B returned %ld while A holds F", b.ret);
	cv_waiter_finish(&a);
	KTEST_EXPECT_EQ(t, a.unlock_ret, 0);
	expect_owns_then_unlocks(t, &b, "B");
}

/* FUTEX_WAIT'er fn for the mismatched-ops case. */
static struct completion plain_done;
static bool plain_calling;
static long plain_ret;

static int plain_waiter_fn(void *data)
{
	u32 __user *c = futex_test_uaddr(&cond_word);

	(void)data;
	WRITE_ONCE(plain_calling, true);
	plain_ret = do_futex(c, FUTEX_WAIT, 0, NULL, NULL, 0, 0);
	complete(&plain_done);
	return 0;
}

/*
 * The refusals, made by M alone or against one sleeping waiter:
 * WAIT_REQUEUE_PI with *C != val is -EAGAIN (with FUTEX_CLOCK_REALTIME
 * too, which it accepts), and with C == F -EINVAL; CMP_REQUEUE_PI with
 * nr_wake 0 or 2, nr_requeue < 0, C == F is -EINVAL, with *C != val3
 * -EAGAIN, with FUTEX_CLOCK_REALTIME -ENOSYS.  Mismatched ops, -EINVAL:
 * a FUTEX_WAIT'er on C met by CMP_REQUEUE_PI; a requeue-PI waiter for F
 * met by a requeue to another futex G (then the right requeue gives it F).
 */
static void test_requeue_pi_refuses_bad_arguments_and_mismatched_ops(
	struct ktest *t)
{
	struct task_struct *p;
	struct cv_waiter h;

	WRITE_ONCE(cond_word, 1);
	WRITE_ONCE(mutex_word, 0);
	KTEST_EXPECT_EQ(t, requeue_op(&cond_word, FUTEX_WAIT_REQUEUE_PI, 0,
				      NULL, &mutex_word, 0, 0), -EAGAIN);
	KTEST_EXPECT_EQ(t, requeue_op(&cond_word, FUTEX_WAIT_REQUEUE_PI |
						  FUTEX_CLOCK_REALTIME |
						  FUTEX_PRIVATE_FLAG,
				      0, NULL, &mutex_word, 0, 0), -EAGAIN);
	KTEST_EXPECT_EQ(t, requeue_op(&cond_word, FUTEX_WAIT_REQUEUE_PI, 1,
				      NULL, &cond_word, 0, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, requeue_op(&cond_word, FUTEX_CMP_REQUEUE_PI, 0,
				      NULL, &mutex_word, 1, 1), -EINVAL);
	KTEST_EXPECT_EQ(t, requeue_op(&cond_word, FUTEX_CMP_REQUEUE_PI, 2,
				      NULL, &mutex_word, 1, 1), -EINVAL);
	KTEST_EXPECT_EQ(t, requeue_op(&cond_word, FUTEX_CMP_REQUEUE_PI, 1,
				      NULL, &mutex_word, (u32)-1, 1), -EINVAL);
	KTEST_EXPECT_EQ(t, requeue_op(&cond_word, FUTEX_CMP_REQUEUE_PI, 1,
				      NULL, &cond_word, 1, 1), -EINVAL);
	KTEST_EXPECT_EQ(t, requeue_op(&cond_word, FUTEX_CMP_REQUEUE_PI, 1,
				      NULL, &mutex_word, 1, 0), -EAGAIN);
	KTEST_EXPECT_EQ(t, requeue_op(&cond_word, FUTEX_CMP_REQUEUE_PI |
						  FUTEX_CLOCK_REALTIME,
				      1, NULL, &mutex_word, 1, 1), -ENOSYS);

	WRITE_ONCE(cond_word, 0);
	plain_calling = false;
	init_completion(&plain_done);
	p = start_rt(plain_waiter_fn, NULL, SCHED_FIFO, 50, -1, "frq-W");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	KTEST_EXPECT(t, wait_flag_then_sleeping(p, &plain_calling),
		     "the FUTEX_WAIT'er not seen asleep on C");
	KTEST_EXPECT_EQ(t, signal_cond(1), -EINVAL);
	KTEST_EXPECT_EQ(t, futex_op(&cond_word, FUTEX_WAKE, 1, NULL), 1);
	wait_for_completion(&plain_done);
	KTEST_EXPECT_EQ(t, plain_ret, 0);
	put_task_struct(p);

	KTEST_ASSERT(t, cv_waiter_start(&h, &cond_word, &mutex_word, 50,
					0, "frq-H"),
		     "H not seen asleep on C");
	KTEST_EXPECT_EQ(t, requeue_op(&cond_word, FUTEX_CMP_REQUEUE_PI, 1,
				      NULL, &other_mutex_word, 1, 0), -EINVAL);
	KTEST_EXPECT(t, !completion_done(&h.returned),
		     "H returned %ld after a requeue to the wrong futex",
		     h.ret);
	KTEST_EXPECT_EQ(t, futex_word_read(&other_mutex_word), 0);
	KTEST_EXPECT_EQ(t, signal_cond(1), 1);
	expect_owns_then_unlocks(t, &h, "H");
}

/*
 * Scenario (the waiter holds the mutex itself): H (FIFO 50) takes F,
 * then waits on C for F (a program bug: pthread_cond_wait with the
 * mutex taken twice).  M: FUTEX_CMP_REQUEUE_PI(C, 1, 1, F, 0).
 * Observable: -EDEADLK (H's TID is F's owner), H is left waiting on C
 * and F's word untouched; a signal ends H's wait with -EINTR, still
 * owning F, and its unlock frees F.
 */
static void test_requeue_pi_to_the_waiters_own_mutex_is_edeadlk(
	struct ktest *t)
{
	struct cv_waiter h;

	WRITE_ONCE(cond_word, 0);
	WRITE_ONCE(mutex_word, 0);
	cv_waiter_init(&h, &cond_word, &mutex_word, 0);
	h.owns_mutex_first = true;
	h.task = start_rt(cv_waiter_fn, &h, SCHED_FIFO, 50, -1, "frq-H");
	KTEST_ASSERT(t, h.task != NULL, "kthread_create failed");
	h.tid = futex_tid(h.task);
	KTEST_EXPECT(t, wait_flag_then_sleeping(h.task, &h.calling),
		     "H not seen asleep on C");
	KTEST_EXPECT_EQ(t, futex_word_read(&mutex_word), h.tid);
	KTEST_EXPECT_EQ(t, signal_cond(1), -EDEADLK);
	KTEST_EXPECT(t, !completion_done(&h.returned),
		     "H returned %ld after a refused requeue", h.ret);
	KTEST_EXPECT_EQ(t, futex_word_read(&mutex_word), h.tid);
	kernel_signal(h.task);
	wait_for_completion(&h.returned);
	KTEST_EXPECT_EQ(t, h.ret, -EINTR);
	KTEST_EXPECT_EQ(t, h.seen, h.tid);
	cv_waiter_finish(&h);
	KTEST_EXPECT_EQ(t, h.unlock_ret, 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&mutex_word), 0);
}

/* The cycle's two threads: H owns G and waits on C for F; L owns F and
 * waits for G. */
static struct completion h_owns_g, cycle_h_done, cycle_l_done;
static bool h_calling;
static long h_cycle_ret, l_cycle_ret;

static int cycle_h_fn(void *data)
{
	u32 __user *c = futex_test_uaddr(&cond_word);
	u32 __user *f = futex_test_uaddr(&mutex_word);

	(void)data;
	futex_op(&other_mutex_word, FUTEX_LOCK_PI, 0, NULL);
	complete(&h_owns_g);
	WRITE_ONCE(h_calling, true);
	h_cycle_ret = do_futex(c, FUTEX_WAIT_REQUEUE_PI, 0, NULL, f, 0, 0);
	futex_op(&other_mutex_word, FUTEX_UNLOCK_PI, 0, NULL);
	complete(&cycle_h_done);
	return 0;
}

static int cycle_l_fn(void *data)
{
	(void)data;
	futex_op(&mutex_word, FUTEX_LOCK_PI, 0, NULL);
	l_cycle_ret = futex_op(&other_mutex_word, FUTEX_LOCK_PI, 0, NULL);
	if (!l_cycle_ret)
		futex_op(&other_mutex_word, FUTEX_UNLOCK_PI, 0, NULL);
	futex_op(&mutex_word, FUTEX_UNLOCK_PI, 0, NULL);
	complete(&cycle_l_done);
	return 0;
}

/*
 * Scenario (the requeue closes a cycle, [RQ4]):
 *   H  FIFO 50: owns the PI futex G, then waits on C for F
 *   L  FIFO 10: owns F, then FUTEX_LOCK_PI on G: blocked on H
 *   M  the test task: FUTEX_CMP_REQUEUE_PI(C, 1, 1, F, 0)
 * Moving H onto F's rt_mutex would make H wait for L, which waits for
 * H.  Observable: the requeue returns -EDEADLK; H, moved and woken,
 * leaves F's rt_mutex itself and returns -EDEADLK (Linux leaves it on C
 * instead: requeue_pi.c's header); then H unlocks G, L gets it (0) and
 * both words end free.
 */
static void test_requeue_pi_closing_a_cycle_is_edeadlk(struct ktest *t)
{
	struct task_struct *h, *l;

	WRITE_ONCE(cond_word, 0);
	WRITE_ONCE(mutex_word, 0);
	WRITE_ONCE(other_mutex_word, 0);
	init_completion(&h_owns_g);
	init_completion(&cycle_h_done);
	init_completion(&cycle_l_done);
	h_calling = false;
	h_cycle_ret = l_cycle_ret = 1;
	h = start_rt(cycle_h_fn, NULL, SCHED_FIFO, 50, -1, "frq-H");
	KTEST_ASSERT(t, h != NULL, "kthread_create failed");
	wait_for_completion(&h_owns_g);
	KTEST_EXPECT(t, wait_flag_then_sleeping(h, &h_calling),
		     "H not seen asleep on C");
	l = start_rt(cycle_l_fn, NULL, SCHED_FIFO, 10, -1, "frq-L");
	KTEST_ASSERT(t, l != NULL, "kthread_create failed");
	KTEST_EXPECT(t, wait_futex_pi_blocked(l), "L not seen blocked on G");
	KTEST_EXPECT_EQ(t, signal_cond(1), -EDEADLK);
	wait_for_completion(&cycle_h_done);
	KTEST_EXPECT_EQ(t, h_cycle_ret, -EDEADLK);
	wait_for_completion(&cycle_l_done);
	KTEST_EXPECT_EQ(t, l_cycle_ret, 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&mutex_word), 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&other_mutex_word), 0);
	put_task_struct(h);
	put_task_struct(l);
}

/* The requeued waiter's deadline: far enough ahead that M's requeue
 * comes first on a loaded TCG host (a hang net, not a timing the test
 * waits out by sleeping: it waits for H's completion). */
#define REQUEUED_DEADLINE_NS (500LL * NSEC_PER_MSEC)

/*
 * Scenario (timeout while requeued): M (the test task, SCHED_OTHER 120)
 * owns F; H (FIFO 50) waits on C for F with a deadline 500 ms ahead.  M
 * requeues H, and nobody unlocks F.
 * Observable: the requeue returns 1 and M runs at H's prio 49 while H
 * waits; at the deadline H returns -ETIMEDOUT, without F; M is back at
 * 120 with no PI waiter (H left the rt_mutex); F's word keeps M's TID
 * (with the stale FUTEX_WAITERS) and M's unlock clears it.
 */
static void test_requeue_pi_timeout_while_requeued_deboosts(struct ktest *t)
{
	int m_prio = current->prio;
	u32 m_tid = futex_tid(current);
	struct cv_waiter h;

	WRITE_ONCE(cond_word, 0);
	WRITE_ONCE(mutex_word, 0);
	KTEST_ASSERT(t, futex_op(&mutex_word, FUTEX_LOCK_PI, 0, NULL) == 0,
		     "M's uncontended LOCK_PI failed");
	if (!cv_waiter_start(&h, &cond_word, &mutex_word, 50,
			     ktime_get() + REQUEUED_DEADLINE_NS, "frq-H"))
		KTEST_EXPECT(t, 0, "H not seen asleep on C");
	KTEST_EXPECT_EQ(t, signal_cond(1), 1);
	KTEST_EXPECT(t, READ_ONCE(current->prio) == h.task->normal_prio,
		     "M prio %d with H requeued onto F, want H's %d",
		     READ_ONCE(current->prio), h.task->normal_prio);
	wait_for_completion(&h.returned);
	KTEST_EXPECT_EQ(t, h.ret, -ETIMEDOUT);
	KTEST_EXPECT(t, READ_ONCE(current->prio) == m_prio,
		     "M prio %d after H timed out, want its own %d",
		     READ_ONCE(current->prio), m_prio);
	KTEST_EXPECT(t, !task_has_pi_waiters(current),
		     "M still has PI waiters after H timed out");
	KTEST_EXPECT(t, h.task->pi_blocked_on == NULL,
		     "H still blocked on F's rt_mutex");
	cv_waiter_finish(&h);
	KTEST_EXPECT_EQ(t, futex_word_read(&mutex_word) & FUTEX_TID_MASK,
			m_tid);
	KTEST_EXPECT_EQ(t, futex_op(&mutex_word, FUTEX_UNLOCK_PI, 0, NULL), 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&mutex_word), 0);
}

#define PARK_WAIT_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */

/*
 * test_requeue_pi_timeout_loses_to_a_requeue (the diagram at
 * futex_wait_requeue_pi, step [WR4]).  Scenario:
 *   W  FIFO 10 on CPU 1: FUTEX_WAIT_REQUEUE_PI on C for F (free) with a
 *      deadline 1 ms ahead; nobody requeues it in time, [WR3] stops at
 *      the deadline and W parks in futex_wait_requeue_pi_window, still
 *      queued on C
 *   M  the test task on CPU 0, SCHED_OTHER: FUTEX_CMP_REQUEUE_PI while W
 *      is parked, then releases W
 * Observable: the requeue returns 1 (it took F for W) and W returns 0,
 * not -ETIMEDOUT, with its TID in F's word; W's unlock clears it.
 */
static void test_requeue_pi_timeout_loses_to_a_requeue(struct ktest *t)
{
	struct cv_waiter w;
	long moved;
	bool parked;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: W spins in the window while M "
			      "requeues");
	WRITE_ONCE(cond_word, 0);
	WRITE_ONCE(mutex_word, 0);
	me_rt(0, 0);
	cv_waiter_init(&w, &cond_word, &mutex_word, 0);
	w.task = create_fifo(cv_waiter_fn, &w, 10, one_cpu(1), "frq-W");
	KTEST_ASSERT(t, w.task != NULL, "kthread_create failed");
	w.tid = futex_tid(w.task);
	w.deadline = ktime_get() + NSEC_PER_MSEC;
	parked = race_window_run_until_parked(&futex_wait_requeue_pi_window,
					      w.task, PARK_WAIT_NS);
	KTEST_EXPECT(t, parked, "W parks in futex_wait_requeue_pi_window "
		     "within %lld s", PARK_WAIT_NS / NSEC_PER_SEC);
	moved = signal_cond(0);
	if (parked)
		race_window_release(&futex_wait_requeue_pi_window);
	wait_for_completion(&w.returned);
	KTEST_EXPECT(t, moved == 1, "CMP_REQUEUE_PI returned %ld, want 1 "
		     "(W still queued on C)", moved);
	KTEST_EXPECT(t, w.ret == (moved == 1 ? 0 : -ETIMEDOUT),
		     "W returned %ld after a requeue that took F for it "
		     "(%ld): want 0", w.ret, moved);
	KTEST_EXPECT(t, moved != 1 || w.seen == w.tid,
		     "W saw F = %#x, want its TID %#x", w.seen, w.tid);
	cv_waiter_finish(&w);
	KTEST_EXPECT_EQ(t, futex_word_read(&mutex_word), 0);
	me_restore();
}

/*
 * t_requeue_pi (user/tests/t_requeue_pi.c has its scenario): the same
 * story through the system call from a program's two threads, with
 * nr_requeue in the timeout's slot and absolute deadlines on
 * CLOCK_MONOTONIC and CLOCK_REALTIME; it passes on Linux too.  Exit
 * code = failed checks.
 */
static void test_requeue_pi_from_a_user_program(struct ktest *t)
{
	user_expect_exit_zero(t, "t_requeue_pi");
}

KTEST_SUITE(futex_requeue_pi,
	    KTEST_CASE(test_requeue_pi_boosts_the_mutex_owner),
	    KTEST_CASE(test_requeue_pi_takes_a_free_mutex_for_the_waiter),
	    KTEST_CASE(test_requeue_pi_broadcast_hands_the_mutex_on),
	    KTEST_CASE(
		test_requeue_pi_refuses_bad_arguments_and_mismatched_ops),
	    KTEST_CASE(test_requeue_pi_to_the_waiters_own_mutex_is_edeadlk),
	    KTEST_CASE(test_requeue_pi_closing_a_cycle_is_edeadlk),
	    KTEST_CASE(test_requeue_pi_timeout_while_requeued_deboosts),
	    KTEST_CASE(test_requeue_pi_timeout_loses_to_a_requeue),
	    KTEST_CASE(test_requeue_pi_from_a_user_program));
