/*
 * kernel/mm/slab_cpu.c - the slab allocator's per-CPU object arrays, on
 * DEFINE_PER_CPU_LOCKED (article, "Latency-reduction measures": "per-CPU
 * variables applied to the slab allocator, as an alternative to the
 * previous wanton disabling of interrupts"; "Per-CPU Variables").
 *
 * Every CPU has one struct slab_cpu: an array_cache per cache slot (each
 * kmem_cache takes a slot at creation, SLAB_CPU_SLOTS of them) and its
 * counters, all guarded by that CPU's slab_cpu lock, a spinlock_t.  The
 * kmalloc fast path:
 *
 *	[1] cpu = raw_smp_processor_id(), read once; take cpu's lock
 *	    (get_per_cpu_locked).  Under rt that lock sleeps: the task stays
 *	    preemptible with interrupts on, and may even migrate; it still
 *	    works on cpu's array, which the lock, not the CPU, protects.
 *	    Under the other models spinlock_t is raw: preemption is off for
 *	    the section, interrupts stay on.
 *	[2] an empty array is refilled with cpu_batch objects from the slabs
 *	    under the cache's raw lock (irqs off for those few objects only)
 *	[3] pop the newest object (IN_ARRAY -> ALLOCATED); release the lock
 * kfree pushes (ALLOCATED -> IN_ARRAY, the double-free check) and, when
 * the array is full, first drains the cpu_batch oldest objects back.
 *
 * Who may use the arrays (slab_cpu_usable): a task with preempt_count 0
 * and interrupts enabled (hard and soft flag), not the idle task, and
 * not a __GFP_ATOMIC request, once percpu_locked_init() has run.  Under
 * rt the lock sleeps, so this is exactly where sleeping is legal; under
 * the other models the raw per-CPU lock must never be wanted by an
 * interrupt handler that interrupted its holder on the same CPU, and
 * handlers (hard and soft) run with preempt_count raised.  Everything
 * else - hard irq, irqs off, preemption off, raw-lock holders, RCU
 * readers outside rt, early boot - goes to the slab lists directly under
 * their raw lock, which is always legal; the objects meet again there.
 * The lock order is slab_cpu (one CPU's at a time) -> cache lock -> pmm.
 * Linux counterpart: 2.6 mm/slab.c (struct array_cache, batchcount,
 * cache_alloc_refill, cache_flusharray, drain_cpu_caches), and the -rt
 * patch's slab_irq_locks (one DEFINE_PER_CPU_LOCKED for all caches on a
 * CPU, as here); mainline SLUB uses local_lock_t for its cpu slabs.
 */
#include "kernel/mm/slab_internal.h"
#include "kernel/mm/pmm.h"
#include "kernel/percpu_locked.h"
#include "kernel/locking/lock_break.h"
#include "kernel/debug/hooks.h"
#include "kernel/irqflags.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Slots: the 9 kmalloc classes and up to 23 kmem_cache_create caches; a
 * cache beyond that works without arrays.  Limits follow 2.6 slab's
 * enable_cpucache() scaled down (it used 120/54/24 objects) to keep the
 * per-CPU area small: 32 * 136 bytes per CPU. */
#define SLAB_CPU_SLOTS 32
#define SLAB_CPU_LIMIT_MAX 16
#define SLOT_DYING ((struct kmem_cache *)1)	/* being destroyed */

struct array_cache {
	unsigned int avail;			/* entry[avail - 1] is newest */
	void *entry[SLAB_CPU_LIMIT_MAX];	/* OBJ_IN_ARRAY objects */
};

struct slab_cpu {
	/* protected by this CPU's slab_cpu lock: */
	struct array_cache ac[SLAB_CPU_SLOTS];	/* by kmem_cache.cpu_slot */
	struct slab_cpu_stats st;		/* but not st.bypasses */
};

DEFINE_PER_CPU_LOCKED(struct slab_cpu, slab_cpu);
/* this CPU's bypass count: one instruction, from any context */
static DEFINE_PER_CPU(unsigned long, slab_cpu_bypasses);

/* slot -> cache, NULL free, SLOT_DYING in destruction; cmpxchg/atomic */
static struct kmem_cache *slot_cache[SLAB_CPU_SLOTS];

static bool cpu_has_copy(int cpu)
{
	return __per_cpu_offset[cpu] != 0;
}

/* slab_of - obj's slab and index (obj is a valid object of c). */
static struct slab *slab_of(const void *obj, unsigned long *idx)
{
	struct slab *s = *(struct slab **)pmm_page_private(obj);

	*idx = ((const char *)obj - s->objs) / s->cache->size;
	return s;
}

/* Context claim of the array paths (slab_cpu_usable said yes). */
static void assert_cpu_context(void)
{
	BUG_ON(preempt_count() != 0 || irqs_disabled());
}

