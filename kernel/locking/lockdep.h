/*
 * kernel/locking/lockdep.h - the lock validator (make LOCKDEP=0 drops it;
 * on in the default build): Linux's lockdep in small.
 *
 * Every lock carries a struct lockdep_map naming its *class*: the site
 * that initialised it (file:line and the lock expression, "&rq->lock" at
 * kernel/sched/rq.c:174), so all run queues' locks are one class and the
 * eight pitest locks (distinct names) are eight.  The lock functions call
 * lock_acquire() before they wait and lock_release() when they let go;
 * the validator keeps each task's stack of held locks and a graph of
 * "class A was held while class B was taken" edges, and reports, the
 * first time the pattern is seen and before anything hangs:
 *
 *   circular dependency   taking B while holding A, and B ->* A is known
 *                         (ABBA, ABC...): both chains, symbolised
 *   recursive locking     a class taken while the same class is held (AA;
 *                         two locks of one class need a nesting subclass,
 *                         raw_spin_lock_nested)
 *   irq inversion         a spinning lock class taken in hard-irq context
 *                         and elsewhere with interrupts enabled
 *   invalid wait context  a sleeping lock taken while holding a spinning
 *                         one, or in hard-irq context (might_sleep()
 *                         covers "atomic without a lock held")
 *   bad unlock            a release of a lock the task does not hold
 *
 * Each distinct problem is reported once (a cycle-closing edge is then
 * recorded, a class is flagged) and the validator stays on; a full table
 * turns it off with one line.  Reports start "lockdep: "; tests that
 * provoke one on purpose bracket it with lockdep_expect_begin/end and it
 * prints as "lockdep-expected: " (tools/harness.py fails a run on any
 * "lockdep: " line).
 * Linux counterpart: kernel/debug/lockdep.c, include/linux/lockdep.h.
 * rtk leaves out: the chain-key cache (an edge lookup is one hash probe
 * instead), softirq and read-safe usage states, the cross-class irq
 * (safe -> unsafe) check, lock_class_key objects (the init site is the
 * key), and lock statistics.
 */
#ifndef KERNEL_LOCKING_LOCKDEP_H
#define KERNEL_LOCKING_LOCKDEP_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "lib/bug.h"

struct task_struct;

/* What the holder may do while waiting for the lock (Linux's
 * lockdep_wait_type, two of its levels). */
enum lockdep_wait_type {
	LD_WAIT_INV = 0,	/* not annotated: no wait-context check */
	LD_WAIT_SPIN,		/* spins; the holder is atomic */
	LD_WAIT_SLEEP,		/* may sleep: not under a spinning lock */
};

/* The per-lock part: the class key and a cache of the class. */
struct lockdep_map {
	const char *name;	/* the lock expression, "&rq->lock" */
	const char *file;	/* init site; NULL: the map's address is
				 * the key (a lock never initialised) */
	int line;
	u8 wait_type;		/* enum lockdep_wait_type */
	u16 class_idx;		/* subclass 0's class; 0: not looked up */
};

/* Static initialiser: the site is where the lock is defined. */
#define LOCKDEP_MAP_INIT(lockname, wait)                                     \
	{ .name = (lockname), .file = __FILE__, .line = __LINE__,            \
	  .wait_type = (wait), .class_idx = 0 }

/* Subclass for the second of two locks of one class taken in a fixed
 * order (double_rq_lock), as Linux's spin_lock_nested(). */
#define SINGLE_DEPTH_NESTING 1
#define LOCKDEP_SUBCLASSES 4

#define LOCKDEP_TRACE_DEPTH 4	/* frames kept per acquisition */
#define LOCKDEP_MAX_DEPTH 48	/* locks one task may hold at once */

/* One entry of a task's held-lock stack. */
struct held_lock {
	const struct lockdep_map *instance;	/* which lock */
	unsigned long ip;			/* the lock call's caller */
	unsigned long trace[LOCKDEP_TRACE_DEPTH];	/* its callers; saved
							 * lazily for spinning
							 * locks (lockdep.c) */
	u16 class_idx;
	u8 read;		/* 0: exclusive; 2: recursive reader */
	bool trylock;		/* no order edges end at a trylock */
	u8 irq_context;		/* 1: hard irq, 2: serving softirq (0: task) */
};

/* The report kinds (lockdep_report_begin(), lockdep_stats.last_kind). */
enum lockdep_report_kind {
	LOCKDEP_NONE,
	LOCKDEP_CIRCULAR,
	LOCKDEP_RECURSIVE,
	LOCKDEP_IRQ_INVERSION,
	LOCKDEP_WAIT_CONTEXT,
	LOCKDEP_BAD_UNLOCK,
	LOCKDEP_OVERFLOW,
};

#if defined(CONFIG_LOCKDEP)
#define LOCKDEP_ENABLED 1

