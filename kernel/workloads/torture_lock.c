/*
 * kernel/workloads/torture_lock.c - lock torture (torture.h, kinds lock:*):
 * writer and reader threads of one lock type at mixed SCHED_FIFO and
 * SCHED_OTHER priorities take the lock with random hold and gap times,
 * through every acquisition the type has (plain, irqsave, trylock,
 * timed, interruptible), while the framework's shuffler moves them
 * between CPUs and a checker thread signals the interruptible waiters.
 *
 * Invariants, checked at every acquisition:
 *	mutual exclusion	a writer finds no other writer and no reader
 *				in the slot's holder counts
 *	one reader under rt	rwlock_t and rw_semaphore readers are
 *				exclusive too (kernel/locking/rt_rw.h: one
 *				recursive reader at a time)
 *	consistency		seqlock readers never see a torn pair,
 *				per-CPU data is never half updated
 * and sampled by the checker (torture_lock_check.c): priority
 * inheritance and lost wake-ups.
 *
 * A "slot" is what one lock protects: slot 0 for every type but
 * percpu_locked, whose slot n is CPU n's copy and lock.
 * Linux counterpart: kernel/locking/locktorture.c (lock_torture_ops per
 * type, lock_torture_writer/reader, the statistics line).
 */
#include "kernel/workloads/torture_lock.h"
#include "kernel/locking/seqlock.h"
#include "kernel/percpu_locked.h"
#include "kernel/mm/slab.h"
#include "kernel/signal.h"
#include "kernel/time/ktime.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/vsnprintf.h"
#include "lib/bug.h"

#define LT_WRITER_PRIO_MAX 40	/* FIFO 1..40: below irq threads (50) */
#define LT_SHORT_HOLD_NS 5000	/* the usual hold: 0..5 us */
#define LT_LONG_HOLD_NS 400000	/* 1 in 64: up to 400 us */
#define LT_SLEEP_HOLD_US 1000	/* sleeping types, 1 in 16: up to 1 ms */
#define LT_GAP_US 500		/* between acquisitions: 0..500 us */
#define LT_FIFO_GAP_US 1000	/* FIFO threads: 1..2 ms, so that they use
				 * a fraction of a CPU even under TCG */
#define LT_TIMEOUT_NS 2000000	/* timed attempts: 0..2 ms */

struct pcpu_pair {
	unsigned long a, b;	/* a == b outside a writer's section */
};
static DEFINE_PER_CPU_LOCKED(struct pcpu_pair, torture_pcpu);

static const char *const type_names[NR_TORTURE_LOCK_TYPES] = {
	"spinlock", "raw_spinlock", "rwlock", "rt_mutex",
	"semaphore", "rwsem", "seqlock", "percpu_locked",
};

/* lt_lock - [1] of lt_thread_fn: take the slot's lock as writer or
 * reader through a randomly chosen acquisition.  0, or -ETIMEDOUT /
 * -EINTR / -EBUSY when a timed, interruptible or try attempt failed. */
