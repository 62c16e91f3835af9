/*
 * kernel/workloads/torture_rcu.c - RCU torture (torture.h, kind rcu).
 *
 * One RCU-protected pointer, rt->cur, to an object stamped with a magic
 * and a generation in every payload word.  Writers replace it and free
 * the old one after a grace period, through call_rcu (one writer) or
 * synchronize_rcu (the other); the free poisons the object first, and
 * the slab may hand the memory out again at once.  Readers of mixed
 * priorities, moved between CPUs by the shuffler, hold the object for a
 * random time (preempted and migrated inside the section under rt,
 * where read sections are preemptible) and check it before and after:
 *
 *	magic == RT_OBJ_ALIVE and every word == generation
 *
 * A grace period that ends before a reader it must wait for shows as a
 * poisoned or reused object (errors), like rcutorture's "Reader Pipe"
 * overflow.  The statistics give the age of what readers saw: how many
 * replacements happened during their section (rcutorture's pipeline;
 * ages of 2 and more show readers spanning grace periods).  At the end,
 * every allocated object must have been freed (rcu_barrier first).
 * Linux counterpart: kernel/rcu/rcutorture.c (rcu_torture_writer,
 * rcu_torture_reader, the pipe count histogram; no fake writers,
 * barrier or stall tests here).
 */
#include "kernel/workloads/torture_internal.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

#define RT_OBJ_ALIVE 0x52435541u	/* "RCUA" */
#define RT_OBJ_DEAD 0x6b6b6b6bu		/* the slab poison byte 0x6b */
#define RT_OBJ_WORDS 8
#define RT_WRITERS 2			/* 0: call_rcu, 1: synchronize_rcu */
#define RT_READERS 4			/* two FIFO, two OTHER */
#define RT_READER_PRIO 20
#define RT_AGE_BUCKETS 10		/* 0..8 replacements, 9+ */
#define RT_HOLD_NS 20000		/* a read section: 0..20 us busy */
#define RT_LONG_HOLD_US 2000		/* 1 in 16 under rt: sleep in it */
#define RT_WRITER_GAP_US 1000

struct rt_obj {
	u32 magic;
	unsigned long gen;
	unsigned long word[RT_OBJ_WORDS];	/* all == gen */
	struct rcu_head rcu;
	struct rcu_torture *owner;
};

struct rcu_torture_thread {
	struct rcu_torture *rt;
	struct task_struct *task;
	int idx;
	struct torture_random rnd;
	unsigned long ops;		/* reads or replacements */
	unsigned long ages[RT_AGE_BUCKETS];
	unsigned long alloc_failed;
};

struct rcu_torture {
	struct torture_test *tt;
	struct rt_obj *cur;		/* RCU-protected; writers: xchg */
	unsigned long gen;		/* atomic: last generation given */
	unsigned long allocated, freed;	/* atomic */
	struct rcu_torture_thread th[RT_WRITERS + RT_READERS];
	int nthreads;
};

static struct rt_obj *rt_obj_new(struct rcu_torture *rt)
{
	struct rt_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);
	int i;

	if (!o)
		return NULL;
	o->gen = __atomic_add_fetch(&rt->gen, 1, __ATOMIC_RELAXED);
	for (i = 0; i < RT_OBJ_WORDS; i++)
		o->word[i] = o->gen;
	o->owner = rt;
	o->magic = RT_OBJ_ALIVE;
	__atomic_add_fetch(&rt->allocated, 1, __ATOMIC_RELAXED);
	return o;
}

/* rt_obj_free - poison, then free: a reader still holding it sees the
 * poison, or whatever the next kmalloc wrote there.  Context: task or
 * the RCU callback thread. */
static void rt_obj_free(struct rt_obj *o)
{
	struct rcu_torture *rt = o->owner;

	memset(o, 0x6b, offsetof(struct rt_obj, rcu));
	__atomic_add_fetch(&rt->freed, 1, __ATOMIC_RELAXED);
	kfree(o);
}

static void rt_obj_free_rcu(struct rcu_head *head)
{
	rt_obj_free(container_of(head, struct rt_obj, rcu));
}

/* rt_obj_check - the reader's test of what it holds.  Context: inside a
 * read section. */
static bool rt_obj_check(struct rcu_torture_thread *th, struct rt_obj *o,
			 unsigned long gen, const char *when)
{
	u32 magic = READ_ONCE(o->magic);
	int i;

	for (i = 0; i < RT_OBJ_WORDS; i++)
		if (READ_ONCE(o->word[i]) != gen)
			break;
	if (magic == RT_OBJ_ALIVE && i == RT_OBJ_WORDS &&
	    READ_ONCE(o->gen) == gen)
		return true;
	torture_error(th->rt->tt, "reader %s %s its section: object %p "
		      "gen %lu has magic %#x (%s), word %d = %#lx",
		      th->task->name, when, o, gen, magic,
		      magic == RT_OBJ_DEAD ? "freed" : "reused", i,
		      i < RT_OBJ_WORDS ? o->word[i] : 0);
	return false;
}

/*
 * reader_fn - [1] enter a read section, [2] take the current object and
 * check it, [3] hold it: busy, sometimes preempted or (rt) sleeping,
 * [4] check it again and record its age, [5] leave, [6] a gap.
 * Context: kthread, FIFO or OTHER.  Locking: RCU read side only.
 */
