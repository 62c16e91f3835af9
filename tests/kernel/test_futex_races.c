/*
 * tests/kernel/test_futex_races.c - the futex_races suite: the futex
 * interleavings drawn in kernel/futex/waitwake.c and pi.c, forced with
 * race windows (kernel/debug/race_window.h).  All need 2 CPUs: one task
 * spins in the window while the other side of the race runs.
 *
 * test_futex_wait_timeout_loses_to_a_wake (the second diagram at
 * futex_wait, step [FW6]).  Scenario:
 *   W  FIFO 10 on CPU 1: FUTEX_WAIT on the word (value 0) with a deadline
 *      1 ms ahead; nobody wakes it, [FW5] stops at the deadline and W
 *      parks in futex_wait_timeout_window, still queued
 *   M  the test task on CPU 0, SCHED_OTHER: FUTEX_WAKE(1) while W is
 *      parked, then releases W
 * Observable: the wake returns 1 and W's FUTEX_WAIT returns 0, not
 * -ETIMEDOUT: a wake the waker counted is never lost.
 *
 * test_futex_lock_pi_retries_when_the_owner_unlocks_in_user_space (the
 * diagram at futex_lock_pi_atomic).  Scenario:
 *   M  the test task on CPU 0, SCHED_OTHER: owns the futex F with its
 *      bare TID in the word (taken uncontended, as user space would)
 *   L  FIFO 10 on CPU 1: FUTEX_LOCK_PI on F (a 5 s deadline as hang net)
 *      reads M's TID and parks in futex_lock_pi_atomic_window, before
 *      its cmpxchg sets FUTEX_WAITERS
 *   M  while L is parked: the user-space unlock, cmpxchg(TID -> 0), which
 *      succeeds (no FUTEX_WAITERS yet); then releases L
 * Observable: L's cmpxchg fails, it reads the word again and takes the
 * free futex: LOCK_PI returns 0 with L's TID in the word, no FUTEX_WAITERS.
 * Without the re-read L attaches to M, which no longer holds the lock,
 * and sleeps until its deadline (-ETIMEDOUT).
 *
 * test_futex_lock_pi_timeout_loses_to_a_hand_over (the diagram at
 * futex_lock_pi, step [LP7]).  Scenario:
 *   M  the test task on CPU 0, SCHED_OTHER: owns F (FUTEX_LOCK_PI)
 *   W  FIFO 50 on CPU 1: FUTEX_LOCK_PI with a deadline 10 ms ahead;
 *      blocks (M boosted), times out in rt_mutex_wait_proxy_lock and parks
 *      in futex_lock_pi_unqueue_window, its waiter still queued
 *   M  while W is parked: still boosted to W's prio; FUTEX_UNLOCK_PI
 *      hands F to W (W's TID in the word) and drops M to 120; releases W
 * Observable: W's cleanup finds it owns the rt_mutex ([C1]): LOCK_PI
 * returns 0, not -ETIMEDOUT, the word holds W's TID, and W's unlock
 * clears it.
 *
 * test_futex_lock_pi_after_a_hand_over_sets_waiters (the second diagram
 * at futex_lock_pi_atomic).  Scenario:
 *   M  the test task on CPU 0, SCHED_OTHER: owns F (FUTEX_LOCK_PI)
 *   W  FIFO 50 on CPU 1: FUTEX_LOCK_PI, sleeps; M's unlock hands it F
 *      (W's bare TID: nobody else waits) and W parks in
 *      futex_lock_pi_unqueue_window, its futex_q still queued
 *   X  FIFO 60 on CPU 0: FUTEX_LOCK_PI on F while W is parked; sleeps
 *   M  sees X asleep, then releases W, which returns and unlocks F the
 *      user-space way: cmpxchg(TID -> 0), FUTEX_UNLOCK_PI if that fails
 * Observable: while W is parked the word is W's TID | FUTEX_WAITERS and
 * W runs at X's prio; W's cmpxchg fails, its FUTEX_UNLOCK_PI hands F to
 * X, which returns 0 with its own TID in the word.
 */
#include "kernel/debug/race_window.h"
#include "kernel/ktest.h"
#include "kernel/futex/futex_internal.h"
#include "kernel/sched/completion.h"
#include "lib/errno.h"
#include "tests/kernel/futex_helpers.h"

