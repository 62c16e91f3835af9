/*
 * tests/kernel/test_user_mm.c - the memory calls of issue 29 item 4:
 * t_mmap's answers (user/tests/t_mmap.c) and no page left behind after
 * it exits; the page cache shared by two address spaces; PROT_NONE
 * reservations and file pages outside the private-page count.
 *
 * The in-kernel cases build their own address spaces (mm_alloc_user)
 * and call kernel/mm's locked functions directly, as sys_mmap does, on
 * this program's file /t_mmap from the initramfs; each skips without it.
 */
#include "kernel/ktest.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/inode.h"
#include "kernel/mm/file_mmap.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/user_mm.h"
#include "kernel/sched/deferred.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/time/ktime.h"
#include "kernel/user/initramfs.h"
#include "kernel/user/process.h"
#include "kernel/user/uapi.h"
#include "tests/kernel/sched_helpers.h"
#include "lib/errno.h"

#define T_MMAP "t_mmap"

struct mm_counts {
	unsigned long pages;	/* free + slab pages */
	unsigned long objs;	/* slab objects in use */
	unsigned long cached;	/* page-cache pages (filemap.c) */
	int mms;		/* mm_structs alive */
};

/* settle_and_count - once process tgid's mm is gone (its last mmdrop is
 * delayed to the desched thread: see test_user.c's exits_settled for the
 * race) and no task is being reaped, the kernel's memory figures.  The
 * wait is bounded by a hang guard only. */
static void settle_and_count(int tgid, struct mm_counts *c)
{
	u64 end = ktime_get_ns() + SAFETY_NS;
	unsigned long slab_pages;

	while (ktime_get_ns() < end) {
		deferred_flush();
		if ((!tgid || !mm_count_owned_by(tgid)) &&
		    !sched_nr_tasks_reaping())
			break;
		msleep(1);
	}
	free_dead_stacks();
	slab_drain_all();
	kmem_cache_totals(&c->objs, &slab_pages);
	c->pages = pmm_nr_free_pages() + slab_pages;
	c->cached = filemap_cache_pages();
	c->mms = mm_count_live();
}

/* run_t_mmap - t_mmap's wait status, and its tgid in *tgid (0: none). */
static int run_t_mmap(struct ktest *t, int *tgid)
{
	char name[] = T_MMAP;
	char *argv[] = { name };
	struct process *p;
	int err = 0, status;

	*tgid = 0;
	p = process_spawn(1, argv, &err);
	KTEST_EXPECT(t, p, "process_spawn(" T_MMAP "): %d", err);
	if (!p)
		return -1;
	*tgid = p->tgid;
	status = process_wait(p);
	process_put(p);
	return status;
}

static bool have_t_mmap(struct ktest *t)
{
	const void *data;
	size_t size;

	if (initramfs_find(T_MMAP, &data, &size)) {
		ktest_skip(t, "no initramfs or no " T_MMAP
			   " (boot with -initrd)");
		return false;
	}
	return true;
}

/* t_mmap: every memory call and its errors (scenario in
 * user/tests/t_mmap.c); after it exits its private pages, page tables,
 * mapped-file references and the shm file it unlinked are all freed.  A
 * first run warms the page cache of /t_mmap (kept while the file is in
 * the tree) and the slab caches. */
static void test_user_mm_mmap_calls_answer_as_linux_and_leak_nothing(struct ktest *t)
{
	struct mm_counts before, after;
	int status, tgid;

	if (!have_t_mmap(t))
		return;
	run_t_mmap(t, &tgid);
	settle_and_count(tgid, &before);
	status = run_t_mmap(t, &tgid);
	KTEST_EXPECT(t, status == 0, T_MMAP ": expected exit 0, got status "
		     "%#x (exit code = failed checks, listed above)", status);
	settle_and_count(tgid, &after);
	KTEST_EXPECT(t, after.pages == before.pages,
		     "free+slab pages: expected %lu, saw %lu", before.pages,
		     after.pages);
	KTEST_EXPECT(t, after.objs == before.objs,
		     "slab objects: expected %lu, saw %lu", before.objs,
		     after.objs);
	KTEST_EXPECT(t, after.cached == before.cached,
		     "page-cache pages: expected %lu, saw %lu", before.cached,
		     after.cached);
	KTEST_EXPECT(t, after.mms == before.mms,
		     "mm_structs: expected %d, saw %d", before.mms, after.mms);
}

/* lookup_t_mmap - /t_mmap's inode (a reference) or NULL (a skip). */
static struct inode *lookup_t_mmap(struct ktest *t)
{
	struct inode *inode;

	if (!have_t_mmap(t))
		return NULL;
	if (path_lookupat(NULL, "/" T_MMAP, LOOKUP_FOLLOW, &inode)) {
		ktest_skip(t, "/" T_MMAP " not in the file system");
		return NULL;
	}
	return inode;
}

/* map_file_ro - map npages of inode read-only into mm; the address or 0
 * (a failed expectation). */
static unsigned long map_file_ro(struct ktest *t, struct mm_struct *mm,
				 struct inode *inode, unsigned long npages)
{
	unsigned long addr;
	int err;

	rt_mutex_lock(&mm->mmap_lock);
	addr = __user_get_unmapped_area(mm, npages);
	err = addr ? __do_mmap_file(mm, addr, npages, 0, inode, 0, false)
		   : -ENOMEM;
	rt_mutex_unlock(&mm->mmap_lock);
	KTEST_EXPECT(t, !err, "__do_mmap_file: expected 0, got %d", err);
	return err ? 0 : addr;
}

