/*
 * tests/kernel/test_slab_cpu.c - the slab_cpu suite: the slab
 * allocator's per-CPU object arrays (kernel/mm/slab_cpu.c), each guarded
 * by a DEFINE_PER_CPU_LOCKED lock (kernel/percpu_locked.h; its own cases
 * are test_percpu_locked.c).  Article, "Per-CPU Variables" and
 * "Latency-reduction measures": under rt the fast path runs with
 * interrupts and preemption on, under the other models the raw per-CPU
 * lock raises preempt_count; every model keeps the arrays consistent
 * across CPUs, catches a double free inside an array and gives every
 * cached object back at a drain.
 */
#include "kernel/ktest.h"
#include "kernel/percpu_locked.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/mm_report.h"
#include "kernel/smp.h"
#include "kernel/irqflags.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "lib/string.h"
#include "kernel/time/ktime.h"
#include "kernel/version.h"
#include "tests/kernel/sched_helpers.h"

#define WAIT_NS (3 * NSEC_PER_SEC)

/* slab_reap - stop a thread start_rt made and drop its reference. */
static void slab_reap(struct task_struct *p)
{
	kthread_stop(p);
	put_task_struct(p);
}

#define PCL_OBJ 96
#define PCL_PER_CPU 40

static struct kmem_cache_info cache_info(struct ktest *t, const char *name)
{
	struct kmem_cache_info ci;

	for (int i = 0; kmem_cache_info_get(i, &ci) == 0; i++)
		if (strcmp(ci.name, name) == 0)
			return ci;
	KTEST_EXPECT(t, false, "cache %s not listed", name);
	memset(&ci, 0, sizeof(ci));
	return ci;
}

/*
 * Scenario: a private cache; on each online CPU a bound thread allocates
 * PCL_PER_CPU objects and fills them; then on each CPU a second thread
 * frees the objects allocated on the next CPU (cross-CPU frees land in
 * the freeing CPU's array).  Expected: the fast path counted on every
 * CPU, no object handed out twice, in-use 0 after the frees with objects
 * cached in arrays, and after slab_drain_all() nothing cached, at most
 * the spare slab left, and kmem_cache_destroy accepts the cache.
 */
struct slab_case {
	struct kmem_cache *cache;
	void *objs[NR_CPUS][PCL_PER_CPU];
	int target;		/* whose objects a free thread frees */
	bool failed;
	struct completion done;
};

static struct slab_case sc;

static int alloc_fn(void *data)
{
	int cpu = (int)(long)data;

	for (int i = 0; i < PCL_PER_CPU; i++) {
		void *p = kmem_cache_alloc(sc.cache, GFP_KERNEL);

		if (!p)
			WRITE_ONCE(sc.failed, true);
		else
			memset(p, cpu * 64 + i, PCL_OBJ);
		sc.objs[cpu][i] = p;
	}
	complete(&sc.done);
	return 0;
}

static int free_fn(void *data)
{
	int victim = (int)(long)data;

	for (int i = 0; i < PCL_PER_CPU; i++) {
		u8 *p = sc.objs[victim][i];

		if (p && (p[0] != (u8)(victim * 64 + i) ||
			  p[PCL_OBJ - 1] != (u8)(victim * 64 + i)))
			WRITE_ONCE(sc.failed, true);	/* shared object */
		kmem_cache_free(sc.cache, p);
	}
	complete(&sc.done);
	return 0;
}

static void run_on_each_cpu(struct ktest *t, int (*fn)(void *), bool next)
{
	struct task_struct *p[NR_CPUS];
	int cpus[NR_CPUS], n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			cpus[n++] = cpu;
	init_completion(&sc.done);
	for (int i = 0; i < n; i++) {
		p[i] = start_rt(fn, (void *)(long)cpus[next ? (i + 1) % n : i],
				SCHED_OTHER, 0, cpus[i], "pcl-slab");
		KTEST_ASSERT(t, p[i] != NULL, "kthread_create failed");
	}
	for (int i = 0; i < n; i++)
		KTEST_EXPECT(t, wait_for_completion_timeout(&sc.done, WAIT_NS) > 0,
			     "slab thread %d of %d did not finish", i, n);
	for (int i = 0; i < n; i++)
		slab_reap(p[i]);
}