#define PARK_WAIT_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */

static u32 race_word;
static struct completion racer_done;
static ktime_t racer_deadline;
static long racer_ret, racer_unlock_ret;
static u32 racer_seen;

/* L or W: lock F by FUTEX_LOCK_PI until racer_deadline, note the result
 * and the word, release F. */
static int futex_racer_fn(void *data)
{
	(void)data;
	racer_ret = futex_op(&race_word, FUTEX_LOCK_PI, 0, &racer_deadline);
	racer_seen = futex_word_read(&race_word);
	if (!racer_ret)
		racer_unlock_ret = futex_op(&race_word, FUTEX_UNLOCK_PI, 0,
					    NULL);
	complete(&racer_done);
	return 0;
}

/* start_racer - M owns F on CPU 0; the racer created at FIFO prio on
 * CPU 1 with window armed for it, woken, and parked in it (true), or
 * came through unparked (false, finished: nothing raced it). */
static bool start_racer(struct ktest *t, struct race_window *window,
			int prio, s64 timeout_ns, struct task_struct **racer)
{
	struct task_struct *r;

	init_completion(&racer_done);
	racer_ret = racer_unlock_ret = 1;
	racer_seen = 0;
	me_rt(0, 0);
	WRITE_ONCE(race_word, 0);
	KTEST_ASSERT(t, futex_op(&race_word, FUTEX_LOCK_PI, 0, NULL) == 0,
		     "M's uncontended LOCK_PI failed");
	r = create_fifo(futex_racer_fn, NULL, prio, one_cpu(1), "futex-race");
	KTEST_ASSERT(t, r != NULL, "kthread_create failed");
	*racer = r;
	racer_deadline = ktime_get() + timeout_ns;
	return race_window_run_until_parked(window, r, PARK_WAIT_NS);
}

/* expect_racer_took_the_futex - who (the racer, TID tid) got the futex
 * by FUTEX_LOCK_PI with its bare TID in the word, then released it. */
static void expect_racer_took_the_futex(struct ktest *t, const char *who,
					u32 tid, const char *why)
{
	wait_for_completion(&racer_done);
	KTEST_EXPECT(t, racer_ret == 0, "%s's LOCK_PI returned %ld, want 0: "
		     "%s", who, racer_ret, why);
	KTEST_EXPECT(t, racer_seen == tid, "%s saw the word %#x, want its "
		     "bare TID %#x", who, racer_seen, tid);
	KTEST_EXPECT_EQ(t, racer_unlock_ret, 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&race_word), 0);
}

static void test_futex_lock_pi_retries_when_the_owner_unlocks_in_user_space(
	struct ktest *t)
{
	u32 m_tid = (u32)current->pid, cur = m_tid, l_tid;
	struct task_struct *l;
	bool parked, unlocked;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: L spins in the window while M "
			      "unlocks");
	parked = start_racer(t, &futex_lock_pi_atomic_window, 10, SAFETY_NS,
			     &l);
	l_tid = (u32)l->pid;
	KTEST_EXPECT(t, parked, "L parks in futex_lock_pi_atomic_window "
		     "within %lld s", PARK_WAIT_NS / NSEC_PER_SEC);
	/* the user-space unlock: no FUTEX_WAITERS yet, so no system call */
	unlocked = __atomic_compare_exchange_n(&race_word, &cur, 0, false,
					       __ATOMIC_SEQ_CST,
					       __ATOMIC_SEQ_CST);
	KTEST_EXPECT(t, unlocked, "M's user-space unlock found %#x, want its "
		     "bare TID %#x (L must not have set WAITERS yet)", cur,
		     m_tid);
	if (parked)
		race_window_release(&futex_lock_pi_atomic_window);
	expect_racer_took_the_futex(t, "L", l_tid,
				    "it slept on a futex M had released");
	if (!unlocked)
		futex_op(&race_word, FUTEX_UNLOCK_PI, 0, NULL);
	put_task_struct(l);
	me_restore();
}

