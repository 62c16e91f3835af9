/*
 * kernel/debug/lockdep_internal.h - what lockdep.c (the hooks and the
 * checks on a task's held locks) and lockdep_graph.c (classes, the
 * dependency graph, its search) share.  Not for other users: they see
 * kernel/locking/lockdep.h.
 *
 * Tables are fixed-size arrays (the validator runs inside raw lock
 * operations with irqs off and must not allocate); an index of 0 means
 * "none" in every u16 field.  A class is never freed: it is keyed by
 * its lock's init site, so the next lock initialised there finds it
 * again.  A test that forgets what the validator learned about a lock
 * (lockdep_reset_map) clears its class's usage and reports and frees
 * the edges into and out of it; freed edges are reused, so a soak that
 * runs the pitest scripts for hours (each resets its eight locks) keeps
 * both tables at their steady size.
 * Written under the graph lock (lockdep_graph.c); read without it where
 * a comment says so.
 */
#ifndef KERNEL_DEBUG_LOCKDEP_INTERNAL_H
#define KERNEL_DEBUG_LOCKDEP_INTERNAL_H

#include "kernel/locking/lockdep.h"

#define LOCKDEP_MAX_CLASSES 1024	/* rtk's kernel + tests use ~150 */
#define LOCKDEP_MAX_EDGES 4096		/* and ~600 edges */
#define LOCKDEP_NAME_LEN 40

/* usage states of a spinning class (hard-irq only) */
enum lockdep_usage {
	LD_USED_IN_HARDIRQ,	/* taken inside a hard-irq handler */
	LD_ENABLED_HARDIRQ,	/* taken with interrupts enabled */
	LD_USAGE_STATES,
};

struct lock_class {
	/* the key: immutable once published */
	const char *file;		/* NULL: keyed by addr */
	const void *addr;
	int line;
	u8 subclass;
	u8 wait_type;			/* enum lockdep_wait_type */
	char name[LOCKDEP_NAME_LEN];	/* a copy: the lock may be freed */
	/* under the graph lock */
	u8 usage;			/* BIT(enum lockdep_usage) */
	u8 usage_write;			/* usage bits seen from a writer */
	u8 reported;			/* BIT(enum lockdep_report_kind) */
	u16 hash_next;			/* class hash chain */
	u16 first_out;			/* edges prev == this class */
	u16 nr_out;
	unsigned long usage_ip[LD_USAGE_STATES];
	unsigned long usage_trace[LD_USAGE_STATES][LOCKDEP_TRACE_DEPTH];
};

/* "next was taken while prev was held", the first time it was seen */
struct lock_edge {
	/* prev << 16 | next, 0 when free: what the lock-free lookup
	 * compares, in one load (a reused edge is never half old, half new) */
	u32 key;
	u16 prev, next;
	u16 next_out;			/* prev's list, or the free list */
	unsigned long prev_ip, next_ip;
	unsigned long prev_trace[LOCKDEP_TRACE_DEPTH];
	unsigned long next_trace[LOCKDEP_TRACE_DEPTH];
};

extern struct lock_class lock_classes[LOCKDEP_MAX_CLASSES];
extern struct lock_edge lock_edges[LOCKDEP_MAX_EDGES];
extern bool lockdep_on;		/* false after an overflow */

/* Graph lock: an arch-level test-and-set lock, no lockdep hooks in it.
 * Caller has irqs off. */
void lockdep_graph_lock(void);
void lockdep_graph_unlock(void);

/* lockdep_class_of - map's class for subclass, created on first use; 0
 * when the table is full.  Context: irqs off, graph lock NOT held (it
 * is taken on a miss). */
u16 lockdep_class_of(struct lockdep_map *map, unsigned int subclass);

/* lockdep_edge_known - has prev -> next been recorded?  Lock-free read. */
bool lockdep_edge_known(u16 prev, u16 next);

/*
 * lockdep_add_edge - record prev -> next unless known.  Returns 0 if
 * recorded (or known), -ENOSPC if the table is full, or the length n > 0
 * of a path next ->* prev found first (the edge closes a cycle): path[]
 * then holds its edge indices from next to prev; the edge is recorded
 * all the same, so the cycle is reported once.
 * Context: irqs off.  Locking: takes the graph lock.
 */
int lockdep_add_edge(const struct held_lock *prev, const struct held_lock *next,
		     u16 *path, int max_path);

/* lockdep_graph_counts - classes and live edges (stats). */
void lockdep_graph_counts(unsigned int *classes, unsigned int *edges);

/* lockdep_report_begin - count a report of kind; false if this class
 * already had one of that kind (then say nothing).  class 0: always. */
bool lockdep_report_begin(u16 class, enum lockdep_report_kind kind);
/* lockdep_printf - one report line with the "lockdep: " (or
 * "lockdep-expected: ") prefix. */
void lockdep_printf(const char *fmt, ...) __printf(1, 2);
void lockdep_print_trace(unsigned long ip, const unsigned long *trace);
const char *lockdep_class_name(u16 class, char *buf, size_t len);

#endif /* KERNEL_DEBUG_LOCKDEP_INTERNAL_H */