static int lt_lock(struct lt_thread *th, struct lt_slot *slot)
{
	struct lock_torture *lt = th->lt;
	u32 how = torture_random_below(&th->rnd, 8);
	int ret = 0;

	switch (lt->type) {
	case TORTURE_SPINLOCK:
		if (how == 0 && !spin_trylock(&lt->spin))
			return -EBUSY;
		if (how == 1)
			spin_lock_irqsave(&lt->spin, th->flags);
		else if (how != 0)
			spin_lock(&lt->spin);
		th->irqsave = how == 1;
		break;
	case TORTURE_RAW_SPINLOCK:
		if (how == 0 && !raw_spin_trylock(&lt->raw))
			return -EBUSY;
		if (how == 1)
			raw_spin_lock_irqsave(&lt->raw, th->flags);
		else if (how != 0)
			raw_spin_lock(&lt->raw);
		th->irqsave = how == 1;
		break;
	case TORTURE_RWLOCK:
		if (th->writer)
			write_lock(&lt->rw);
		else
			read_lock(&lt->rw);
		break;
	case TORTURE_RT_MUTEX:
		if (how == 0 && !rt_mutex_trylock(&lt->rtm))
			return -EBUSY;
		WRITE_ONCE(th->interruptible, how == 1 || how == 2);
		if (how == 1)
			ret = rt_mutex_lock_interruptible(&lt->rtm);
		else if (how == 2)
			ret = rt_mutex_timed_lock(
				&lt->rtm,
				torture_random_below(&th->rnd, LT_TIMEOUT_NS));
		else if (how != 0)
			rt_mutex_lock(&lt->rtm);
		break;
	case TORTURE_SEMAPHORE:
		if (how == 0 && down_trylock(&lt->sem))
			return -EBUSY;
		WRITE_ONCE(th->interruptible, how == 1);
		if (how == 1)
			ret = down_interruptible(&lt->sem);
		else if (how != 0)
			down(&lt->sem);
		break;
	case TORTURE_RWSEM:
		if (how == 0 && !(th->writer ? down_write_trylock(&lt->rwsem) :
				   down_read_trylock(&lt->rwsem)))
			return -EBUSY;
		if (how != 0 && th->writer)
			down_write(&lt->rwsem);
		else if (how != 0)
			down_read(&lt->rwsem);
		break;
	case TORTURE_SEQLOCK:
		write_seqlock(&lt->seq);
		break;
	case TORTURE_PERCPU_LOCKED:
		th->pcpu = &get_per_cpu_locked(torture_pcpu, th->slot_idx);
		break;
	}
	WRITE_ONCE(th->interruptible, false);
	return ret;
}

/* lt_unlock - the release matching lt_lock. */
static void lt_unlock(struct lt_thread *th)
{
	struct lock_torture *lt = th->lt;

	switch (lt->type) {
	case TORTURE_SPINLOCK:
		if (th->irqsave)
			spin_unlock_irqrestore(&lt->spin, th->flags);
		else
			spin_unlock(&lt->spin);
		break;
	case TORTURE_RAW_SPINLOCK:
		if (th->irqsave)
			raw_spin_unlock_irqrestore(&lt->raw, th->flags);
		else
			raw_spin_unlock(&lt->raw);
		break;
	case TORTURE_RWLOCK:
		if (th->writer)
			write_unlock(&lt->rw);
		else
			read_unlock(&lt->rw);
		break;
	case TORTURE_RT_MUTEX:
		rt_mutex_unlock(&lt->rtm);
		break;
	case TORTURE_SEMAPHORE:
		up(&lt->sem);
		break;
	case TORTURE_RWSEM:
		if (th->writer)
			up_write(&lt->rwsem);
		else
			up_read(&lt->rwsem);
		break;
	case TORTURE_SEQLOCK:
		write_sequnlock(&lt->seq);
		break;
	case TORTURE_PERCPU_LOCKED:
		put_per_cpu_locked(torture_pcpu, th->slot_idx);
		break;
	}
}

/* lt_enter - [2]: count ourselves in and check the holder counts. */
static void lt_enter(struct lt_thread *th, struct lt_slot *slot)
{
	struct lock_torture *lt = th->lt;
	int w, r;

	if (th->writer) {
		w = __atomic_add_fetch(&slot->writers, 1, __ATOMIC_ACQ_REL);
		r = __atomic_load_n(&slot->readers, __ATOMIC_ACQUIRE);
		if (w != 1 || r != 0)
			torture_error(lt->tt, "mutual exclusion: writer %s "
				      "holds slot %d with %d writers, %d "
				      "readers", th->task->name, th->slot_idx,
				      w, r);
	} else {
		r = __atomic_add_fetch(&slot->readers, 1, __ATOMIC_ACQ_REL);
		w = __atomic_load_n(&slot->writers, __ATOMIC_ACQUIRE);
		if (w != 0)
			torture_error(lt->tt, "mutual exclusion: reader %s "
				      "with %d writers", th->task->name, w);
		if (lt->single_reader && r != 1)
			torture_error(lt->tt, "one reader under rt: %s is "
				      "reader %d", th->task->name, r);
		if (r > lt->max_readers)
			lt->max_readers = r;	/* racy max, statistics */
	}
	if (th->writer || lt->single_reader) {
		WRITE_ONCE(slot->owner, th);
		WRITE_ONCE(slot->hold_seq, slot->hold_seq + 1);
	}
}