static void test_slab_arrays_from_every_cpu_consistent_after_drain(struct ktest *t)
{
	struct slab_cpu_stats before[NR_CPUS], after;
	struct kmem_cache_info ci;

	memset(&sc, 0, sizeof(sc));
	sc.cache = kmem_cache_create("pcl_test", PCL_OBJ, 0);
	KTEST_ASSERT(t, sc.cache, "kmem_cache_create, got NULL");
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			slab_cpu_stats_get(cpu, &before[cpu]);
	run_on_each_cpu(t, alloc_fn, false);
	ci = cache_info(t, "pcl_test");
	KTEST_EXPECT_EQ(t, ci.objs_in_use,
			(unsigned long)num_online_cpus() * PCL_PER_CPU);
	KTEST_EXPECT(t, ci.cpu_limit > 0, "pcl_test has no per-CPU arrays");
	run_on_each_cpu(t, free_fn, true);
	KTEST_EXPECT(t, !sc.failed, "an allocation failed or two CPUs shared "
		     "an object");
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		slab_cpu_stats_get(cpu, &after);
		KTEST_EXPECT(t, after.fast_allocs - before[cpu].fast_allocs >=
			     PCL_PER_CPU, "CPU %d: %d fast allocations, saw %lu",
			     cpu, PCL_PER_CPU,
			     after.fast_allocs - before[cpu].fast_allocs);
		KTEST_EXPECT(t, after.fast_frees - before[cpu].fast_frees >=
			     PCL_PER_CPU, "CPU %d: %d fast frees, saw %lu", cpu,
			     PCL_PER_CPU, after.fast_frees - before[cpu].fast_frees);
	}
	ci = cache_info(t, "pcl_test");
	KTEST_EXPECT_EQ(t, ci.objs_in_use, 0);
	KTEST_EXPECT(t, ci.objs_cached > 0 &&
		     ci.objs_cached <= (unsigned long)num_online_cpus() * ci.cpu_limit,
		     "1..%u objects cached per CPU, saw %lu in all",
		     ci.cpu_limit, ci.objs_cached);
	slab_drain_all();
	ci = cache_info(t, "pcl_test");
	KTEST_EXPECT_EQ(t, ci.objs_cached, 0);
	KTEST_EXPECT_EQ(t, ci.objs_in_use, 0);
	KTEST_EXPECT(t, ci.slabs <= 1, "only the spare slab left, saw %lu",
		     ci.slabs);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		KTEST_EXPECT_EQ(t, ci.cpu_avail[cpu], 0);
	kmem_cache_destroy(sc.cache);
	for (int i = 0; kmem_cache_info_get(i, &ci) == 0; i++)
		KTEST_EXPECT(t, strcmp(ci.name, "pcl_test") != 0,
			     "pcl_test still listed after destroy");
}

/*
 * A double free of an object sitting in a per-CPU array is reported,
 * through the array path and through the direct path (preemption off),
 * and so is the free of a neighbour the refill put in the array but
 * nobody was given.  The cache hands out distinct objects afterwards.
 */
static void test_double_free_of_object_in_array_caught(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("pcl_dfree", 64, 0);
	unsigned long w0 = slab_warn_count;
	struct kmem_cache_info ci;
	u8 *p, *a, *b;

	KTEST_ASSERT(t, c, "kmem_cache_create, got NULL");
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT(t, p, "kmem_cache_alloc, got NULL");
	ci = cache_info(t, "pcl_dfree");
	KTEST_EXPECT(t, ci.objs_cached >= 1,
		     "the refill left objects in the array, saw %lu cached",
		     ci.objs_cached);
	mm_report_expect(true);
	/* ci.obj_size is the slot stride: the neighbour below p */
	kmem_cache_free(c, p - ci.obj_size); /* refilled, never handed out */
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 1);
	kmem_cache_free(c, p);		/* into the array */
	kmem_cache_free(c, p);		/* double: it sits in the array */
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 2);
	preempt_disable();
	kmem_cache_free(c, p);		/* direct path, same object */
	preempt_enable();
	mm_report_expect(false);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 3);
	a = kmem_cache_alloc(c, GFP_KERNEL);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT(t, a && b && a != b, "two distinct objects, saw %p and %p",
		     a, b);
	kmem_cache_free(c, a);
	kmem_cache_free(c, b);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 3);
	p = kmalloc(200, GFP_KERNEL);	/* and through kmalloc/kfree */
	KTEST_ASSERT(t, p, "kmalloc(200), got NULL");
	kfree(p);
	mm_report_expect(true);
	kfree(p);
	mm_report_expect(false);
	KTEST_EXPECT_EQ(t, slab_warn_count, w0 + 4);
	ci = cache_info(t, "pcl_dfree");
	KTEST_EXPECT_EQ(t, ci.objs_in_use, 0);
	kmem_cache_destroy(c);
}

