/*
 * tests/kernel/test_futex_pi.c - the futex_pi suite: FUTEX_LOCK_PI,
 * FUTEX_TRYLOCK_PI and FUTEX_UNLOCK_PI (kernel/futex/pi.c), the pi
 * suite's stories told through a PI futex: the owner is boosted to its
 * waiter's prio, transitively through a kernel rt_mutex the owner waits
 * for, deboosted by the unlock and by a waiter that leaves (timeout,
 * signal); the unlock hands the futex to the top waiter, its TID in the
 * word, FUTEX_WAITERS kept while others wait.  Kernel threads with the
 * words in kernel memory (futex_uaccess.h's stand-in).  Priorities are
 * in the kernel scale: FIFO p runs at prio 99 - p, SCHED_OTHER at 120.
 * The lockers are unpinned: on one CPU and on all.  Several threads
 * using it as a mutex: test_futex_pi_mutex.c.  Longer than 400 lines:
 * one scenario per pi suite story, each with its scenario comment.
 */
#include "kernel/ktest.h"
#include "kernel/signal.h"
#include "kernel/sched/completion.h"
#include "lib/errno.h"
#include "tests/kernel/futex_helpers.h"
#include "tests/kernel/rtmutex_helpers.h"

static u32 pi_word;

/* One task's turn at the futex: lock (or trylock) it, note what it got,
 * keep it until told, unlock it. */
struct pi_locker {
	u32 *word;
	bool trylock;
	ktime_t deadline;		/* 0: none */
	long ret;			/* FUTEX_LOCK_PI's */
	u32 seen;			/* the word right after */
	long unlock_ret;		/* FUTEX_UNLOCK_PI's */
	int prio_after_unlock;
	int normal_prio;		/* its own, unboosted */
	u32 tid;
	struct completion locked, may_unlock, done;
	struct task_struct *task;
};

static int pi_locker_fn(void *data)
{
	struct pi_locker *l = data;
	ktime_t *abs = l->deadline ? &l->deadline : NULL;

	l->ret = futex_op(l->word, l->trylock ? FUTEX_TRYLOCK_PI :
						FUTEX_LOCK_PI, 0, abs);
	l->seen = futex_word_read(l->word);
	complete(&l->locked);
	if (!l->ret) {
		wait_for_completion(&l->may_unlock);
		l->unlock_ret = futex_op(l->word, FUTEX_UNLOCK_PI, 0, NULL);
		l->prio_after_unlock = current->prio;
		l->normal_prio = current->normal_prio;
	}
	flush_signals(current);
	complete(&l->done);
	return 0;
}

/* pi_locker_start - l's task at FIFO prio (0: SCHED_OTHER), unpinned,
 * locking word (trylock: FUTEX_TRYLOCK_PI) with deadline (0: none). */
static struct task_struct *pi_locker_start(struct pi_locker *l, u32 *word,
					   int prio, bool trylock,
					   ktime_t deadline, const char *name)
{
	l->word = word;
	l->trylock = trylock;
	l->deadline = deadline;
	l->ret = l->unlock_ret = 1;
	l->seen = 0;
	l->prio_after_unlock = l->normal_prio = -1;
	init_completion(&l->locked);
	init_completion(&l->may_unlock);
	init_completion(&l->done);
	l->task = start_rt(pi_locker_fn, l, prio ? SCHED_FIFO : SCHED_OTHER,
			   prio, -1, name);
	if (l->task)
		l->tid = (u32)l->task->pid;
	return l->task;
}

/* pi_locker_finish - let l unlock (if it locked), wait for it, put it. */
static void pi_locker_finish(struct pi_locker *l)
{
	complete(&l->may_unlock);
	wait_for_completion(&l->done);
	put_task_struct(l->task);
}

/* m_takes_the_futex - the test task M takes the free futex. */
static void m_takes_the_futex(struct ktest *t)
{
	WRITE_ONCE(pi_word, 0);
	KTEST_ASSERT(t, futex_op(&pi_word, FUTEX_LOCK_PI, 0, NULL) == 0,
		     "M's uncontended LOCK_PI failed");
}

/* start_blocked_waiter - l, at FIFO prio, asks for the futex M holds and
 * is seen asleep on it. */