/* lt_leave - [4]: the reverse of lt_enter, before the release.  The
 * thread stays counted in slot->releasing until the unlock call has
 * returned ([5] of lt_thread_fn): until then the lock is still held, and a
 * releaser preempted or starved here must not make the checker take the
 * lock for free. */
static void lt_leave(struct lt_thread *th, struct lt_slot *slot)
{
	__atomic_add_fetch(&slot->releasing, 1, __ATOMIC_ACQ_REL);
	if (th->writer || th->lt->single_reader) {
		WRITE_ONCE(slot->last_owner, th);
		WRITE_ONCE(slot->owner, NULL);
	}
	if (th->writer)
		__atomic_sub_fetch(&slot->writers, 1, __ATOMIC_ACQ_REL);
	else
		__atomic_sub_fetch(&slot->readers, 1, __ATOMIC_ACQ_REL);
}

/* lt_hold - [3]: the critical section: random busy time, sometimes a
 * long one, sometimes a sleep for the types whose holders may sleep;
 * the data checks of seqlock and percpu_locked; a recursive read under
 * rt. */
static void lt_hold(struct lt_thread *th)
{
	struct lock_torture *lt = th->lt;
	u32 dice = torture_random(&th->rnd);
	u64 ns = torture_random_below(&th->rnd, LT_SHORT_HOLD_NS);
	ktime_t t0 = ktime_get();

	if (dice % 64 == 0)
		ns = torture_random_below(&th->rnd, LT_LONG_HOLD_NS);
	if (lt->type == TORTURE_SEQLOCK)
		WRITE_ONCE(lt->seq_data[0], lt->seq_data[0] + 1);
	if (lt->type == TORTURE_PERCPU_LOCKED) {
		if (th->pcpu->a != th->pcpu->b)
			torture_error(lt->tt, "per-CPU data of CPU %d half "
				      "updated: %lu/%lu", th->slot_idx,
				      th->pcpu->a, th->pcpu->b);
		th->pcpu->a++;
	}
	torture_busy_ns(ns);
	if (lt->sleeping_holders && dice % 16 == 1)
		torture_sleep_us(torture_random_below(&th->rnd,
						      LT_SLEEP_HOLD_US));
	if (lt->single_reader && !th->writer && dice % 4 == 2) {
		/* recursion: the one reader may read-lock again */
		if (lt->type == TORTURE_RWLOCK) {
			read_lock(&lt->rw);
			read_unlock(&lt->rw);
		} else {
			down_read(&lt->rwsem);
			up_read(&lt->rwsem);
		}
	}
	if (lt->type == TORTURE_SEQLOCK)
		WRITE_ONCE(lt->seq_data[1], lt->seq_data[0]);
	if (lt->type == TORTURE_PERCPU_LOCKED)
		th->pcpu->b = th->pcpu->a;
	ns = ktime_get() - t0;
	if (ns > th->max_hold_ns)
		th->max_hold_ns = ns;
}

/* seq_read - a seqlock reader's pass: the pair must never be torn. */
static void seq_read(struct lt_thread *th)
{
	struct lock_torture *lt = th->lt;
	unsigned long a, b;
	unsigned int s;
	bool retry;

	do {
		s = read_seqbegin(&lt->seq);
		a = READ_ONCE(lt->seq_data[0]);
		torture_busy_ns(torture_random_below(&th->rnd,
						     LT_SHORT_HOLD_NS));
		b = READ_ONCE(lt->seq_data[1]);
		retry = read_seqretry(&lt->seq, s);
	} while (retry && !torture_must_stop());
	if (a != b && !retry)
		torture_error(lt->tt, "seqlock reader %s saw a torn pair "
			      "%lu/%lu at sequence %u", th->task->name, a, b, s);
	th->acquires++;
}