/* struct task_struct's part: written by the task itself only (an irq
 * handler pushes and pops on the interrupted task's stack). */
struct lockdep_task {
	int depth;			/* entries in held[] */
	int recursion;			/* in the validator: hooks return */
	unsigned long frame;		/* the acquisition being validated:
					 * its caller's frame (lazy trace) */
	struct held_lock held[LOCKDEP_MAX_DEPTH];
};

/* lockdep_init_map - (re)name a lock's class key: site and name.
 * Context: any. */
void lockdep_init_map(struct lockdep_map *map, const char *name,
		      const char *file, int line, enum lockdep_wait_type wait);

/*
 * lock_acquire - the task is about to take (or, trylock, has taken) the
 * lock behind map: validate the order against the locks it holds, then
 * push it.  read = 2 for a recursive reader (rwlock readers under
 * none/voluntary/desktop).  ip: the lock function's caller.
 * Context: any (hard-irq too); called before the lock waits.
 * Locking: the validator's own graph lock, irqs off inside.
 */
void lock_acquire(struct lockdep_map *map, unsigned int subclass,
		  bool trylock, int read, unsigned long ip);
/* lock_release - pop the lock (from anywhere in the stack: out-of-order
 * release is fine); report if the task does not hold it.  Context: any. */
void lock_release(struct lockdep_map *map, unsigned long ip);
/* lock_is_held - does current hold the lock behind map?  True while the
 * validator is off (assertions must not fire then).  Context: any. */
bool lock_is_held(const struct lockdep_map *map);

/* lockdep_init_task - a new task holds nothing.  Context: task creation. */
void lockdep_init_task(struct task_struct *p);
/* lockdep_print_held_locks - list p's held locks (p == current, or p not
 * running).  Context: any. */
void lockdep_print_held_locks(struct task_struct *p);
#else
#define LOCKDEP_ENABLED 0
struct lockdep_task {
	int depth;
};
static inline void lockdep_init_map(struct lockdep_map *map, const char *name,
				    const char *file, int line,
				    enum lockdep_wait_type wait)
{
	map->name = name;
	map->file = file;
	map->line = line;
	map->wait_type = wait;
	map->class_idx = 0;
}
static inline void lock_acquire(struct lockdep_map *map, unsigned int subclass,
				bool trylock, int read, unsigned long ip)
{
	(void)map, (void)subclass, (void)trylock, (void)read, (void)ip;
}
static inline void lock_release(struct lockdep_map *map, unsigned long ip)
{
	(void)map, (void)ip;
}
static inline bool lock_is_held(const struct lockdep_map *map)
{
	(void)map;
	return true;
}
static inline void lockdep_init_task(struct task_struct *p)
{
	(void)p;
}
static inline void lockdep_print_held_locks(struct task_struct *p)
{
	(void)p;
}
#endif

/* lockdep_assert_held - the caller must hold l (any lock type with a
 * dep_map member: raw_spinlock_t, struct rt_mutex). */
#define lockdep_assert_held(l) WARN_ON(!lock_is_held(&(l)->dep_map))

/* For tests and the shell (defined in lockdep.c): counters, expected
 * reports, forgetting a test's classes. */
struct lockdep_stats {
	unsigned int classes;		/* registered */
	unsigned int max_classes;
	unsigned int edges;		/* dependencies recorded */
	unsigned int max_edges;
	unsigned long reports;		/* all reports so far */
	unsigned long expected;		/* of which inside expect_begin/end */
	enum lockdep_report_kind last_kind;
	bool enabled;			/* false after an overflow */
};
void lockdep_get_stats(struct lockdep_stats *st);
/* lockdep_expect_begin/end - reports in between are expected: printed
 * as "lockdep-expected: ", counted.  Global, nests.  Context: task. */
void lockdep_expect_begin(void);
void lockdep_expect_end(void);
/* lockdep_reset_map - forget what the validator learned about the
 * classes (all subclasses) of map's key: their edges in both directions,
 * usage and reports.  The classes stay (keyed by init site) and freed
 * edges are reused, so a test can provoke the same report again, leaves
 * no order behind, and can reset as often as it likes.
 * Context: task; no lock of those classes held. */
void lockdep_reset_map(struct lockdep_map *map);
/* lockdep_kind_name - "circular", "recursive", ... */
const char *lockdep_kind_name(enum lockdep_report_kind kind);
/* lockdep_for_each_class - shell listing: fn(name, file, line, subclass,
 * nr out-edges, usage string) for every live class.  Context: task. */
void lockdep_for_each_class(void (*fn)(const char *name, const char *file,
				       int line, unsigned int subclass,
				       unsigned int deps, const char *usage,
				       void *arg),
			    void *arg);

#endif /* KERNEL_LOCKING_LOCKDEP_H */