/* slab_cpu_usable - the context rule of the file header, checked on
 * every kmalloc/kfree: preempt_count covers hard and soft irq, NMI,
 * preempt_disable and raw-lock holders; irqs_disabled the hard IF and
 * rt's soft flag.  A refused call is counted in slab_cpu_bypasses.
 * Context: any. */
bool slab_cpu_usable(const struct kmem_cache *c, int flags)
{
	if (c->cpu_slot < 0 || !percpu_locked_is_ready())
		return false;
	if ((flags & __GFP_ATOMIC) || preempt_count() != 0 ||
	    irqs_disabled() || (current->flags & PF_IDLE)) {
		this_cpu_inc(slab_cpu_bypasses);
		return false;
	}
	return true;
}

void slab_cpu_cache_setup(struct kmem_cache *c)
{
	c->cpu_limit = c->size > 1024 ? 4 : c->size > 256 ? 8 : 16;
	c->cpu_batch = c->cpu_limit / 2;
	c->cpu_slot = -1;
	for (int slot = 0; slot < SLAB_CPU_SLOTS; slot++) {
		struct kmem_cache *expected = NULL;

		if (__atomic_compare_exchange_n(&slot_cache[slot], &expected, c,
						false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			c->cpu_slot = slot;
			break;
		}
	}
}

/* refill - [2]: up to cpu_batch objects from the slabs into ac.
 * Locking: cpu's slab_cpu lock held; takes c->lock. */
static void refill(struct kmem_cache *c, struct array_cache *ac)
{
	unsigned long irqf = mm_lock_irqsave(&c->lock);
	void *obj;

	while (ac->avail < c->cpu_batch &&
	       (obj = __cache_take(c, OBJ_IN_ARRAY)))
		ac->entry[ac->avail++] = obj;
	mm_unlock_irqrestore(&c->lock, irqf);
}

/* drain_array - the n oldest objects of ac back to their slabs
 * (IN_ARRAY -> FREE); returns how many.  Locking: the lock of ac's CPU
 * held; takes c->lock, then pmm_lock for slabs left empty. */
static unsigned int drain_array(struct kmem_cache *c, struct array_cache *ac,
				unsigned int n)
{
	LIST_HEAD(release);
	unsigned long irqf, idx;
	struct slab *s;

	n = min(n, ac->avail);
	if (!n)
		return 0;
	irqf = mm_lock_irqsave(&c->lock);
	for (unsigned int i = 0; i < n; i++) {
		s = slab_of(ac->entry[i], &idx);
		BUG_ON(__cache_put(c, s, idx, OBJ_IN_ARRAY, &release));
	}
	mm_unlock_irqrestore(&c->lock, irqf);
	ac->avail -= n;
	memmove(ac->entry, ac->entry + n, ac->avail * sizeof(ac->entry[0]));
	cache_release_slabs(c, &release);
	return n;
}

/* note_section - what the fast path runs with, for the latency test. */
static void note_section(struct slab_cpu *sc)
{
	sc->st.section_preempt_count = preempt_count();
	sc->st.section_irqs_off = raw_irqs_disabled();
}

/* slab_cpu_alloc - see slab_internal.h; the steps are in the header.
 * Context: task, preempt_count 0, irqs on.  Locking: takes cpu's
 * slab_cpu lock (sleeping under rt), c->lock inside it for a refill. */
void *slab_cpu_alloc(struct kmem_cache *c)
{
	/* LAB(percpu-locked:alloc) BEGIN */
	int cpu = raw_smp_processor_id();				/* [1] */
	struct slab_cpu *sc;
	struct array_cache *ac;
	unsigned long idx;
	struct slab *s;
	void *obj = NULL;

	assert_cpu_context();
	sc = &get_per_cpu_locked(slab_cpu, cpu);
	ac = &sc->ac[c->cpu_slot];
	if (!ac->avail) {						/* [2] */
		refill(c, ac);
		sc->st.refills++;
	}
	if (ac->avail) {						/* [3] */
		note_section(sc);
		obj = ac->entry[--ac->avail];
		s = slab_of(obj, &idx);
		BUG_ON(!obj_move(s, idx, OBJ_IN_ARRAY, OBJ_ALLOCATED, NULL));
		sc->st.fast_allocs++;
	}
	put_per_cpu_locked(slab_cpu, cpu);
	return obj;
	/* LAB(percpu-locked:alloc) END */
}

/* slab_cpu_free - see slab_internal.h.  Context: as slab_cpu_alloc.
 * Locking: takes cpu's slab_cpu lock, c->lock inside it for a drain. */
const char *slab_cpu_free(struct kmem_cache *c, struct slab *s,
			  unsigned long idx)
{
	int cpu = raw_smp_processor_id();
	const char *why = NULL;
	struct slab_cpu *sc;
	struct array_cache *ac;
	u8 seen;

	assert_cpu_context();
	sc = &get_per_cpu_locked(slab_cpu, cpu);
	ac = &sc->ac[c->cpu_slot];
	if (!obj_move(s, idx, OBJ_ALLOCATED, OBJ_IN_ARRAY, &seen)) {
		why = obj_state_why(seen);
		goto out_unlock;
	}
	if (ac->avail == c->cpu_limit) {
		drain_array(c, ac, c->cpu_batch);
		sc->st.drains++;
	}
	note_section(sc);
	ac->entry[ac->avail++] = slab_obj(s, idx);
	sc->st.fast_frees++;
out_unlock:
	put_per_cpu_locked(slab_cpu, cpu);
	return why;
}

/* slab_drain_cpu - see slab.h.  Locking: takes cpu's slab_cpu lock;
 * cache locks inside.  A slot in destruction is the destroyer's.
 * Up to SLAB_CPU_SLOTS arrays of SLAB_CPU_LIMIT_MAX objects are drained
 * in one section, so the lock is broken between slots (lock_break.h:
 * cond_resched_lock, the article's JBD-style preemption point).  What
 * survives the drop: the slot index and n; slot_cache[slot] is re-read
 * under the lock for each slot and drained before the next break, which
 * is what slab_cpu_cache_detach's step [2] relies on.
 *
 *	drainer D (CPU1)                W (CPU1 or another)
 *	lock cpu's slab_cpu lock
 *	drain slot 0                    slab_drain_cpu(cpu) / kmalloc: waits
 *	[slab_drain_window]
 *	cond_resched_lock: unlock ----> gets the lock, drains, unlocks
 *	  relock <----------------------
 *	drain slot 1 (slot_cache re-read)
 *
 * tests/kernel/test_lock_break.c test_slab_drain_breaks_for_waiter
 * forces it. */
DEFINE_RACE_WINDOW(slab_drain_window);

unsigned long slab_drain_cpu(int cpu)
{
	unsigned long n = 0, got;
	struct slab_cpu *sc;

	assert_cpu_context();
	if (!percpu_locked_is_ready())
		return 0;	/* no array has been used yet */
	sc = &get_per_cpu_locked(slab_cpu, cpu);
	for (int slot = 0; slot < SLAB_CPU_SLOTS; slot++) {
		struct kmem_cache *c = __atomic_load_n(&slot_cache[slot],
						       __ATOMIC_ACQUIRE);

		if (!c || c == SLOT_DYING)
			continue;
		got = drain_array(c, &sc->ac[slot], SLAB_CPU_LIMIT_MAX);
		if (got)
			sc->st.drains++;
		n += got;
		trace_race_window(&slab_drain_window);
		if (cond_resched_lock(&per_cpu_lock(slab_cpu, cpu)))
			sc->st.lock_breaks++;
	}
	put_per_cpu_locked(slab_cpu, cpu);
	return n;
}

unsigned long slab_drain_all(void)
{
	unsigned long n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_has_copy(cpu))
			n += slab_drain_cpu(cpu);
	return n;
}