/*
 * lt_thread_fn - a writer or reader: [1] take the lock (the checker
 * sees it waiting meanwhile), [2] check in, [3] hold, [4] check out,
 * [5] release, [6] a random gap (always a sleep for FIFO threads, so
 * SCHED_OTHER work and the shell keep running).
 * Context: kthread, SCHED_FIFO or SCHED_OTHER.  Locking: the lock under
 * test, one at a time.
 */
static int lt_thread_fn(void *arg)
{
	struct lt_thread *th = arg;
	struct lock_torture *lt = th->lt;
	int ret;

	while (!torture_must_stop()) {
		struct lt_slot *slot;

		if (lt->type == TORTURE_SEQLOCK && !th->writer) {
			seq_read(th);
			goto gap;
		}
		th->slot_idx = lt->type == TORTURE_PERCPU_LOCKED ?
			nth_online_cpu(torture_random(&th->rnd)) : 0;
		slot = &lt->slots[th->slot_idx];
		WRITE_ONCE(th->wait_start, ktime_get());
		WRITE_ONCE(th->wait_seq, th->wait_seq + 1);
		WRITE_ONCE(th->wait_slot, slot);
		ret = lt_lock(th, slot);				/* [1] */
		flush_signals(current);
		if (ret) {
			WRITE_ONCE(th->wait_slot, NULL);
			th->failed[ret == -ETIMEDOUT ? LT_TIMEDOUT :
				   ret == -EINTR ? LT_INTERRUPTED : LT_BUSY]++;
			goto gap;
		}
		lt_enter(th, slot);					/* [2] */
		/* only now: the checker must not take a holder that has
		 * not counted itself in yet for a free lock */
		WRITE_ONCE(th->wait_slot, NULL);
		lt_hold(th);						/* [3] */
		lt_leave(th, slot);					/* [4] */
		lt_unlock(th);						/* [5] */
		__atomic_sub_fetch(&slot->releasing, 1, __ATOMIC_ACQ_REL);
		th->acquires++;
gap:
		if (th->policy == SCHED_FIFO)				/* [6] */
			torture_sleep_us(LT_FIFO_GAP_US +
					 torture_random_below(&th->rnd,
							      LT_FIFO_GAP_US));
		else if (torture_random_below(&th->rnd, 2))
			torture_sleep_us(1 + torture_random_below(&th->rnd,
								 LT_GAP_US));
		else
			torture_sleep_us(0);
	}
	return 0;
}

static void lt_init_lock(struct lock_torture *lt)
{
	spin_lock_init(&lt->spin);
	raw_spin_lock_init(&lt->raw);
	rwlock_init(&lt->rw);
	rt_mutex_init(&lt->rtm);
	sema_init(&lt->sem, 1);
	init_rwsem(&lt->rwsem);
	seqlock_init(&lt->seq);
	lt->pi = lt->type == TORTURE_RT_MUTEX ||
		 (lt->type == TORTURE_SEMAPHORE && SEMAPHORE_PI) ||
		 (lt->type == TORTURE_RWSEM && SEMAPHORE_PI) ||
		 (lt->type == TORTURE_RWLOCK && RWLOCK_SLEEPS) ||
		 (lt->type != TORTURE_RAW_SPINLOCK && SPINLOCK_SLEEPS);
	lt->single_reader = (lt->type == TORTURE_RWLOCK && RWLOCK_SLEEPS) ||
			    (lt->type == TORTURE_RWSEM && SEMAPHORE_PI);
	lt->sleeping_holders = lt->type == TORTURE_RT_MUTEX ||
			       lt->type == TORTURE_SEMAPHORE ||
			       lt->type == TORTURE_RWSEM;
}

/*
 * lock_torture_init - the lock, then LT_WRITERS writers (and LT_READERS
 * readers for the types that have them): even ones SCHED_FIFO at a
 * random 1..LT_WRITER_PRIO_MAX, odd ones SCHED_OTHER; then the checker.
 * Context: task, sleeps.
 */
