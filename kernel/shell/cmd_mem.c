/*
 * kernel/shell/cmd_mem.c - the `mem` command: physical memory totals and
 * the slab caches' usage, with each CPU's per-CPU array fill and the
 * arrays' counters (kernel/mm/slab_cpu.c), and mmap's page cache
 * (kernel/mm/filemap.c).
 * Linux counterpart: /proc/meminfo and /proc/slabinfo.
 */
#include "kernel/shell/shell.h"
#include "kernel/printk.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/kstack.h"
#include "kernel/smp.h"
#include "lib/string.h"
#include "arch/x86_64/arch.h"

#define KIB(pages) ((pages) << (PAGE_SHIFT - 10))

/* print_cpu_fill - " 3 0 5 1 /16": each online CPU's array of the cache
 * (kernel/mm/slab_cpu.c), then its limit; "-" without arrays. */
static void print_cpu_fill(const struct kmem_cache_info *ci)
{
	if (!ci->cpu_limit) {
		console_printf(" -\n");
		return;
	}
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			console_printf(" %u", ci->cpu_avail[cpu]);
	console_printf(" /%u\n", ci->cpu_limit);
}

/* print_cpu_stats - each CPU's fast-path and batch counters. */
static void print_cpu_stats(void)
{
	struct slab_cpu_stats st;

	console_printf("%-6s %12s %12s %8s %8s %10s\n", "cpu", "fast allocs",
		       "fast frees", "refills", "drains", "bypasses");
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu) && slab_cpu_stats_get(cpu, &st) == 0)
			console_printf("%-6d %12lu %12lu %8lu %8lu %10lu\n", cpu,
				       st.fast_allocs, st.fast_frees,
				       st.refills, st.drains, st.bypasses);
}

static int cmd_mem(int argc, char **argv)
{
	struct kmem_cache_info ci;
	struct pmm_stats st;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "drain")))
		return shell_usage("mem [drain]");
	if (argc == 2) {
		/* task context: the per-CPU locks may sleep under rt */
		console_printf("drained %lu objects from the per-CPU arrays\n",
			       slab_drain_all());
		return 0;
	}
	pmm_get_stats(&st);
	console_printf("RAM:      %8lu KiB usable\n", KIB(st.ram_pages));
	console_printf("free:     %8lu KiB\n", KIB(st.free_pages));
	console_printf("used:     %8lu KiB\n",
		       KIB(st.ram_pages - st.reserved_pages - st.free_pages -
			   st.offline_pages));
	console_printf("reserved: %8lu KiB (first MiB, kernel image, boot data, "
		       "allocator)\n", KIB(st.reserved_pages));
	if (st.offline_pages || st.ignored_pages)
		console_printf("offline:  %8lu KiB, ignored: %lu KiB\n",
			       KIB(st.offline_pages), KIB(st.ignored_pages));
	console_printf("kmalloc pages: %lu KiB, kernel stacks: %u (%u KiB each)\n",
		       KIB(kmalloc_large_pages()), kstack_nr_in_use(),
		       KSTACK_SIZE / 1024);
	console_printf("page cache: %lu KiB (files mapped by mmap, shared by "
		       "every process that maps them)\n",
		       KIB(filemap_cache_pages()));
	console_printf("%-20s %6s %10s %10s %6s %5s  %s\n", "cache", "size",
		       "in use", "total", "slabs", "pages",
		       "per-CPU arrays (fill/limit)");
	for (int i = 0; kmem_cache_info_get(i, &ci) == 0; i++) {
		console_printf("%-20s %6u %10lu %10lu %6lu %5u ", ci.name,
			       ci.obj_size, ci.objs_in_use, ci.objs_total,
			       ci.slabs, ci.slab_pages);
		print_cpu_fill(&ci);
	}
	print_cpu_stats();
	return 0;
}
SHELL_COMMAND(mem, "show memory totals and slab caches; mem drain: empty the per-CPU arrays", cmd_mem);