static int reader_fn(void *arg)
{
	struct rcu_torture_thread *th = arg;
	struct rcu_torture *rt = th->rt;
	bool fifo = current->policy == SCHED_FIFO;

	while (!torture_must_stop()) {
		struct rt_obj *o;
		unsigned long gen, age;
		u32 dice = torture_random(&th->rnd);

		rcu_read_lock();					/* [1] */
		o = rcu_dereference(rt->cur);				/* [2] */
		gen = READ_ONCE(o->gen);
		if (rt_obj_check(th, o, gen, "at the start of")) {
			torture_busy_ns(torture_random_below(&th->rnd,	/* [3] */
							     RT_HOLD_NS));
			if (PREEMPT_RCU && dice % 16 == 0)
				torture_sleep_us(torture_random_below(
					&th->rnd, RT_LONG_HOLD_US));
			rt_obj_check(th, o, gen, "at the end of");	/* [4] */
		}
		age = READ_ONCE(rt->gen) - gen;
		rcu_read_unlock();					/* [5] */
		th->ages[age < RT_AGE_BUCKETS ? age : RT_AGE_BUCKETS - 1]++;
		th->ops++;
		if (fifo || dice % 2)					/* [6] */
			torture_sleep_us(1 + dice % 200);
		else
			torture_sleep_us(0);
	}
	return 0;
}

/*
 * writer_fn - [1] a new object, [2] publish it, [3] retire the old one:
 * writer 0 through call_rcu, writer 1 through synchronize_rcu + free.
 * Context: kthread, SCHED_OTHER.  Locking: rt->cur changes by xchg, so
 * two writers never retire the same object.
 */
static int writer_fn(void *arg)
{
	struct rcu_torture_thread *th = arg;
	struct rcu_torture *rt = th->rt;

	while (!torture_must_stop()) {
		struct rt_obj *o = rt_obj_new(rt), *old;		/* [1] */

		if (!o) {
			th->alloc_failed++;
			torture_sleep_us(RT_WRITER_GAP_US);
			continue;
		}
		old = __atomic_exchange_n(&rt->cur, o, __ATOMIC_ACQ_REL);	/* [2] */
		if (th->idx == 0) {					/* [3] */
			call_rcu(&old->rcu, rt_obj_free_rcu);
		} else {
			synchronize_rcu();
			rt_obj_free(old);
		}
		th->ops++;
		torture_sleep_us(torture_random_below(&th->rnd,
						      RT_WRITER_GAP_US));
	}
	return 0;
}

static int rcu_torture_init(struct torture_test *tt)
{
	struct rcu_torture *rt = kzalloc(sizeof(*rt), GFP_KERNEL);
	int i, ret;

	if (!rt)
		return -ENOMEM;
	tt->priv = rt;
	rt->tt = tt;
	rt->cur = rt_obj_new(rt);
	if (!rt->cur)
		return -ENOMEM;
	for (i = 0; i < RT_WRITERS + RT_READERS; i++) {
		struct rcu_torture_thread *th = &rt->th[i];
		bool writer = i < RT_WRITERS;
		bool fifo = !writer && i % 2 == 0;

		th->rt = rt;
		th->idx = i;
		torture_random_init(&th->rnd, tt, i);
		ret = torture_kthread(tt, writer ? writer_fn : reader_fn, th,
				      fifo ? SCHED_FIFO : SCHED_OTHER,
				      fifo ? RT_READER_PRIO : 0, true,
				      &th->task, "trcu%c/%d",
				      writer ? 'w' : 'r', i);
		if (ret)
			return ret;
		rt->nthreads++;
	}
	return 0;
}

/* rcu_torture_cleanup - the threads are stopped: retire the last object,
 * wait for every callback (rcu_barrier), check nothing leaked. */
static void rcu_torture_cleanup(struct torture_test *tt)
{
	struct rcu_torture *rt = tt->priv;

	if (!rt)
		return;
	if (rt->cur) {
		synchronize_rcu();
		rt_obj_free(rt->cur);
	}
	rcu_barrier();
	if (rt->allocated != rt->freed)
		torture_error(tt, "%lu objects allocated, %lu freed",
			      rt->allocated, rt->freed);
	kfree(rt);
	tt->priv = NULL;
}

static unsigned long rcu_torture_stats(struct torture_test *tt, char *buf,
				       size_t len)
{
	struct rcu_torture *rt = tt->priv;
	unsigned long reads = 0, writes = 0, failed = 0;
	unsigned long ages[RT_AGE_BUCKETS] = { 0 };
	int i, k, n;

	if (!rt)
		return 0;
	for (i = 0; i < rt->nthreads; i++) {
		const struct rcu_torture_thread *th = &rt->th[i];

		if (i < RT_WRITERS)
			writes += READ_ONCE(th->ops);
		else
			reads += READ_ONCE(th->ops);
		failed += READ_ONCE(th->alloc_failed);
		for (k = 0; k < RT_AGE_BUCKETS; k++)
			ages[k] += READ_ONCE(th->ages[k]);
	}
	n = scnprintf(buf, len, "writes %lu reads %lu alloc-failed %lu "
		      "in-flight %lu ages:", writes, reads, failed,
		      READ_ONCE(rt->allocated) - READ_ONCE(rt->freed));
	for (k = 0; k < RT_AGE_BUCKETS; k++)
		n += scnprintf(buf + n, len - n, " %lu", ages[k]);
	return writes + reads;
}

const struct torture_ops rcu_torture_ops = {
	.init = rcu_torture_init,
	.cleanup = rcu_torture_cleanup,
	.stats = rcu_torture_stats,
};