static void test_futex_lock_pi_timeout_loses_to_a_hand_over(struct ktest *t)
{
	struct task_struct *w;
	int m_prio = current->normal_prio;
	u32 w_tid;
	bool parked;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: W spins in the window while M "
			      "unlocks");
	parked = start_racer(t, &futex_lock_pi_unqueue_window, 50,
			     10 * NSEC_PER_MSEC, &w);
	w_tid = (u32)w->pid;
	KTEST_EXPECT(t, parked, "W parks in futex_lock_pi_unqueue_window "
		     "within %lld s", PARK_WAIT_NS / NSEC_PER_SEC);
	if (parked)
		KTEST_EXPECT(t, READ_ONCE(current->prio) == w->normal_prio,
			     "M prio %d while W's waiter is queued, want W's "
			     "%d", READ_ONCE(current->prio), w->normal_prio);
	KTEST_EXPECT_EQ(t, futex_op(&race_word, FUTEX_UNLOCK_PI, 0, NULL), 0);
	KTEST_EXPECT(t, READ_ONCE(current->prio) == m_prio,
		     "M prio %d after its unlock, want %d",
		     READ_ONCE(current->prio), m_prio);
	if (parked)
		race_window_release(&futex_lock_pi_unqueue_window);
	expect_racer_took_the_futex(t, "W", w_tid,
				    "the unlock had handed W the futex");
	put_task_struct(w);
	me_restore();
}

static struct completion x_done;
static long x_ret, w_unlock_path;	/* 1: user space, 2: the syscall */
static u32 x_seen;

/* W: lock F, then unlock it as user space does. */
static int futex_handed_owner_fn(void *data)
{
	u32 tid = (u32)current->pid;

	(void)data;
	racer_ret = futex_op(&race_word, FUTEX_LOCK_PI, 0, NULL);
	racer_seen = futex_word_read(&race_word);
	if (!racer_ret) {
		if (__atomic_compare_exchange_n(&race_word, &tid, 0, false,
						__ATOMIC_RELEASE,
						__ATOMIC_RELAXED)) {
			w_unlock_path = 1;
		} else {
			w_unlock_path = 2;
			racer_unlock_ret = futex_op(&race_word,
						    FUTEX_UNLOCK_PI, 0, NULL);
		}
	}
	complete(&racer_done);
	return 0;
}

/* X: lock F (a 5 s deadline as hang net), note the word, release it. */
static int futex_late_locker_fn(void *data)
{
	ktime_t deadline = ktime_get() + SAFETY_NS;

	(void)data;
	x_ret = futex_op(&race_word, FUTEX_LOCK_PI, 0, &deadline);
	x_seen = futex_word_read(&race_word);
	if (!x_ret)
		futex_op(&race_word, FUTEX_UNLOCK_PI, 0, NULL);
	complete(&x_done);
	return 0;
}

