/*
 * kernel/fs/sys_files.c - the files of /sys that glibc and libnuma read
 * (shared/design/linux-abi.md, "Files opened in /proc, /sys"), in
 * Linux's format:
 *
 *   /sys/devices/system/cpu/online, possible   cpu lists ("0-1"): glibc's
 *                        sysconf(_SC_NPROCESSORS_ONLN/CONF), libnuma
 *   /sys/devices/system/node/online, possible  "0": one memory node
 *   /sys/devices/system/node/node0/cpumap      the node's CPUs, a hex mask
 *   /sys/devices/system/node/node0/meminfo     MemTotal, MemFree (kB)
 *
 * The node directory is what libnuma lists to count nodes; rtk is one
 * node (it reads no ACPI SRAT), as Linux on a machine without NUMA.
 * Linux counterpart: drivers/base/cpu.c (print_cpus_*), drivers/base/
 * node.c (node_read_cpumap, node_read_meminfo).
 */
#include "kernel/fs/procfs.h"
#include "kernel/mm/pmm.h"
#include "kernel/smp.h"

static u64 possible_mask(void)
{
	return nr_cpu_ids >= 64 ? ~0ULL : (1ULL << nr_cpu_ids) - 1;
}

static void show_cpu_online(struct seq_buf *m)
{
	seq_buf_print_cpulist(m, READ_ONCE(cpu_online_mask.bits), NR_CPUS);
}

static void show_cpu_possible(struct seq_buf *m)
{
	seq_buf_print_cpulist(m, possible_mask(), NR_CPUS);
}

static void show_node_list(struct seq_buf *m)
{
	seq_buf_puts(m, "0\n");
}

static void show_node_cpumap(struct seq_buf *m)
{
	seq_buf_printf(m, "%llx\n", (unsigned long long)possible_mask());
}

static void show_node_meminfo(struct seq_buf *m)
{
	struct pmm_stats st;

	pmm_get_stats(&st);
	seq_buf_printf(m, "Node 0 MemTotal:       %8lu kB\n",
		       st.ram_pages * (PAGE_SIZE / 1024));
	seq_buf_printf(m, "Node 0 MemFree:        %8lu kB\n",
		       st.free_pages * (PAGE_SIZE / 1024));
}

const struct proc_entry sys_entries[] = {
	{ "/sys/devices/system/cpu/online", S_IFREG | 0444, show_cpu_online,
	  NULL },
	{ "/sys/devices/system/cpu/possible", S_IFREG | 0444, show_cpu_possible,
	  NULL },
	{ "/sys/devices/system/node/online", S_IFREG | 0444, show_node_list,
	  NULL },
	{ "/sys/devices/system/node/possible", S_IFREG | 0444, show_node_list,
	  NULL },
	{ "/sys/devices/system/node/node0/cpumap", S_IFREG | 0444,
	  show_node_cpumap, NULL },
	{ "/sys/devices/system/node/node0/meminfo", S_IFREG | 0444,
	  show_node_meminfo, NULL },
};
const unsigned int sys_nr_entries = ARRAY_SIZE(sys_entries);
