/*
 * kernel/mm/mm_report.c - memory-debugging reports and the alloc/free
 * site records they print (see mm_report.h).
 *
 * Reports are serialised by report_lock (a raw lock: a report may come
 * from any context, and two CPUs' reports must not interleave on the
 * console); they take no allocator lock and allocate nothing, so the
 * allocators call mm_report() after dropping their own locks or from
 * code that holds none.
 * Linux counterpart: mm/slub.c print_track()/slab_bug(),
 * mm/kasan/report.c (start_report/end_report, report_lock).
 */
#include "kernel/mm/mm_report.h"
#include "kernel/ksyms.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/raw_spinlock.h"
#include "arch/x86_64/arch.h"
#include "lib/string.h"

static DEFINE_RAW_SPINLOCK(report_lock);
/* protected by report_lock: */
static struct mm_report last;
static bool have_last;
/* atomic: */
static unsigned long nr_reports;
static struct task_struct *expect_task;	/* its reports are expected */

void mm_track_clear(struct mm_track *t)
{
	memset(t->ip, 0, sizeof(t->ip));
	t->pid = -1;
	t->cpu = -1;
}

void mm_track_save(struct mm_track *t, unsigned long fp)
{
	struct task_struct *tsk = current_or_null();

	arch_save_stack_trace(fp, t->ip, MM_TRACK_DEPTH);	/* zero-fills */
	t->pid = tsk ? tsk->pid : 0;
	t->cpu = raw_smp_processor_id();
}

bool mm_track_has(const struct mm_track *t, const void *fn)
{
	unsigned long off, size;

	for (int i = 0; i < MM_TRACK_DEPTH && t->ip[i]; i++)
		if (ksym_lookup(t->ip[i], &off, &size) &&
		    t->ip[i] - off == (unsigned long)fn)
			return true;
	return false;
}

static const char *kind_name(enum mm_report_kind kind)
{
	switch (kind) {
	case MM_REPORT_POISON:
	case MM_REPORT_PAGE_POISON:
		return "use-after-free write";
	case MM_REPORT_REDZONE:
		return "red zone overwritten";
	case MM_REPORT_DOUBLE_FREE:
	case MM_REPORT_PAGE_DOUBLE_FREE:
		return "double free";
	case MM_REPORT_BAD_FREE:
		return "invalid free";
	}
	return "?";
}

/* print_track - "  <what> by task P on cpu C:" and the symbolised stack. */
static void print_track(const char *what, const struct mm_track *t)
{
	char sym[96];

	if (t->pid < 0) {
		printk(KERN_ERR "  %s: no record\n", what);
		return;
	}
	if (t->cpu >= 0)
		printk(KERN_ERR "  %s by task %d on cpu %d:\n", what, t->pid,
		       t->cpu);
	else
		printk(KERN_ERR "  %s by task %d:\n", what, t->pid);
	for (int i = 0; i < MM_TRACK_DEPTH && t->ip[i]; i++) {
		ksym_snprint(sym, sizeof(sym), t->ip[i]);
		printk(KERN_ERR "    %s\n", sym);
	}
}

/*
 * mm_report - see mm_report.h.
 * Context: any.  Locking: takes report_lock (raw, irqs off) to print.
 */
void mm_report(struct mm_report *r)
{
	bool page = r->kind == MM_REPORT_PAGE_POISON ||
		    r->kind == MM_REPORT_PAGE_DOUBLE_FREE;
	unsigned long flags;

	r->expected = current_or_null() &&
		      READ_ONCE(expect_task) == current_or_null();
	__atomic_fetch_add(&nr_reports, 1, __ATOMIC_RELAXED);
	raw_spin_lock_irqsave(&report_lock, flags);
	/* "BUG: slab"/"BUG: page" is what the harness counts as a crash */
	printk(KERN_ERR "%s%s: %s in %s %p", r->expected ? "" : "BUG: ",
	       page ? "page" : "slab", kind_name(r->kind), r->cache, r->addr);
	if (r->offset >= 0)
		pr_cont(" (byte %ld is %#x, expected %#x)", r->offset, r->seen,
			r->want);
	if (r->why)
		pr_cont(": %s", r->why);
	pr_cont("%s\n", r->expected ? " (expected)" : "");
	print_track("allocated", &r->alloc);
	print_track("last freed", &r->free);
	print_track("found", &r->now);
	printk(KERN_ERR "---[ end mm report ]---\n");
	last = *r;
	have_last = true;
	raw_spin_unlock_irqrestore(&report_lock, flags);
}

void mm_report_expect(bool on)
{
	WRITE_ONCE(expect_task, on ? current : NULL);
}

unsigned long mm_report_count(void)
{
	return __atomic_load_n(&nr_reports, __ATOMIC_RELAXED);
}

bool mm_report_last(struct mm_report *out)
{
	unsigned long flags;
	bool ok;

	raw_spin_lock_irqsave(&report_lock, flags);
	ok = have_last;
	if (ok)
		*out = last;
	raw_spin_unlock_irqrestore(&report_lock, flags);
	return ok;
}