static void start_blocked_waiter(struct ktest *t, struct pi_locker *l,
				 int prio, const char *name)
{
	KTEST_ASSERT(t, pi_locker_start(l, &pi_word, prio, false, 0, name),
		     "kthread_create failed");
	KTEST_EXPECT(t, wait_futex_pi_blocked(l->task),
		     "%s not seen blocked on the futex", name);
}

/* No contention: LOCK_PI puts the caller's TID in the word and does not
 * set FUTEX_WAITERS; the owner's LOCK_PI and TRYLOCK_PI are -EDEADLK;
 * UNLOCK_PI clears the word; UNLOCK_PI of a free word is -EPERM;
 * TRYLOCK_PI of a free word takes it. */
static void test_futex_lock_pi_uncontended_sets_the_tid(struct ktest *t)
{
	u32 tid = (u32)current->pid;

	WRITE_ONCE(pi_word, 0);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_LOCK_PI, 0, NULL), 0);
	KTEST_EXPECT(t, futex_word_read(&pi_word) == tid,
		     "word %#x after LOCK_PI, want the TID %#x",
		     futex_word_read(&pi_word), tid);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_LOCK_PI, 0, NULL),
			-EDEADLK);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_TRYLOCK_PI, 0, NULL),
			-EDEADLK);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL), 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), 0);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL),
			-EPERM);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_TRYLOCK_PI |
					      FUTEX_PRIVATE_FLAG, 0, NULL), 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), tid);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL), 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), 0);
}

/* A word naming another task: UNLOCK_PI by a non-owner is -EPERM and
 * leaves the word alone; a TID no task has is -ESRCH for LOCK_PI and
 * TRYLOCK_PI (Linux's answer without robust lists). */
static void test_futex_pi_foreign_and_dead_owners(struct ktest *t)
{
	const u32 nobody = 0x3ffffff0;	/* pids only grow, never this far */

	WRITE_ONCE(pi_word, nobody);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL),
			-EPERM);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), nobody);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_LOCK_PI, 0, NULL), -ESRCH);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_TRYLOCK_PI, 0, NULL),
			-ESRCH);
	WRITE_ONCE(pi_word, 0);
}

/*
 * Scenario: the test task M (SCHED_OTHER, 120) owns the futex.  H (FIFO
 * 50) calls FUTEX_LOCK_PI and sleeps; T (FIFO 40) tries FUTEX_TRYLOCK_PI.
 * Observable while H waits: M runs at H's prio 49; the word is M's TID |
 * FUTEX_WAITERS; T gets -EWOULDBLOCK and M's prio is unchanged; FUTEX_WAKE
 * on a PI futex is -EINVAL.  M's FUTEX_UNLOCK_PI: M is back at 120 at
 * once, H returns 0 and sees its own TID without FUTEX_WAITERS (nobody
 * else waits); H's unlock clears the word.
 */
static void test_futex_pi_boosts_the_owner_and_hands_over(struct ktest *t)
{
	struct pi_locker h, tr;
	int m_prio = current->prio;
	u32 m_tid = (u32)current->pid;

	m_takes_the_futex(t);
	start_blocked_waiter(t, &h, 50, "H");
	KTEST_EXPECT(t, READ_ONCE(current->prio) == h.task->normal_prio,
		     "M prio %d while H waits, want H's %d",
		     READ_ONCE(current->prio), h.task->normal_prio);
	KTEST_EXPECT(t, futex_word_read(&pi_word) == (m_tid | FUTEX_WAITERS),
		     "word %#x while H waits, want M's TID | WAITERS %#x",
		     futex_word_read(&pi_word), m_tid | FUTEX_WAITERS);

	KTEST_ASSERT(t, pi_locker_start(&tr, &pi_word, 40, true, 0, "fpi-T"),
		     "kthread_create failed");
	wait_for_completion(&tr.locked);
	KTEST_EXPECT_EQ(t, tr.ret, -EWOULDBLOCK);
	pi_locker_finish(&tr);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_WAKE, 1, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, READ_ONCE(current->prio), h.task->normal_prio);

	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL), 0);
	KTEST_EXPECT(t, READ_ONCE(current->prio) == m_prio,
		     "M prio %d after its unlock, want its own %d",
		     READ_ONCE(current->prio), m_prio);
	wait_for_completion(&h.locked);
	KTEST_EXPECT_EQ(t, h.ret, 0);
	KTEST_EXPECT(t, h.seen == h.tid,
		     "H saw word %#x after its LOCK_PI, want its TID %#x "
		     "without WAITERS", h.seen, h.tid);
	pi_locker_finish(&h);
	KTEST_EXPECT_EQ(t, h.unlock_ret, 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), 0);
}