/*
 * slab_cpu_cache_detach - see slab_internal.h.  [1] SLOT_DYING keeps
 * slab_drain_cpu away from c; [2] every CPU's array of c is drained
 * under that CPU's lock, so once the pass is over no drainer that read
 * the slot before [1] still uses c either.
 */
void slab_cpu_cache_detach(struct kmem_cache *c)
{
	struct slab_cpu *sc;

	if (c->cpu_slot < 0)
		return;
	__atomic_store_n(&slot_cache[c->cpu_slot], SLOT_DYING,		/* [1] */
			 __ATOMIC_RELEASE);
	if (!percpu_locked_is_ready())
		return;
	assert_cpu_context();
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {			/* [2] */
		if (!cpu_has_copy(cpu))
			continue;
		sc = &get_per_cpu_locked(slab_cpu, cpu);
		drain_array(c, &sc->ac[c->cpu_slot], SLAB_CPU_LIMIT_MAX);
		put_per_cpu_locked(slab_cpu, cpu);
	}
}

void slab_cpu_cache_finish(struct kmem_cache *c, bool keep)
{
	if (c->cpu_slot < 0)
		return;
	__atomic_store_n(&slot_cache[c->cpu_slot], keep ? c : NULL,
			 __ATOMIC_RELEASE);
}

unsigned long slab_cpu_fill(const struct kmem_cache *c,
			    unsigned short *avail)
{
	unsigned long sum = 0;
	unsigned int a;

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		a = 0;
		if (c->cpu_slot >= 0 && cpu_has_copy(cpu))
			a = READ_ONCE(per_cpu_locked(slab_cpu, cpu)
					      .ac[c->cpu_slot].avail);
		if (avail)
			avail[cpu] = (unsigned short)a;
		sum += a;
	}
	return sum;
}

int slab_cpu_stats_get(int cpu, struct slab_cpu_stats *st)
{
	if (cpu < 0 || cpu >= NR_CPUS || !cpu_has_copy(cpu))
		return -EINVAL;
	*st = per_cpu_locked(slab_cpu, cpu).st;
	st->bypasses = READ_ONCE(per_cpu(slab_cpu_bypasses, cpu));
	return 0;
}