static int lock_torture_init(struct torture_test *tt)
{
	bool readers = tt->type == TORTURE_RWLOCK || tt->type == TORTURE_RWSEM ||
		       tt->type == TORTURE_SEQLOCK;
	/* fewer threads per type when several types run at once */
	int scale = torture_nr_tests() > 1 ? 2 : 1;
	int nw = LT_WRITERS / scale, nr = readers ? LT_READERS / scale : 0;
	int i, n = nw + nr, ret;
	struct torture_random rnd;
	struct lock_torture *lt;

	if (tt->type == TORTURE_PERCPU_LOCKED && !percpu_locked_is_ready())
		return -EAGAIN;
	lt = kzalloc(sizeof(*lt) + n * sizeof(lt->th[0]), GFP_KERNEL);
	if (!lt)
		return -ENOMEM;
	tt->priv = lt;
	lt->tt = tt;
	lt->type = tt->type;
	lt_init_lock(lt);
	torture_random_init(&rnd, tt, 0);
	for (i = 0; i < n; i++) {
		struct lt_thread *th = &lt->th[i];

		th->lt = lt;
		th->writer = i < nw;
		th->policy = i % 2 ? SCHED_OTHER : SCHED_FIFO;
		th->rt_prio = th->policy == SCHED_FIFO ?
			1 + torture_random_below(&rnd, LT_WRITER_PRIO_MAX) : 0;
		torture_random_init(&th->rnd, tt, i + 1);
		ret = torture_kthread(tt, lt_thread_fn, th, th->policy,
				      th->rt_prio, true, &th->task, "%c%.5s/%d",
				      th->writer ? 'w' : 'r',
				      type_names[lt->type], i);
		if (ret)
			return ret;
		lt->nthreads++;
	}
	return lock_torture_start_checker(lt);
}

/* lock_torture_cleanup - every thread has stopped: nobody may hold the
 * lock any more; free.  Context: task. */
static void lock_torture_cleanup(struct torture_test *tt)
{
	struct lock_torture *lt = tt->priv;
	int i;

	if (!lt)
		return;
	for (i = 0; i < NR_CPUS; i++)
		if (lt->slots[i].writers || lt->slots[i].readers)
			torture_error(tt, "slot %d still held at the end: %d "
				      "writers %d readers", i,
				      lt->slots[i].writers,
				      lt->slots[i].readers);
	kfree(lt);
	tt->priv = NULL;
}

/* lock_torture_stats - locktorture's line: writes, reads, failed
 * attempts, max hold, checker findings. */
static unsigned long lock_torture_stats(struct torture_test *tt, char *buf,
					size_t len)
{
	struct lock_torture *lt = tt->priv;
	unsigned long w = 0, r = 0, fail[NR_LT_FAILS] = { 0 };
	u64 max_hold = 0;
	int i, k;

	if (!lt)
		return 0;
	for (i = 0; i < lt->nthreads; i++) {
		const struct lt_thread *th = &lt->th[i];

		if (th->writer)
			w += READ_ONCE(th->acquires);
		else
			r += READ_ONCE(th->acquires);
		for (k = 0; k < NR_LT_FAILS; k++)
			fail[k] += READ_ONCE(th->failed[k]);
		if (READ_ONCE(th->max_hold_ns) > max_hold)
			max_hold = th->max_hold_ns;
	}
	scnprintf(buf, len, "writes %lu reads %lu busy %lu timedout %lu "
		  "eintr %lu max-hold %llu us max-readers %d pi-viol %lu "
		  "lost-wake %lu", w, r, fail[LT_BUSY], fail[LT_TIMEDOUT],
		  fail[LT_INTERRUPTED], (unsigned long long)max_hold / 1000,
		  lt->max_readers, lt->pi_violations, lt->lost_wakeups);
	return w + r;
}

const struct torture_ops lock_torture_ops = {
	.init = lock_torture_init,
	.cleanup = lock_torture_cleanup,
	.stats = lock_torture_stats,
};
