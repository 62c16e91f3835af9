/*
 * kernel/shell/cmd_mem.c - the `mem` command: physical memory totals and
 * the slab caches' usage.
 * Linux counterpart: /proc/meminfo and /proc/slabinfo.
 */
#include "kernel/shell/shell.h"
#include "kernel/printk.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/kstack.h"
#include "arch/x86_64/arch.h"

#define KIB(pages) ((pages) << (PAGE_SHIFT - 10))

static int cmd_mem(int argc, char **argv)
{
	struct kmem_cache_info ci;
	struct pmm_stats st;

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
	console_printf("%-20s %6s %10s %10s %6s %5s\n", "cache", "size",
		       "in use", "total", "slabs", "pages");
	for (int i = 0; kmem_cache_info_get(i, &ci) == 0; i++)
		console_printf("%-20s %6u %10lu %10lu %6lu %5u\n", ci.name,
			       ci.obj_size, ci.objs_in_use, ci.objs_total,
			       ci.slabs, ci.slab_pages);
	return 0;
}
SHELL_COMMAND(mem, "show memory totals and slab caches", cmd_mem);