/*
 * Scenario: M (the test task, 120) owns the futex; L (FIFO 30) and H
 * (FIFO 50) wait for it (L first).  Observable: M at 49.  M unlocks: H,
 * the top waiter, owns it, the word is H's TID | FUTEX_WAITERS (L still
 * waits) and M is at 120.  H unlocks: L owns it, its TID without
 * FUTEX_WAITERS; H drops back to its own 49.  L's unlock clears the word.
 */
static void test_futex_pi_unlock_hands_over_in_prio_order(struct ktest *t)
{
	struct pi_locker l, h;
	int m_prio = current->prio;

	m_takes_the_futex(t);
	start_blocked_waiter(t, &l, 30, "L");
	start_blocked_waiter(t, &h, 50, "H");
	KTEST_EXPECT_EQ(t, READ_ONCE(current->prio), h.task->normal_prio);

	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL), 0);
	KTEST_EXPECT_EQ(t, READ_ONCE(current->prio), m_prio);
	wait_for_completion(&h.locked);
	KTEST_EXPECT_EQ(t, h.ret, 0);
	KTEST_EXPECT(t, h.seen == (h.tid | FUTEX_WAITERS),
		     "H saw %#x, want its TID | WAITERS %#x (L waits)",
		     h.seen, h.tid | FUTEX_WAITERS);
	KTEST_EXPECT(t, !completion_done(&l.locked),
		     "L returned (%ld) while H holds the futex", l.ret);

	pi_locker_finish(&h);
	KTEST_EXPECT_EQ(t, h.unlock_ret, 0);
	KTEST_EXPECT_EQ(t, h.prio_after_unlock, h.normal_prio);
	wait_for_completion(&l.locked);
	KTEST_EXPECT_EQ(t, l.ret, 0);
	KTEST_EXPECT(t, l.seen == l.tid,
		     "L saw %#x, want its TID %#x", l.seen, l.tid);
	pi_locker_finish(&l);
	KTEST_EXPECT_EQ(t, l.unlock_ret, 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), 0);
}

static DEFINE_RT_MUTEX(pi_kernel_lock);
static struct completion o_owns_futex, o_done;
static int o_prio_holding_k;	/* O's prio once it got K */
static int o_prio_after_unlock;
static long o_unlock_ret;

/* O: take the futex, then wait for the kernel lock K, then release both. */
static int pi_chain_owner_fn(void *data)
{
	(void)data;
	futex_op(&pi_word, FUTEX_LOCK_PI, 0, NULL);
	complete(&o_owns_futex);
	rt_mutex_lock(&pi_kernel_lock);
	o_prio_holding_k = current->prio;
	rt_mutex_unlock(&pi_kernel_lock);
	o_unlock_ret = futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL);
	o_prio_after_unlock = current->prio;
	complete(&o_done);
	return 0;
}

/*
 * Scenario (the pi suite's transitive story, a user lock first):
 *   M  the test task, SCHED_OTHER (120), holds the kernel rt_mutex K
 *   O  SCHED_OTHER: owns the futex F, then blocks on K
 *   H  FIFO 60 (prio 39): FUTEX_LOCK_PI on F, sleeps
 * Observable: H's wait boosts O to 39 through F's rt_mutex, and the chain
 * walk goes on through K to M: M at 39.  M releases K: M back at 120; O
 * gets K still at 39 (H waits), releases K and F: O back at 120; H gets F
 * with its TID in the word.
 */
static void test_futex_pi_boost_is_transitive_through_a_kernel_lock(
	struct ktest *t)
{
	struct task_struct *o;
	struct pi_locker h;
	int m_prio = current->prio;