/*
 * Scenario: two address spaces map /t_mmap read-only, whole.  The
 * second mapping must use the first one's physical pages page by page
 * (the page cache), so it costs the machine only page tables: fewer
 * free pages lost than the file has pages; and neither mm counts a file
 * page as its own (nr_pages 0).  After both mms go, the free pages come
 * back except for the cache, which stays with the file.
 */
static void test_user_mm_page_cache_is_shared_between_processes(struct ktest *t)
{
	struct mm_struct *a, *b;
	struct inode *inode = lookup_t_mmap(t);
	unsigned long npages, addr_a, addr_b, free0, free1, free2, same = 0;

	if (!inode)
		return;
	npages = DIV_ROUND_UP(inode->i_size, PAGE_SIZE);
	a = mm_alloc_user("test_mm_a");
	b = mm_alloc_user("test_mm_b");
	KTEST_EXPECT(t, a && b, "mm_alloc_user failed");
	if (!a || !b)
		goto out_put;
	free0 = pmm_nr_free_pages();
	addr_a = map_file_ro(t, a, inode, npages);
	free1 = pmm_nr_free_pages();
	addr_b = map_file_ro(t, b, inode, npages);
	free2 = pmm_nr_free_pages();
	if (!addr_a || !addr_b)
		goto out_put;
	for (unsigned long i = 0; i < npages; i++) {
		u64 pa, pb;

		if (!arch_query_user_page(a->pgd, addr_a + i * PAGE_SIZE, &pa,
					  NULL) &&
		    !arch_query_user_page(b->pgd, addr_b + i * PAGE_SIZE, &pb,
					  NULL) &&
		    pa == pb)
			same++;
	}
	KTEST_EXPECT(t, same == npages,
		     "pages at one physical address: expected %lu, saw %lu",
		     npages, same);
	KTEST_EXPECT(t, free1 - free2 < npages,
		     "second mapping: expected under %lu pages, cost %lu "
		     "(the first cost %lu)", npages, free1 - free2,
		     free0 - free1);
	KTEST_EXPECT(t, a->nr_pages == 0 && b->nr_pages == 0,
		     "private pages: expected 0 and 0, saw %lu and %lu",
		     a->nr_pages, b->nr_pages);
out_put:
	if (a)
		mmput(a);
	if (b)
		mmput(b);
	iput(inode);
}

/*
 * Scenario: one address space reserves 128 MiB PROT_NONE (glibc's malloc
 * arena; it only takes addresses: no page, no count), then mprotects
 * 132 KiB of it read-write (33 zeroed private pages, counted), then
 * PROT_NONE again (unmapped, freed).  A 128 MiB reservation is twice the
 * 64 MiB cap: only private pages count.
 */
static void test_user_mm_prot_none_reserves_and_mprotect_counts(struct ktest *t)
{
	struct mm_struct *mm = mm_alloc_user("test_mm_arena");
	unsigned long addr, n = (128UL << 20) / PAGE_SIZE, rw = 33;
	unsigned int flags;
	u64 phys;
	int err;

	KTEST_EXPECT(t, mm, "mm_alloc_user failed");
	if (!mm)
		return;
	rt_mutex_lock(&mm->mmap_lock);
	addr = __user_get_unmapped_area(mm, n);
	rt_mutex_unlock(&mm->mmap_lock);
	KTEST_EXPECT(t, addr, "128 MiB of addresses: none left");
	if (!addr)
		goto out_put;
	KTEST_EXPECT_EQ(t, mm->nr_pages, 0UL);
	KTEST_EXPECT_EQ(t, arch_query_user_page(mm->pgd, addr, NULL, NULL),
			-ENOENT);
	err = user_mprotect(mm, addr, rw, PROT_READ | PROT_WRITE);
	KTEST_EXPECT_EQ(t, err, 0);
	KTEST_EXPECT_EQ(t, mm->nr_pages, rw);
	KTEST_EXPECT_EQ(t, arch_query_user_page(mm->pgd, addr + (rw - 1) *
						PAGE_SIZE, &phys, &flags), 0);
	KTEST_EXPECT(t, flags & MAP_WRITE, "made RW: flags %#x", flags);
	KTEST_EXPECT_EQ(t, arch_query_user_page(mm->pgd, addr + rw * PAGE_SIZE,
						NULL, NULL), -ENOENT);
	err = user_mprotect(mm, addr, rw, PROT_NONE);
	KTEST_EXPECT_EQ(t, err, 0);
	KTEST_EXPECT_EQ(t, mm->nr_pages, 0UL);
	err = user_mprotect(mm, 0x10000000UL, 1, PROT_READ);
	KTEST_EXPECT(t, err == -ENOMEM, "mprotect outside the mmap region: "
		     "expected %d, got %d", -ENOMEM, err);
out_put:
	mmput(mm);
}

KTEST_SUITE(user_mm,
	    KTEST_CASE(test_user_mm_mmap_calls_answer_as_linux_and_leak_nothing),
	    KTEST_CASE(test_user_mm_page_cache_is_shared_between_processes),
	    KTEST_CASE(test_user_mm_prot_none_reserves_and_mprotect_counts));
