/*
 * tests/kernel/test_rwlock.c - the rwlock suite: rwlock_t/raw_rwlock_t
 * (kernel/locking/rwlock.h) and seqlock_t/raw_seqlock_t
 * (kernel/locking/seqlock.h) under the preemption model.
 *
 * Under rt only one task may read-hold a rwlock_t (recursively), its
 * readers and writers get PI and _irqsave leaves IF set; elsewhere it is
 * the classic many-readers spinning lock.  Seqlock readers retry across
 * a write.  RW_LOCK_UNLOCKED(name) and SEQLOCK_UNLOCKED(name) take the
 * lock itself, so they work inside a static initializer of a bigger
 * struct and name the lock: the article's INIT_FS(name), whose real user
 * is kernel/fs/fs_struct.c's init_fs.
 */
#include "tests/kernel/lock_probe.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/locking/rwlock.h"
#include "kernel/locking/seqlock.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/version.h"
#include "lib/string.h"

static DEFINE_RWLOCK(probe_rw);
static DEFINE_RAW_RWLOCK(probe_raw_rw);

static int try_read_rw(void *arg)
{
	if (!read_trylock(&probe_rw))
		return 0;
	read_unlock(&probe_rw);
	return 1;
}

static int try_write_rw(void *arg)
{
	if (!write_trylock(&probe_rw))
		return 0;
	write_unlock(&probe_rw);
	return 1;
}

/* probe_while_held - run fn in another task while the caller holds
 * probe_rw as it did; under non-rt the holder spins, so the probe needs
 * another CPU (-1: skipped). */
static int probe_while_held(struct ktest *t, int (*fn)(void *),
			    bool write)
{
	int cpu = RWLOCK_SLEEPS ? -1 : probe_other_cpu();
	struct probe p;
	int r;

	if (!RWLOCK_SLEEPS && cpu < 0)
		return -1;
	probe_start(t, &p, fn, NULL, cpu, 0);
	if (write)
		write_lock(&probe_rw);
	else
		read_lock(&probe_rw);
	wake_up_process(p.task);
	r = probe_wait(&p);
	if (write)
		write_unlock(&probe_rw);
	else
		read_unlock(&probe_rw);
	probe_end(&p);
	return r;
}

/* Read recursion works under every model; a second reader gets in only
 * outside rt (the single-reader rule); a writer never does. */
static void test_read_recursion_and_single_reader_rule(struct ktest *t)
{
	int r;

	read_lock(&probe_rw);
	read_lock(&probe_rw);
	KTEST_EXPECT(t, read_trylock(&probe_rw), "recursive read_trylock");
	read_unlock(&probe_rw);
	read_unlock(&probe_rw);
	read_unlock(&probe_rw);

	r = probe_while_held(t, try_read_rw, false);
	if (r < 0)
		ktest_skip(t, "a second reader needs a second CPU here");
	KTEST_EXPECT(t, r == !RWLOCK_SLEEPS, "PREEMPT_%s: second reader got "
		     "in: %d, want %d", RTK_PREEMPT_NAME, r, !RWLOCK_SLEEPS);
	KTEST_EXPECT_EQ(t, probe_while_held(t, try_write_rw, false), 0);
	KTEST_EXPECT_EQ(t, probe_while_held(t, try_read_rw, true), 0);
	KTEST_EXPECT_EQ(t, probe_while_held(t, try_write_rw, true), 0);
	KTEST_EXPECT(t, write_trylock(&probe_rw), "free lock: write_trylock");
	write_unlock(&probe_rw);
}

/* write_lock_irqsave: IF stays set on rwlock_t under rt only; the raw
 * rwlock really disables it under every model. */