	WRITE_ONCE(pi_word, 0);
	init_completion(&o_owns_futex);
	init_completion(&o_done);
	rt_mutex_lock(&pi_kernel_lock);
	o = start_rt(pi_chain_owner_fn, NULL, SCHED_OTHER, 0, -1, "fpi-O");
	if (!o) {
		rt_mutex_unlock(&pi_kernel_lock);
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	wait_for_completion(&o_owns_futex);
	KTEST_EXPECT(t, wait_sleeping_on(o, &pi_kernel_lock),
		     "O not seen blocked on K");
	if (!pi_locker_start(&h, &pi_word, 60, false, 0, "fpi-H")) {
		rt_mutex_unlock(&pi_kernel_lock);
		wait_for_completion(&o_done);
		put_task_struct(o);
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	KTEST_EXPECT(t, wait_futex_pi_blocked(h.task), "H not seen blocked");
	KTEST_EXPECT(t, READ_ONCE(o->prio) == h.task->normal_prio,
		     "O prio %d, want H's %d (boost through the futex)",
		     READ_ONCE(o->prio), h.task->normal_prio);
	KTEST_EXPECT(t, READ_ONCE(current->prio) == h.task->normal_prio,
		     "M prio %d, want H's %d (transitive through K)",
		     READ_ONCE(current->prio), h.task->normal_prio);

	rt_mutex_unlock(&pi_kernel_lock);
	KTEST_EXPECT_EQ(t, READ_ONCE(current->prio), m_prio);
	wait_for_completion(&o_done);
	KTEST_EXPECT_EQ(t, o_prio_holding_k, h.task->normal_prio);
	KTEST_EXPECT_EQ(t, o_unlock_ret, 0);
	KTEST_EXPECT_EQ(t, o_prio_after_unlock, o->normal_prio);
	wait_for_completion(&h.locked);
	KTEST_EXPECT_EQ(t, h.ret, 0);
	KTEST_EXPECT_EQ(t, h.seen, h.tid);
	pi_locker_finish(&h);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), 0);
	put_task_struct(o);
}

/*
 * Scenario: M (the test task, 120) owns the futex.  H1 (FIFO 50) waits
 * without a timeout; M runs at 49.  H1 is signalled: FUTEX_LOCK_PI
 * returns -EINTR and M is back at 120 at once.  H2 (FIFO 50) waits with
 * a deadline 2 ms ahead and nobody unlocks: -ETIMEDOUT, M at 120 (its
 * boost, if seen, is gone).  In both cases the word keeps M's TID (with
 * the stale FUTEX_WAITERS) and M's unlock clears it.
 */
static void test_futex_pi_waiter_leaving_deboosts_the_owner(struct ktest *t)
{
	struct pi_locker h1, h2;
	int m_prio = current->prio;

	m_takes_the_futex(t);
	start_blocked_waiter(t, &h1, 50, "H1");
	KTEST_EXPECT_EQ(t, READ_ONCE(current->prio), h1.task->normal_prio);
	kernel_signal(h1.task);
	wait_for_completion(&h1.locked);
	KTEST_EXPECT_EQ(t, h1.ret, -EINTR);
	KTEST_EXPECT(t, READ_ONCE(current->prio) == m_prio,
		     "M prio %d after H1 left, want %d",
		     READ_ONCE(current->prio), m_prio);
	pi_locker_finish(&h1);

	KTEST_ASSERT(t, pi_locker_start(&h2, &pi_word, 50, false,
					ktime_get() + 2 * NSEC_PER_MSEC,
					"fpi-H2"),
		     "kthread_create failed");
	wait_for_completion(&h2.locked);
	KTEST_EXPECT_EQ(t, h2.ret, -ETIMEDOUT);
	KTEST_EXPECT(t, READ_ONCE(current->prio) == m_prio,
		     "M prio %d after H2 timed out, want %d",
		     READ_ONCE(current->prio), m_prio);
	KTEST_EXPECT(t, !task_has_pi_waiters(current),
		     "M still has PI waiters");
	pi_locker_finish(&h2);

	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word) & FUTEX_TID_MASK,
			(u32)current->pid);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL), 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), 0);
}

/*
 * Scenario: M (the test task, 120) owns the futex; H (FIFO 50) waits, M
 * runs at 49.  The test raises H to FIFO 70, then lowers it to FIFO 20
 * (sched_setscheduler on a task blocked on the futex's rt_mutex).
 * Observable: M follows at once, 29 then 79 (rt_mutex_adjust_pi re-walks
 * the chain from H through the futex to M); after M's unlock H gets the
 * futex and M is back at 120.
 */
static void test_futex_pi_waiter_prio_change_reaches_the_owner(
	struct ktest *t)
{
	struct sched_param sp;
	struct pi_locker h;
	int m_prio = current->prio;

