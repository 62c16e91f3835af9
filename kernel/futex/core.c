/*
 * kernel/futex/core.c - the hash of futex queues: a futex's key, the
 * bucket it hashes to, and queueing a waiter there.
 *
 * Every task waiting on a futex has a futex_q on the chain of the bucket
 * its key hashes to; wakers find it there.  A chain is a plist sorted by
 * the waiter's normal prio, so FUTEX_WAKE wakes realtime waiters in
 * priority order and others first-come first-served (Linux since
 * 2.6.22).  The chain is not sorted by boosted prio: a boost is the PI
 * futex's business, and its rt_mutex orders those waiters itself.
 * Depends on kernel/futex/futex_uaccess.h for the key's address space.
 * Linux counterpart: kernel/futex/core.c (futex_hash, get_futex_key,
 * __futex_queue, __futex_unqueue, futex_top_waiter).  rtk leaves out the
 * per-process private hash and the waiter counts that let FUTEX_WAKE skip
 * an empty bucket without its lock.
 */
#include "kernel/futex/futex_internal.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/bug.h"

/* 256 buckets: Linux's minimum (16 per CPU, at least 256); rtk's tests and
 * programs have a few dozen futexes at most. */
#define FUTEX_HASH_BITS 8
#define FUTEX_HASH_SIZE (1u << FUTEX_HASH_BITS)

static struct futex_hash_bucket futex_queues[FUTEX_HASH_SIZE];

void futex_init(void)
{
	unsigned int i;

	for (i = 0; i < FUTEX_HASH_SIZE; i++) {
		raw_spin_lock_init(&futex_queues[i].lock);
		plist_head_init(&futex_queues[i].chain);
	}
}

int futex_get_key(u32 __user *uaddr, struct futex_key *key)
{
	if ((uintptr_t)uaddr % sizeof(u32))
		return -EINVAL;
	key->mm = futex_key_mm();
	key->address = (uintptr_t)uaddr;
	return 0;
}

/* futex_hash - a multiplicative hash (the 64-bit golden ratio, as Linux's
 * hash_64) of the address mixed with the address space. */
struct futex_hash_bucket *futex_hash(const struct futex_key *key)
{
	u64 v = (u64)key->address ^ ((u64)(uintptr_t)key->mm >> 4);

	v *= 0x61c8864680b583ebull;
	return &futex_queues[v >> (64 - FUTEX_HASH_BITS)];
}

void futex_q_init(struct futex_q *q, const struct futex_key *key)
{
	q->woken = false;
	q->task = current;
	q->key = *key;
	q->pi_state = NULL;
	q->bitset = FUTEX_BITSET_MATCH_ANY;
	q->rt_waiter = NULL;	/* FUTEX_WAIT_REQUEUE_PI sets it */
	q->requeue_state = Q_REQUEUE_PI_NONE;
	/* RT waiters by prio; every SCHED_OTHER one at MAX_RT_PRIO, so
	 * nice does not reorder them (Linux's rule) */
	plist_node_init(&q->list, current->normal_prio < MAX_RT_PRIO ?
					  current->normal_prio :
					  MAX_RT_PRIO);
}

void __futex_queue(struct futex_q *q, struct futex_hash_bucket *hb)
{
	raw_spin_assert_held(&hb->lock);
	plist_add(&q->list, &hb->chain);
}

void __futex_unqueue(struct futex_q *q, struct futex_hash_bucket *hb)
{
	raw_spin_assert_held(&hb->lock);
	BUG_ON(plist_node_empty(&q->list));
	plist_del(&q->list, &hb->chain);
}

struct futex_q *futex_top_waiter(struct futex_hash_bucket *hb,
				 const struct futex_key *key)
{
	struct futex_q *q;

	raw_spin_assert_held(&hb->lock);
	plist_for_each_entry(q, &hb->chain, list)
		if (futex_match(&q->key, key))
			return q;
	return NULL;
}