static void test_irqsave_per_type_and_model(struct ktest *t)
{
	unsigned long f;
	bool off;

	write_lock_irqsave(&probe_rw, f);
	off = raw_irqs_disabled();
	write_unlock_irqrestore(&probe_rw, f);
	KTEST_EXPECT_EQ(t, off, !RWLOCK_SLEEPS);
	read_lock_irqsave(&probe_rw, f);
	off = raw_irqs_disabled();
	read_unlock_irqrestore(&probe_rw, f);
	KTEST_EXPECT_EQ(t, off, !RWLOCK_SLEEPS);
	write_lock_irqsave(&probe_raw_rw, f);
	off = raw_irqs_disabled();
	write_unlock_irqrestore(&probe_raw_rw, f);
	KTEST_EXPECT(t, off, "raw write_lock_irqsave left IF set");
	read_lock_irq(&probe_raw_rw);
	off = raw_irqs_disabled();
	read_unlock_irq(&probe_raw_rw);
	KTEST_EXPECT(t, off, "raw read_lock_irq left IF set");
	KTEST_EXPECT(t, !raw_irqs_disabled(), "IF not restored");
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
}

/* PI under rt: a SCHED_OTHER reader is boosted by a FIFO 20 writer
 * blocked behind it, and drops back when it read-unlocks. */
static int write_once_rw(void *arg)
{
	write_lock(&probe_rw);
	write_unlock(&probe_rw);
	return 1;
}

static int reader_prio_after;

static int hold_read_rw(void *arg)
{
	struct completion *release = arg;
	int inside;

	read_lock(&probe_rw);
	read_lock(&probe_rw);		/* recursion keeps the boost */
	wait_for_completion(release);
	read_unlock(&probe_rw);		/* still read-held once */
	inside = READ_ONCE(current->prio);
	read_unlock(&probe_rw);
	reader_prio_after = READ_ONCE(current->prio);
	return inside;
}

static void test_reader_gets_pi_from_writer(struct ktest *t)
{
	struct completion release;
	struct probe rd, wr;

	if (!RWLOCK_SLEEPS)
		ktest_skip(t, "rwlock_t spins outside rt (no PI)");
	init_completion(&release);
	probe_start(t, &rd, hold_read_rw, &release, -1, 0);
	wake_up_process(rd.task);
	KTEST_ASSERT(t, probe_blocked(&rd), "reader never waited for release");
	probe_start(t, &wr, write_once_rw, NULL, -1, 20);
	wake_up_process(wr.task);
	KTEST_EXPECT(t, probe_blocked(&wr) && wr.task->pi_blocked_on,
		     "writer not seen blocked on the rwlock");
	KTEST_EXPECT_EQ(t, READ_ONCE(rd.task->prio), PROBE_FIFO(20));
	complete(&release);
	KTEST_EXPECT_EQ(t, probe_end(&rd), PROBE_FIFO(20));
	KTEST_EXPECT_EQ(t, reader_prio_after, DEFAULT_PRIO);
	KTEST_EXPECT_EQ(t, probe_end(&wr), 1);
}

/* seqlock: a write between begin and retry forces a retry; readers in
 * a loop against a writer thread never accept a torn pair. */
struct seq_pair {
	seqlock_t sl;
	raw_seqlock_t rsl;
	unsigned long a, b, ra, rb;
	bool stop;
};

static int seq_writer(void *arg)
{
	struct seq_pair *s = arg;

	for (int i = 0; i < 3000 && !READ_ONCE(s->stop); i++) {
		write_seqlock(&s->sl);
		WRITE_ONCE(s->a, s->a + 1);
		cpu_relax();
		WRITE_ONCE(s->b, s->b + 1);
		write_sequnlock(&s->sl);
		write_seqlock(&s->rsl);
		WRITE_ONCE(s->ra, s->ra + 1);
		cpu_relax();
		WRITE_ONCE(s->rb, s->rb + 1);
		write_sequnlock(&s->rsl);
		if ((i & 31) == 0)
			schedule();
	}
	return 0;
}