/*
 * Scenario: a thread bound to one CPU calls kmalloc(64)/kfree with
 * interrupts on.  The array path ran (fast_allocs + 1); inside its
 * section, under rt, preempt_count was 0 and RFLAGS.IF set: the
 * allocator disabled neither.  Under the other models the raw per-CPU
 * lock raised preempt_count there, and IF stayed set too.  After the
 * call both are back.  A GFP_ATOMIC call bypasses the arrays.
 */
struct fast_case {
	struct slab_cpu_stats before, mid, after;
	bool irqs_off_after;
	int count_after;
	struct completion done;
};

static int fast_fn(void *data)
{
	struct fast_case *f = data;
	int cpu = raw_smp_processor_id();
	void *p;

	slab_cpu_stats_get(cpu, &f->before);
	p = kmalloc(64, GFP_KERNEL);
	slab_cpu_stats_get(cpu, &f->mid);
	f->irqs_off_after = raw_irqs_disabled();
	f->count_after = preempt_count();
	kfree(p);
	p = kmalloc(64, GFP_ATOMIC);
	kfree(p);
	slab_cpu_stats_get(cpu, &f->after);
	complete(&f->done);
	return 0;
}

static void test_fast_path_leaves_irqs_and_preemption_on_under_rt(struct ktest *t)
{
	static struct fast_case f;
	struct task_struct *p;

	init_completion(&f.done);
	p = start_rt(fast_fn, &f, SCHED_OTHER, 0, raw_smp_processor_id(),
		     "pcl-fast");	/* any CPU */
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	KTEST_EXPECT(t, wait_for_completion_timeout(&f.done, WAIT_NS) > 0,
		     "fast-path thread did not finish");
	slab_reap(p);
	KTEST_EXPECT_EQ(t, f.mid.fast_allocs - f.before.fast_allocs, 1);
	KTEST_EXPECT(t, !f.mid.section_irqs_off,
		     "IF clear inside the kmalloc fast path");
	if (SPINLOCK_SLEEPS)
		KTEST_EXPECT_EQ(t, f.mid.section_preempt_count, 0);
	else
		KTEST_EXPECT(t, f.mid.section_preempt_count >= 1,
			     "raw per-CPU lock raises preempt_count, saw %d",
			     f.mid.section_preempt_count);
	KTEST_EXPECT(t, !f.irqs_off_after, "kmalloc returned with IF clear");
	KTEST_EXPECT_EQ(t, f.count_after, 0);
	/* GFP_ATOMIC kmalloc + its kfree from task context: one bypass for
	 * the allocation, the kfree goes through the array */
	KTEST_EXPECT(t, f.after.bypasses - f.mid.bypasses >= 1,
		     "GFP_ATOMIC bypassed the arrays: want >= 1, saw %lu",
		     f.after.bypasses - f.mid.bypasses);
	KTEST_EXPECT_EQ(t, f.after.fast_allocs - f.mid.fast_allocs, 0);
}

KTEST_SUITE(slab_cpu,
	    KTEST_CASE(test_slab_arrays_from_every_cpu_consistent_after_drain),
	    KTEST_CASE(test_double_free_of_object_in_array_caught),
	    KTEST_CASE(test_fast_path_leaves_irqs_and_preemption_on_under_rt));
