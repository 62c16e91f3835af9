/*
 * kernel/mm/mm_report.h - memory-debugging reports: the allocation and
 * free sites kept with an object or page (struct mm_track), and one
 * oops-style report per detected bug (use-after-free write, red zone
 * overrun, double free, page poison, page double free).
 *
 * A report prints its kind, the object, the first bad byte and both
 * sites, symbolised, then "---[ end mm report ]---"; the kernel goes on
 * (the bad free is ignored, the overwritten object is handed out
 * anyway), as Linux's SLUB debug does after "BUG kmalloc-64: ...".  An
 * unexpected report's first line starts "BUG: slab" or "BUG: page",
 * which tools/harness.py counts as a crash; a test that injects a bug
 * on purpose first calls mm_report_expect(true), and its own reports
 * (those raised by that task) say "(expected)" instead and are only
 * counted.  mm_report_last() gives the test the last report's record.
 * Linux counterpart: mm/slub.c (print_track, slab_bug, object_err),
 * mm/kasan/report.c (the "allocated by / freed by" layout).
 */
#ifndef KERNEL_MM_MM_REPORT_H
#define KERNEL_MM_MM_REPORT_H

#include "lib/types.h"

#define MM_TRACK_DEPTH 4	/* the caller and three of its callers */

/* Where an object was allocated or freed: a short stack and who. */
struct mm_track {
	unsigned long ip[MM_TRACK_DEPTH];	/* [0]: the allocator's caller;
						 * 0 ends a shorter stack */
	int pid;				/* -1: nobody yet */
	int cpu;
};

enum mm_report_kind {
	MM_REPORT_POISON,	/* a free object was written (use after free) */
	MM_REPORT_REDZONE,	/* bytes past the object were written */
	MM_REPORT_DOUBLE_FREE,	/* freed while already free */
	MM_REPORT_BAD_FREE,	/* not an object start / not ours */
	MM_REPORT_PAGE_POISON,	/* a free page was written */
	MM_REPORT_PAGE_DOUBLE_FREE,
};

struct mm_report {
	enum mm_report_kind kind;
	const void *addr;		/* object or first page */
	const char *cache;		/* cache name, "page" for pages */
	long offset;			/* first bad byte from addr, -1: n/a */
	u8 seen, want;			/* that byte and its expected value */
	const char *why;		/* BAD_FREE: what is wrong */
	struct mm_track alloc;		/* last allocation (pid -1: unknown) */
	struct mm_track free;		/* last free (pid -1: none) */
	struct mm_track now;		/* the call that found it */
	bool expected;			/* filled in by mm_report() */
};

/* mm_track_save - record the current task, CPU and the stack from frame
 * fp (the allocator entry's own frame: ip[0] is its caller).
 * Context: any. */
void mm_track_save(struct mm_track *t, unsigned long fp);
void mm_track_clear(struct mm_track *t);

/* mm_report - print r (see the file header), count it and keep it as
 * the last report.  Context: any; prints, takes no allocator lock. */
void mm_report(struct mm_report *r);

/* mm_report_expect - reports raised by the current task are expected
 * (on) or bugs again (off).  Context: task. */
void mm_report_expect(bool on);

/* mm_report_count - reports so far, expected ones included. */
unsigned long mm_report_count(void);

/* mm_report_last - copy of the last report; false when none yet. */
bool mm_report_last(struct mm_report *out);

/* mm_track_has - does t's stack contain an address inside function fn
 * (as the symbol table sizes it)?  For tests checking a site. */
bool mm_track_has(const struct mm_track *t, const void *fn);

#endif /* KERNEL_MM_MM_REPORT_H */