static void test_seqlock_readers_retry(struct ktest *t)
{
	static struct seq_pair s;
	unsigned int start;
	unsigned long a, b, torn = 0, reads = 0;
	struct probe w;

	seqlock_init(&s.sl);
	s.rsl = (raw_seqlock_t)RAW_SEQLOCK_UNLOCKED(s.rsl);
	s.a = s.b = s.ra = s.rb = 0;
	s.stop = false;
	start = read_seqbegin(&s.sl);
	write_seqlock(&s.sl);
	write_sequnlock(&s.sl);
	KTEST_EXPECT(t, read_seqretry(&s.sl, start), "no retry after a write");
	start = read_seqbegin(&s.sl);
	KTEST_EXPECT(t, !read_seqretry(&s.sl, start), "retry without a write");
	start = read_seqbegin(&s.rsl);
	write_seqlock(&s.rsl);
	write_sequnlock(&s.rsl);
	KTEST_EXPECT(t, read_seqretry(&s.rsl, start), "raw: no retry");

	probe_start(t, &w, seq_writer, &s, -1, 0);
	wake_up_process(w.task);
	while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE) && reads < 200000) {
		do {
			start = read_seqbegin(&s.sl);
			a = READ_ONCE(s.a);
			b = READ_ONCE(s.b);
		} while (read_seqretry(&s.sl, start));
		torn += a != b;
		do {
			start = read_seqbegin(&s.rsl);
			a = READ_ONCE(s.ra);
			b = READ_ONCE(s.rb);
		} while (read_seqretry(&s.rsl, start));
		torn += a != b;
		if ((++reads & 255) == 0)
			schedule();
	}
	WRITE_ONCE(s.stop, true);
	probe_end(&w);
	KTEST_EXPECT_EQ(t, torn, 0);
	KTEST_EXPECT_EQ(t, s.a, s.b);
}

/* INIT_FS(name) (kernel/fs/fs_struct.h): a static fs_struct whose
 * initializer names its rwlock_t, as the kernel's init_fs; and a seqlock
 * named the same way inside a bigger static object. */
static struct fs_struct fs_obj = INIT_FS(fs_obj);
static struct {
	seqlock_t seq;
} seq_obj = { .seq = SEQLOCK_UNLOCKED(seq_obj.seq) };
static DECLARE_SEQLOCK(decl_seq);

static const char *rwlock_name(rwlock_t *l)
{
#if RWLOCK_SLEEPS
	return l->rw.lock.name;
#else
	return l->raw.name;
#endif
}

static void test_lock_initializers_take_the_lock_and_name_it(struct ktest *t)
{
	unsigned int seq;

	KTEST_EXPECT(t, strstr(rwlock_name(&fs_obj.lock), "fs_obj.lock") != NULL,
		     "RW_LOCK_UNLOCKED(fs_obj.lock) named \"%s\"",
		     rwlock_name(&fs_obj.lock));
	KTEST_EXPECT(t, strstr(rwlock_name(&init_fs.lock), "init_fs.lock"),
		     "INIT_FS(init_fs) named \"%s\"", rwlock_name(&init_fs.lock));
	KTEST_EXPECT(t, strstr(rwlock_name(&probe_rw), "probe_rw") != NULL,
		     "DEFINE_RWLOCK(probe_rw) named \"%s\"",
		     rwlock_name(&probe_rw));
	/* both are ready to use as initialised */
	write_lock(&fs_obj.lock);
	fs_obj.users++;
	write_unlock(&fs_obj.lock);
	read_lock(&fs_obj.lock);
	KTEST_EXPECT_EQ(t, fs_obj.users, 2);
	read_unlock(&fs_obj.lock);
	seq = read_seqbegin(&seq_obj.seq);
	KTEST_EXPECT(t, !read_seqretry(&seq_obj.seq, seq), "retry on a quiet seqlock");
	write_seqlock(&decl_seq);
	KTEST_EXPECT(t, spin_is_locked(&decl_seq.lock),
		     "DECLARE_SEQLOCK's lock not taken by write_seqlock");
	write_sequnlock(&decl_seq);
	KTEST_EXPECT_EQ(t, decl_seq.sequence, 2);
}

KTEST_SUITE(rwlock,
	    KTEST_CASE(test_read_recursion_and_single_reader_rule),
	    KTEST_CASE(test_irqsave_per_type_and_model),
	    KTEST_CASE(test_reader_gets_pi_from_writer),
	    KTEST_CASE(test_seqlock_readers_retry),
	    KTEST_CASE(test_lock_initializers_take_the_lock_and_name_it));