static void test_futex_lock_pi_after_a_hand_over_sets_waiters(
	struct ktest *t)
{
	struct task_struct *w, *x;
	u32 w_tid, word;
	bool parked;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: W spins in the window while X "
			      "locks");
	init_completion(&racer_done);
	init_completion(&x_done);
	racer_ret = racer_unlock_ret = x_ret = 1;
	w_unlock_path = 0;
	me_rt(0, 0);
	WRITE_ONCE(race_word, 0);
	KTEST_ASSERT(t, futex_op(&race_word, FUTEX_LOCK_PI, 0, NULL) == 0,
		     "M's uncontended LOCK_PI failed");
	w = create_fifo(futex_handed_owner_fn, NULL, 50, one_cpu(1),
			"futex-W");
	KTEST_ASSERT(t, w != NULL, "kthread_create failed");
	w_tid = (u32)w->pid;
	wake_up_process(w);
	KTEST_EXPECT(t, wait_futex_pi_blocked(w), "W not seen blocked on F");
	race_window_arm(&futex_lock_pi_unqueue_window, w);
	KTEST_EXPECT_EQ(t, futex_op(&race_word, FUTEX_UNLOCK_PI, 0, NULL), 0);
	parked = race_window_wait_parked(&futex_lock_pi_unqueue_window,
					 PARK_WAIT_NS);
	if (!parked)
		race_window_disarm(&futex_lock_pi_unqueue_window);
	KTEST_EXPECT(t, parked, "W parks in futex_lock_pi_unqueue_window "
		     "within %lld s", PARK_WAIT_NS / NSEC_PER_SEC);
	KTEST_EXPECT(t, futex_word_read(&race_word) == w_tid,
		     "word %#x after the hand-over, want W's bare TID %#x",
		     futex_word_read(&race_word), w_tid);

	x = create_fifo(futex_late_locker_fn, NULL, 60, one_cpu(0),
			"futex-X");
	KTEST_ASSERT(t, x != NULL, "kthread_create failed");
	wake_up_process(x);
	if (parked) {
		KTEST_EXPECT(t, wait_futex_pi_blocked(x),
			     "X not seen blocked on F");
		word = futex_word_read(&race_word);
		KTEST_EXPECT(t, word == (w_tid | FUTEX_WAITERS),
			     "word %#x while X waits, want W's TID | WAITERS "
			     "%#x", word, w_tid | FUTEX_WAITERS);
		KTEST_EXPECT(t, READ_ONCE(w->prio) == x->normal_prio,
			     "W prio %d while X waits, want X's %d",
			     READ_ONCE(w->prio), x->normal_prio);
		race_window_release(&futex_lock_pi_unqueue_window);
	}
	wait_for_completion(&racer_done);
	wait_for_completion(&x_done);
	KTEST_EXPECT_EQ(t, racer_ret, 0);
	KTEST_EXPECT(t, w_unlock_path == 2 && racer_unlock_ret == 0,
		     "W's unlock took path %ld (want 2, the syscall: WAITERS "
		     "set) with %ld", w_unlock_path, racer_unlock_ret);
	KTEST_EXPECT(t, x_ret == 0 && x_seen == (u32)x->pid,
		     "X's LOCK_PI returned %ld and saw %#x, want 0 and its "
		     "TID %#x", x_ret, x_seen, (u32)x->pid);
	KTEST_EXPECT_EQ(t, futex_word_read(&race_word), 0);
	put_task_struct(x);
	put_task_struct(w);
	me_restore();
}

static u32 wait_word;
static long waiter_ret;

/* W: FUTEX_WAIT on wait_word (0) until racer_deadline. */
static int futex_timed_waiter_fn(void *data)
{
	(void)data;
	waiter_ret = futex_op(&wait_word, FUTEX_WAIT, 0, &racer_deadline);
	complete(&racer_done);
	return 0;
}

static void test_futex_wait_timeout_loses_to_a_wake(struct ktest *t)
{
	struct task_struct *w;
	long woken;
	bool parked;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: W spins in the window while M "
			      "wakes");
	init_completion(&racer_done);
	waiter_ret = 1;
	WRITE_ONCE(wait_word, 0);
	me_rt(0, 0);
	w = create_fifo(futex_timed_waiter_fn, NULL, 10, one_cpu(1),
			"futex-wait");
	KTEST_ASSERT(t, w != NULL, "kthread_create failed");
	racer_deadline = ktime_get() + NSEC_PER_MSEC;
	parked = race_window_run_until_parked(&futex_wait_timeout_window, w,
					      PARK_WAIT_NS);
	KTEST_EXPECT(t, parked, "W parks in futex_wait_timeout_window within "
		     "%lld s", PARK_WAIT_NS / NSEC_PER_SEC);
	woken = futex_op(&wait_word, FUTEX_WAKE, 1, NULL);
	if (parked)
		race_window_release(&futex_wait_timeout_window);
	wait_for_completion(&racer_done);
	KTEST_EXPECT(t, woken == 1, "FUTEX_WAKE returned %ld, want 1 (W still "
		     "queued)", woken);
	KTEST_EXPECT(t, waiter_ret == (woken == 1 ? 0 : -ETIMEDOUT),
		     "W's FUTEX_WAIT returned %ld after a wake counted %ld: "
		     "want 0 for a counted wake", waiter_ret, woken);
	put_task_struct(w);
	me_restore();
}

KTEST_SUITE(futex_races,
	    KTEST_CASE(test_futex_wait_timeout_loses_to_a_wake),
	    KTEST_CASE(
		test_futex_lock_pi_retries_when_the_owner_unlocks_in_user_space),
	    KTEST_CASE(test_futex_lock_pi_timeout_loses_to_a_hand_over),
	    KTEST_CASE(test_futex_lock_pi_after_a_hand_over_sets_waiters));
