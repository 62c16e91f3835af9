/*
 * kernel/debug/lockdep.c - the lock validator's hooks and checks (see
 * kernel/locking/lockdep.h for what it reports; the class table and the
 * dependency graph are in lockdep_graph.c).
 *
 * lock_acquire(), called by every lock function before it waits:
 *	[1] look up the lock's class (cached in the lock after the first
 *	    time) and record ip and a short stack trace;
 *	[2] a sleeping lock (not a trylock) while a spinning one is held,
 *	    or in hard-irq context: invalid wait context;
 *	[3] a spinning lock: record its irq usage (in a hard-irq handler /
 *	    with irqs enabled); both, from a writer: irq inversion;
 *	[4] not a trylock: the same class already held (unless both are
 *	    recursive readers): recursive locking, and no edges;
 *	[5] not a trylock: for the nearest held lock of the same irq
 *	    context (and past it over trylocks, as Linux's check_prevs_add)
 *	    record prev -> new unless known; an edge whose target already
 *	    reaches prev closes a cycle: circular dependency;
 *	[6] push it on the task's held-lock stack.
 * Hard-irq and softirq handlers use the interrupted task's stack; [5]
 * stops at the context boundary, so the interrupted task's locks are not
 * ordered before the handler's (an irq taking a lock the task holds with
 * irqs on is [3]'s business, or [4]'s for the same class).
 * The hooks run with irqs off and set current's recursion count, so the
 * locks the validator's own printing takes are not validated.
 * Linux counterpart: kernel/debug/lockdep.c (__lock_acquire,
 * check_deadlock, check_prevs_add, mark_lock, check_wait_context,
 * print_circular_bug, __lock_release).
 */
#include "kernel/debug/lockdep_internal.h"
#include "kernel/sched/sched.h"
#include "kernel/preempt_count.h"
#include "kernel/printk.h"
#include "kernel/ksyms.h"
#include "lib/vsnprintf.h"
#include "lib/string.h"
#include "arch/x86_64/arch.h"

#if defined(CONFIG_LOCKDEP)
#define MAX_REPORT_PATH 8	/* edges of a cycle printed */

/* report counters, under the graph lock */
static unsigned long nr_reports, nr_expected;
static enum lockdep_report_kind last_kind;
static int expecting;		/* lockdep_expect_begin nesting */

bool lockdep_report_begin(u16 class, enum lockdep_report_kind kind)
{
	bool first = true;

	lockdep_graph_lock();
	if (class && (lock_classes[class].reported & (1u << kind)))
		first = false;
	else if (class)
		lock_classes[class].reported |= 1u << kind;
	if (first) {
		nr_reports++;
		nr_expected += READ_ONCE(expecting) > 0;
		last_kind = kind;
	}
	lockdep_graph_unlock();
	return first;
}