	m_takes_the_futex(t);
	start_blocked_waiter(t, &h, 50, "H");
	KTEST_EXPECT_EQ(t, READ_ONCE(current->prio), 49);
	sp.sched_priority = 70;
	sched_setscheduler(h.task, SCHED_FIFO, &sp);
	KTEST_EXPECT(t, READ_ONCE(current->prio) == 29,
		     "M prio %d after H went to FIFO 70, want 29",
		     READ_ONCE(current->prio));
	sp.sched_priority = 20;
	sched_setscheduler(h.task, SCHED_FIFO, &sp);
	KTEST_EXPECT(t, READ_ONCE(current->prio) == 79,
		     "M prio %d after H went to FIFO 20, want 79",
		     READ_ONCE(current->prio));
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL), 0);
	KTEST_EXPECT_EQ(t, READ_ONCE(current->prio), m_prio);
	wait_for_completion(&h.locked);
	KTEST_EXPECT_EQ(t, h.ret, 0);
	KTEST_EXPECT_EQ(t, h.seen, h.tid);
	pi_locker_finish(&h);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), 0);
}

static u32 pi_word2;
static struct completion a_holds_f2, a_done;
static long a_ret;

/* A: take F2, then wait for F1; release both. */
static int pi_abba_fn(void *data)
{
	(void)data;
	futex_op(&pi_word2, FUTEX_LOCK_PI, 0, NULL);
	complete(&a_holds_f2);
	a_ret = futex_op(&pi_word, FUTEX_LOCK_PI, 0, NULL);
	if (!a_ret)
		futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL);
	futex_op(&pi_word2, FUTEX_UNLOCK_PI, 0, NULL);
	complete(&a_done);
	return 0;
}

/*
 * Scenario (ABBA with two PI futexes): M (the test task, 120) owns F1;
 * A (FIFO 10) owns F2 and waits for F1 (M boosted to 89).  M asks for F2.
 * Observable: the chain walk from F2's owner A comes back to M:
 * FUTEX_LOCK_PI returns -EDEADLK at once instead of hanging both, M's
 * waiter is gone again (M still boosted by A only, 89), and after M's
 * unlock A gets F1 and both words end free.
 */
static void test_futex_pi_cycle_of_two_futexes_is_edeadlk(struct ktest *t)
{
	struct task_struct *a;

	WRITE_ONCE(pi_word2, 0);
	init_completion(&a_holds_f2);
	init_completion(&a_done);
	a_ret = 1;
	m_takes_the_futex(t);
	a = start_rt(pi_abba_fn, NULL, SCHED_FIFO, 10, -1, "fpi-A");
	if (!a) {
		futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL);
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	wait_for_completion(&a_holds_f2);
	KTEST_EXPECT(t, wait_futex_pi_blocked(a), "A not seen blocked on F1");
	KTEST_EXPECT_EQ(t, futex_op(&pi_word2, FUTEX_LOCK_PI, 0, NULL),
			-EDEADLK);
	KTEST_EXPECT(t, current->pi_blocked_on == NULL,
		     "M still blocked after -EDEADLK");
	KTEST_EXPECT_EQ(t, READ_ONCE(current->prio), a->normal_prio);
	KTEST_EXPECT_EQ(t, futex_op(&pi_word, FUTEX_UNLOCK_PI, 0, NULL), 0);
	wait_for_completion(&a_done);
	KTEST_EXPECT_EQ(t, a_ret, 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word2), 0);
	put_task_struct(a);
}

KTEST_SUITE(futex_pi, KTEST_CASE(test_futex_lock_pi_uncontended_sets_the_tid),
	    KTEST_CASE(test_futex_pi_foreign_and_dead_owners),
	    KTEST_CASE(test_futex_pi_boosts_the_owner_and_hands_over),
	    KTEST_CASE(test_futex_pi_unlock_hands_over_in_prio_order),
	    KTEST_CASE(test_futex_pi_boost_is_transitive_through_a_kernel_lock),
	    KTEST_CASE(test_futex_pi_waiter_leaving_deboosts_the_owner),
	    KTEST_CASE(test_futex_pi_waiter_prio_change_reaches_the_owner),
	    KTEST_CASE(test_futex_pi_cycle_of_two_futexes_is_edeadlk));