void lockdep_printf(const char *fmt, ...)
{
	char buf[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printk(KERN_ERR "%s%s",
	       READ_ONCE(expecting) ? "lockdep-expected: " : "lockdep: ", buf);
}

/* The trace starts at the lock function's caller; ip (the caller's
 * return address) only when the frame walk found nothing. */
void lockdep_print_trace(unsigned long ip, const unsigned long *trace)
{
	char sym[96];

	if (!trace[0]) {
		ksym_snprint(sym, sizeof(sym), ip);
		lockdep_printf("    at %s\n", sym);
		return;
	}
	for (int i = 0; i < LOCKDEP_TRACE_DEPTH && trace[i]; i++) {
		ksym_snprint(sym, sizeof(sym), trace[i]);
		lockdep_printf("    %s %s\n", i ? "  " : "at", sym);
	}
}

const char *lockdep_class_name(u16 class, char *buf, size_t len)
{
	const struct lock_class *c = &lock_classes[class];

	if (c->subclass)
		snprintf(buf, len, "%s/%u (%s:%d)", c->name, c->subclass,
			 c->file ? c->file : "static", c->line);
	else
		snprintf(buf, len, "%s (%s:%d)", c->name,
			 c->file ? c->file : "static", c->line);
	return buf;
}

static void print_held_lock(int i, const struct held_lock *hl)
{
	char name[96];

	lockdep_printf(" #%d: %s%s\n", i,
		       lockdep_class_name(hl->class_idx, name, sizeof(name)),
		       hl->read ? " (read)" : "");
	lockdep_print_trace(hl->ip, hl->trace);
}

void lockdep_print_held_locks(struct task_struct *p)
{
	int depth = READ_ONCE(p->lockdep.depth);

	if (!depth) {
		lockdep_printf("no locks held by %s/%d.\n", p->name, p->pid);
		return;
	}
	lockdep_printf("%d lock%s held by %s/%d:\n", depth,
		       depth > 1 ? "s" : "", p->name, p->pid);
	for (int i = 0; i < depth; i++)
		print_held_lock(i, &p->lockdep.held[i]);
}

static void report_header(const char *what, struct task_struct *p)
{
	lockdep_printf("====================================================\n");
	lockdep_printf("WARNING: %s\n", what);
	lockdep_printf("task %s/%d, CPU %d\n", p->name, p->pid,
		       raw_smp_processor_id());
}

static void report_footer(struct task_struct *p)
{
	lockdep_print_held_locks(p);
	lockdep_printf("---- end of lockdep report ----\n");
}

/* An overflow turns the validator off for good, with one line. */
static void lockdep_overflow(const char *what)
{
	if (!__atomic_exchange_n(&lockdep_on, false, __ATOMIC_RELAXED))
		return;
	if (lockdep_report_begin(0, LOCKDEP_OVERFLOW))
		lockdep_printf("%s: validator turned off\n", what);
}

/*
 * A spinning lock's acquisition records only its ip on the fast path
 * (the frame walk would be most of the validator's cost); its callers
 * are saved when it matters: a new dependency, a first irq usage, a
 * report.  Sleeping locks keep their trace always (they are slow).
 */
static void ensure_trace(struct task_struct *p, struct held_lock *hl)
{
	if (!hl->trace[0])
		arch_save_stack_trace(p->lockdep.frame, hl->trace,
				      LOCKDEP_TRACE_DEPTH);
}

/* [2] a sleeping lock under a spinning one or in a hard irq */
static void check_wait_context(struct task_struct *p, struct held_lock *hl)
{
	struct lockdep_task *ld = &p->lockdep;
	const struct held_lock *spin = NULL;
	char name[96];

	for (int i = ld->depth - 1; i >= 0 && !spin; i--)
		if (lock_classes[ld->held[i].class_idx].wait_type ==
		    LD_WAIT_SPIN)
			spin = &ld->held[i];
	if (!spin && !(hl->irq_context & 1))
		return;
	if (!lockdep_report_begin(hl->class_idx, LOCKDEP_WAIT_CONTEXT))
		return;
	ensure_trace(p, hl);
	report_header("invalid wait context: sleeping lock taken while atomic",
		      p);
	lockdep_printf("trying to take sleeping lock %s\n",
		       lockdep_class_name(hl->class_idx, name, sizeof(name)));
	lockdep_print_trace(hl->ip, hl->trace);
	if (spin) {
		lockdep_printf("while holding spinning lock %s\n",
			       lockdep_class_name(spin->class_idx, name,
						  sizeof(name)));
		lockdep_print_trace(spin->ip, spin->trace);
	} else {
		lockdep_printf("in hard-irq context\n");
	}
	report_footer(p);
}

/* [3] record a spinning class's irq usage; report an inversion */
static void mark_irq_usage(struct task_struct *p, struct held_lock *hl,
			   bool irqs_on)
{
	struct lock_class *c = &lock_classes[hl->class_idx];
	const u8 in = 1u << LD_USED_IN_HARDIRQ, on = 1u << LD_ENABLED_HARDIRQ;
	int state;
	u8 bit, usage, wr;
	char name[96];

	if (hl->irq_context & 1)
		state = LD_USED_IN_HARDIRQ;
	else if (irqs_on)
		state = LD_ENABLED_HARDIRQ;
	else
		return;
	bit = 1u << state;
	/* lock-free: usage bits are only set (lockdep_reset_map clears
	 * them, for a class no task holds: a racing check may skip once) */
	if ((READ_ONCE(c->usage) & bit) &&
	    (hl->read || (READ_ONCE(c->usage_write) & bit)))
		return;
	ensure_trace(p, hl);
	lockdep_graph_lock();
	if (!c->usage_ip[state]) {
		c->usage_ip[state] = hl->ip;
		memcpy(c->usage_trace[state], hl->trace, sizeof(hl->trace));
	}
	c->usage |= bit;
	if (!hl->read)
		c->usage_write |= bit;
	usage = c->usage;
	wr = c->usage_write;
	lockdep_graph_unlock();
	/* two readers do not block each other: only a writer conflicts */
	if ((usage & (in | on)) != (in | on) || !(wr & (in | on)))
		return;
	if (!lockdep_report_begin(hl->class_idx, LOCKDEP_IRQ_INVERSION))
		return;
	report_header("inconsistent lock state: {IN-HARDIRQ} vs {HARDIRQ-ON}",
		      p);
	lockdep_printf("lock %s\n",
		       lockdep_class_name(hl->class_idx, name, sizeof(name)));
	lockdep_printf("was taken in hard-irq context first:\n");
	lockdep_print_trace(c->usage_ip[LD_USED_IN_HARDIRQ],
			    c->usage_trace[LD_USED_IN_HARDIRQ]);
	lockdep_printf("and with interrupts enabled first:\n");
	lockdep_print_trace(c->usage_ip[LD_ENABLED_HARDIRQ],
			    c->usage_trace[LD_ENABLED_HARDIRQ]);
	lockdep_printf("an interrupt taking it on a CPU that holds it with "
		       "irqs on spins for ever (use the _irq/_irqsave forms)\n");
	report_footer(p);
}

/* [4] false if the class is held already (reported once per class) */
static bool check_recursion(struct task_struct *p, struct held_lock *hl)
{
	struct lockdep_task *ld = &p->lockdep;
	char name[96];

	for (int i = ld->depth - 1; i >= 0; i--) {
		struct held_lock *h = &ld->held[i];

		if (h->class_idx != hl->class_idx)
			continue;
		if (h->read == 2 && hl->read == 2)
			return true;	/* recursive readers: allowed */
		if (!lockdep_report_begin(hl->class_idx, LOCKDEP_RECURSIVE))
			return false;
		ensure_trace(p, hl);
		report_header("possible recursive locking detected", p);
		lockdep_printf("trying to acquire %s\n",
			       lockdep_class_name(hl->class_idx, name,
						  sizeof(name)));
		lockdep_print_trace(hl->ip, hl->trace);
		lockdep_printf("but already holding %s of that class:\n",
			       h->instance == hl->instance ? "the same lock"
							   : "another lock");
		lockdep_print_trace(h->ip, h->trace);
		lockdep_printf("two locks of one class in a fixed order need "
			       "a nesting subclass (raw_spin_lock_nested)\n");
		report_footer(p);
		return false;
	}
	return true;
}

static void print_circular(struct task_struct *p, const struct held_lock *prev,
			   const struct held_lock *next, const u16 *path, int n)
{
	char a[96], b[96];

	report_header("possible circular locking dependency detected", p);
	lockdep_printf("is trying to acquire lock %s\n",
		       lockdep_class_name(next->class_idx, a, sizeof(a)));
	lockdep_print_trace(next->ip, next->trace);
	lockdep_printf("but already holds lock %s\n",
		       lockdep_class_name(prev->class_idx, b, sizeof(b)));
	lockdep_print_trace(prev->ip, prev->trace);
	lockdep_printf("which already depends on the new lock; the existing "
		       "chain:\n");
	for (int i = 0; i < n; i++) {
		const struct lock_edge *e = &lock_edges[path[i]];

		lockdep_printf("-> #%d %s taken while holding %s\n", i,
			       lockdep_class_name(e->next, a, sizeof(a)),
			       lockdep_class_name(e->prev, b, sizeof(b)));
		lockdep_printf("  holding:\n");
		lockdep_print_trace(e->prev_ip, e->prev_trace);
		lockdep_printf("  taking:\n");
		lockdep_print_trace(e->next_ip, e->next_trace);
	}
	lockdep_printf("possible unsafe scenario:  CPU0: lock(%s); CPU1: "
		       "lock(%s);\n",
		       lock_classes[prev->class_idx].name,
		       lock_classes[next->class_idx].name);
	lockdep_printf("  CPU1: lock(%s) ...; CPU0: lock(%s) *** DEADLOCK\n",
		       lock_classes[prev->class_idx].name,
		       lock_classes[next->class_idx].name);
	report_footer(p);
}

/* [5] order edges from the held locks to hl */
static void add_prev_edges(struct task_struct *p, struct held_lock *hl)
{
	struct lockdep_task *ld = &p->lockdep;
	u16 path[MAX_REPORT_PATH];

	for (int i = ld->depth - 1; i >= 0; i--) {
		struct held_lock *h = &ld->held[i];
		int n;

		if (h->irq_context != hl->irq_context)
			break;
		if (h->read == 2)
			continue;	/* no edges out of recursive readers */
		if (!lockdep_edge_known(h->class_idx, hl->class_idx)) {
			ensure_trace(p, hl);
			n = lockdep_add_edge(h, hl, path, MAX_REPORT_PATH);
			if (n < 0)
				lockdep_overflow("edge table full");
			else if (n > 0 &&
				 lockdep_report_begin(0, LOCKDEP_CIRCULAR))
				print_circular(p, h, hl, path, n);
		}
		if (!h->trylock)
			break;
	}
}

static void __lock_acquire(struct task_struct *p, struct lockdep_map *map,
			   unsigned int subclass, bool trylock, int read,
			   unsigned long ip, bool irqs_on, unsigned long frame)
{
	struct lockdep_task *ld = &p->lockdep;
	struct held_lock *hl;
	u16 class;

	if (subclass >= LOCKDEP_SUBCLASSES)
		subclass = LOCKDEP_SUBCLASSES - 1;
	class = lockdep_class_of(map, subclass);			/* [1] */
	if (!class) {
		lockdep_overflow("class table full");
		return;
	}
	if (ld->depth == LOCKDEP_MAX_DEPTH) {
		lockdep_overflow("held-lock stack full");
		return;
	}
	hl = &ld->held[ld->depth];
	hl->instance = map;
	hl->ip = ip;
	hl->class_idx = class;
	hl->read = read;
	hl->trylock = trylock;
	hl->irq_context = (hardirq_count() ? 1 : 0) |
			  ((softirq_count() & SOFTIRQ_OFFSET) ? 2 : 0);
	ld->frame = frame;
	hl->trace[0] = 0;
	if (map->wait_type != LD_WAIT_SPIN)
		ensure_trace(p, hl);
	if (map->wait_type == LD_WAIT_SLEEP && !trylock)
		check_wait_context(p, hl);				/* [2] */
	if (map->wait_type == LD_WAIT_SPIN)
		mark_irq_usage(p, hl, irqs_on);				/* [3] */
	if (!trylock && check_recursion(p, hl))			/* [4] */
		add_prev_edges(p, hl);					/* [5] */
	ld->depth++;							/* [6] */
}

void lock_acquire(struct lockdep_map *map, unsigned int subclass,
		  bool trylock, int read, unsigned long ip)
{
	struct task_struct *p;
	unsigned long flags;

	if (!READ_ONCE(lockdep_on))
		return;
	raw_local_irq_save(flags);
	p = current_or_null();
	if (p && !p->lockdep.recursion) {
		p->lockdep.recursion++;
		/* the caller's frame: its callers are the trace */
		__lock_acquire(p, map, subclass, trylock, read, ip,
			       !raw_irqs_disabled_flags(flags),
			       *(unsigned long *)arch_frame_pointer());
		p->lockdep.recursion--;
	}
	raw_local_irq_restore(flags);
}

static void report_bad_unlock(struct task_struct *p, struct lockdep_map *map,
			      unsigned long ip, unsigned long frame)
{
	u16 class = lockdep_class_of(map, 0);
	unsigned long trace[LOCKDEP_TRACE_DEPTH];
	char name[96];

	if (!class || !lockdep_report_begin(class, LOCKDEP_BAD_UNLOCK))
		return;
	arch_save_stack_trace(frame, trace, LOCKDEP_TRACE_DEPTH);
	report_header("bad unlock balance: releasing a lock not held", p);
	lockdep_printf("releasing %s (%p)\n",
		       lockdep_class_name(class, name, sizeof(name)),
		       (void *)map);
	lockdep_print_trace(ip, trace);
	report_footer(p);
}

void lock_release(struct lockdep_map *map, unsigned long ip)
{
	struct task_struct *p;
	struct lockdep_task *ld;
	unsigned long flags;
	int i;

	if (!READ_ONCE(lockdep_on))
		return;
	raw_local_irq_save(flags);
	p = current_or_null();
	if (!p || p->lockdep.recursion)
		goto out;
	p->lockdep.recursion++;
	ld = &p->lockdep;
	for (i = ld->depth - 1; i >= 0; i--)
		if (ld->held[i].instance == map)
			break;
	if (i < 0) {
		report_bad_unlock(p, map, ip,
				  *(unsigned long *)arch_frame_pointer());
	} else {
		/* out of order is fine: close the gap */
		if (i != ld->depth - 1)
			memmove(&ld->held[i], &ld->held[i + 1],
				(ld->depth - i - 1) * sizeof(ld->held[0]));
		ld->depth--;
	}
	p->lockdep.recursion--;
out:
	raw_local_irq_restore(flags);
}

bool lock_is_held(const struct lockdep_map *map)
{
	struct task_struct *p = current_or_null();

	if (!READ_ONCE(lockdep_on) || !p)
		return true;
	for (int i = p->lockdep.depth - 1; i >= 0; i--)
		if (p->lockdep.held[i].instance == map)
			return true;
	return false;
}

void lockdep_init_map(struct lockdep_map *map, const char *name,
		      const char *file, int line, enum lockdep_wait_type wait)
{
	map->name = name;
	map->file = file;
	map->line = line;
	map->wait_type = wait;
	__atomic_store_n(&map->class_idx, 0, __ATOMIC_RELEASE);
}

void lockdep_init_task(struct task_struct *p)
{
	p->lockdep.depth = 0;
	p->lockdep.recursion = 0;
}

void lockdep_expect_begin(void)
{
	__atomic_add_fetch(&expecting, 1, __ATOMIC_SEQ_CST);
}

void lockdep_expect_end(void)
{
	__atomic_sub_fetch(&expecting, 1, __ATOMIC_SEQ_CST);
}

void lockdep_get_stats(struct lockdep_stats *st)
{
	lockdep_graph_counts(&st->classes, &st->edges);
	st->max_classes = LOCKDEP_MAX_CLASSES - 1;
	st->max_edges = LOCKDEP_MAX_EDGES - 1;
	st->reports = READ_ONCE(nr_reports);
	st->expected = READ_ONCE(nr_expected);
	st->last_kind = READ_ONCE(last_kind);
	st->enabled = READ_ONCE(lockdep_on);
}
#else
void lockdep_get_stats(struct lockdep_stats *st)
{
	memset(st, 0, sizeof(*st));
}
void lockdep_expect_begin(void)
{
}
void lockdep_expect_end(void)
{
}
void lockdep_reset_map(struct lockdep_map *map)
{
	(void)map;
}
void lockdep_for_each_class(void (*fn)(const char *name, const char *file,
				       int line, unsigned int subclass,
				       unsigned int deps, const char *usage,
				       void *arg),
			    void *arg)
{
	(void)fn, (void)arg;
}
#endif /* CONFIG_LOCKDEP */

const char *lockdep_kind_name(enum lockdep_report_kind kind)
{
	static const char *const names[] = {
		[LOCKDEP_NONE] = "none",
		[LOCKDEP_CIRCULAR] = "circular",
		[LOCKDEP_RECURSIVE] = "recursive",
		[LOCKDEP_IRQ_INVERSION] = "irq-inversion",
		[LOCKDEP_WAIT_CONTEXT] = "wait-context",
		[LOCKDEP_BAD_UNLOCK] = "bad-unlock",
		[LOCKDEP_OVERFLOW] = "overflow",
	};

	return kind <= LOCKDEP_OVERFLOW ? names[kind] : "?";
}
