/*
 * kernel/fs/proc_files.c - the files of /proc that Linux programs and
 * compare-linux's /init read (the list and who reads what:
 * shared/design/linux-abi.md, "Files opened in /proc, /sys"), each in
 * Linux's format so their parsers work unchanged:
 *
 *   /proc/self/status    Name, State, Tgid, Pid, PPid, Threads,
 *                        Cpus_allowed(_list), Mems_allowed(_list): libnuma
 *                        reads the last two (without them cyclictest -S
 *                        exits)
 *   /proc/self/exe       the program's path (a generated symlink)
 *   /proc/self/comm, stat  the thread's name (execve sets it), and
 *                        Linux's stat line with what rtk knows
 *   /proc/cpuinfo        the arch's (arch_show_cpuinfo)
 *   /proc/cmdline        the boot command line
 *   /proc/uptime         seconds since boot, and the CPUs' idle seconds
 *   /proc/stat           cpu lines (USER_HZ ticks), intr, ctxt, btime
 *   /proc/interrupts     the per-CPU IPI counts as Linux's RES and CAL
 *                        rows (compare-linux sums them on both kernels)
 *   /proc/sys/kernel/sched_rt_period_us, sched_rt_runtime_us
 *                        RT throttling (kernel/sched/rt_bandwidth.c),
 *                        read and written as Linux's sysctls
 *
 * "self" is the reader's process: rtk's /proc has no /proc/<pid>
 * directories, so /proc/self is a directory rather than Linux's symlink
 * to one (readlink("/proc/self") is -EINVAL, not "<pid>").  /proc/stat
 * counts all non-idle time as system time: rtk does not split user from
 * kernel time.
 * Linux counterpart: fs/proc/array.c (proc_pid_status), fs/proc/base.c
 * (exe), fs/proc/cmdline.c, uptime.c, stat.c, interrupts.c,
 * kernel/sched/rt.c (sched_rt_handler).
 */
#include "kernel/fs/procfs.h"
#include "kernel/user/process.h"
#include "kernel/user/process_tree.h"
#include "kernel/irq/irq_stats.h"
#include "kernel/sched/rt_bandwidth.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "kernel/time/realtime.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

#define USER_HZ 100	/* /proc/stat's unit, Linux's on x86 */

static void show_status(struct seq_buf *m)
{
	struct process *p = current_process();
	u64 allowed = READ_ONCE(current->cpus_allowed.bits);

	seq_buf_printf(m, "Name:\t%s\nState:\tR (running)\n", current->name);
	seq_buf_printf(m, "Tgid:\t%d\nPid:\t%d\nPPid:\t%d\n",
		       p ? p->tgid : current->pid, current->pid,
		       process_ppid(p));
	seq_buf_printf(m, "Threads:\t%d\n", p ? READ_ONCE(p->nr_threads) : 1);
	seq_buf_printf(m, "Cpus_allowed:\t%llx\nCpus_allowed_list:\t",
		       (unsigned long long)allowed);
	seq_buf_print_cpulist(m, allowed, NR_CPUS);
	/* one memory node, as a machine without NUMA shows it */
	seq_buf_puts(m, "Mems_allowed:\t1\nMems_allowed_list:\t0\n");
}

/* comm: the thread's name, which execve sets to the program's (exec.c)
 * and prctl(PR_SET_NAME) changes. */
static void show_comm(struct seq_buf *m)
{
	seq_buf_printf(m, "%s\n", current->name);
}

/* stat: Linux's 52 fields, the ones rtk knows filled in (pid, comm,
 * state, ppid, pgrp and session as the pid, threads, priority, nice), the
 * rest 0 (fs/proc/array.c do_task_stat's order). */
static void show_stat_self(struct seq_buf *m)
{
	struct process *p = current_process();

	seq_buf_printf(m, "%d (%s) R %d %d %d 0 -1 0 0 0 0 0 0 0 0 0 %d %d %d 0",
		       p ? p->tgid : current->pid, current->name, process_ppid(p),
		       p ? p->tgid : current->pid, p ? p->tgid : current->pid,
		       current->prio - 100, PRIO_TO_NICE(current->static_prio),
		       p ? READ_ONCE(p->nr_threads) : 1);
	for (int i = 22; i <= 52; i++)
		seq_buf_puts(m, " 0");
	seq_buf_puts(m, "\n");
}

static void show_exe(struct seq_buf *m)
{
	struct process *p = current_process();
	char exe[sizeof(p->exe_path)];

	if (p)
		process_get_exe(p, exe, sizeof(exe));	/* execve changes it */
	seq_buf_puts(m, p ? exe : "/");
}

static void show_cmdline(struct seq_buf *m)
{
	seq_buf_printf(m, "%s\n", boot_info.cmdline);
}

static u64 idle_ns_total(void)
{
	u64 sum = 0;
	int cpu;

	for_each_online_cpu (cpu)
		sum += sched_cpu_idle_ns(cpu);
	return sum;
}

static void show_uptime(struct seq_buf *m)
{
	u64 up = ktime_get_ns(), idle = idle_ns_total();

	seq_buf_printf(m, "%llu.%02llu %llu.%02llu\n",
		       (unsigned long long)(up / NSEC_PER_SEC),
		       (unsigned long long)(up % NSEC_PER_SEC / 10000000),
		       (unsigned long long)(idle / NSEC_PER_SEC),
		       (unsigned long long)(idle % NSEC_PER_SEC / 10000000));
}

/* cpu_line - one /proc/stat cpu line: user nice system idle iowait irq
 * softirq steal guest guest_nice, in USER_HZ ticks. */
static void cpu_line(struct seq_buf *m, const char *name, u64 busy_ns,
		     u64 idle_ns)
{
	u64 tick = NSEC_PER_SEC / USER_HZ;

	seq_buf_printf(m, "%s 0 0 %llu %llu 0 0 0 0 0 0\n", name,
		       (unsigned long long)(busy_ns / tick),
		       (unsigned long long)(idle_ns / tick));
}

static void show_stat(struct seq_buf *m)
{
	u64 up = ktime_get_ns(), idle = 0, busy = 0, intr = 0, ctxt = 0;
	char name[8];
	int cpu;

	for_each_online_cpu (cpu) {
		u64 i = sched_cpu_idle_ns(cpu);

		idle += i;
		busy += up > i ? up - i : 0;
		intr += irq_stat_cpu_total(cpu);
		ctxt += sched_nr_switches(cpu);
	}
	cpu_line(m, "cpu ", busy, idle);
	for_each_online_cpu (cpu) {
		u64 i = sched_cpu_idle_ns(cpu);

		snprintf(name, sizeof(name), "cpu%d", cpu);
		cpu_line(m, name, up > i ? up - i : 0, i);
	}
	seq_buf_printf(m, "intr %llu\nctxt %llu\nbtime %llu\n",
		       (unsigned long long)intr, (unsigned long long)ctxt,
		       (unsigned long long)((ktime_get_real() - (ktime_t)up) /
					    NSEC_PER_SEC));
}

/* ipi_row - one /proc/interrupts row of IPI counts: Linux's name, the
 * per-CPU counts, Linux's description. */
static void ipi_row(struct seq_buf *m, const char *name, const int *types,
		    int nr_types, const char *what)
{
	int cpu;

	seq_buf_printf(m, "%4s:", name);
	for_each_online_cpu (cpu) {
		u64 n = 0;

		for (int i = 0; i < nr_types; i++)
			n += READ_ONCE(per_cpu(ipi_received[types[i]], cpu));
		seq_buf_printf(m, " %10llu", (unsigned long long)n);
	}
	seq_buf_printf(m, "   %s\n", what);
}

static void show_interrupts(struct seq_buf *m)
{
	static const int res[] = { IPI_RESCHEDULE };
	/* Linux's CAL row counts both function-call vectors */
	static const int cal[] = { IPI_CALL_FUNC, IPI_CALL_FUNC_SINGLE };
	int cpu;

	seq_buf_puts(m, "     ");
	for_each_online_cpu (cpu)
		seq_buf_printf(m, "       CPU%-2d", cpu);
	seq_buf_puts(m, "\n");
	ipi_row(m, "RES", res, 1, "Rescheduling interrupts");
	ipi_row(m, "CAL", cal, 2, "Function call interrupts");
}

static void show_rt_period(struct seq_buf *m)
{
	int period, runtime;

	sched_rt_bandwidth_get(&period, &runtime);
	seq_buf_printf(m, "%d\n", period);
}

static void show_rt_runtime(struct seq_buf *m)
{
	int period, runtime;

	sched_rt_bandwidth_get(&period, &runtime);
	seq_buf_printf(m, "%d\n", runtime);
}

/* parse_int - a sysctl's value: a decimal int, a newline allowed after. */
static int parse_int(const char *buf, int *val)
{
	long v;

	if (kstrtol(buf, 10, &v) || v < -2147483647L - 1 || v > 2147483647L)
		return -EINVAL;
	*val = (int)v;
	return 0;
}

/* write_rt - a new period (or runtime), the other setting kept;
 * sched_rt_bandwidth_set checks it as Linux's sched_rt_handler does */
static int write_rt(const char *buf, bool period_us)
{
	int period, runtime, v;

	if (parse_int(buf, &v))
		return -EINVAL;
	sched_rt_bandwidth_get(&period, &runtime);
	return period_us ? sched_rt_bandwidth_set(v, runtime) :
			   sched_rt_bandwidth_set(period, v);
}

static int write_rt_period(const char *buf, size_t len)
{
	return write_rt(buf, true);
}

static int write_rt_runtime(const char *buf, size_t len)
{
	return write_rt(buf, false);
}

const struct proc_entry proc_entries[] = {
	{ "/proc/self/status", S_IFREG | 0444, show_status, NULL },
	{ "/proc/self/exe", S_IFLNK | 0777, show_exe, NULL },
	{ "/proc/self/comm", S_IFREG | 0444, show_comm, NULL },
	{ "/proc/self/stat", S_IFREG | 0444, show_stat_self, NULL },
	{ "/proc/cpuinfo", S_IFREG | 0444, arch_show_cpuinfo, NULL },
	{ "/proc/cmdline", S_IFREG | 0444, show_cmdline, NULL },
	{ "/proc/uptime", S_IFREG | 0444, show_uptime, NULL },
	{ "/proc/stat", S_IFREG | 0444, show_stat, NULL },
	{ "/proc/interrupts", S_IFREG | 0444, show_interrupts, NULL },
	{ "/proc/sys/kernel/sched_rt_period_us", S_IFREG | 0644, show_rt_period,
	  write_rt_period },
	{ "/proc/sys/kernel/sched_rt_runtime_us", S_IFREG | 0644,
	  show_rt_runtime, write_rt_runtime },
};
const unsigned int proc_nr_entries = ARRAY_SIZE(proc_entries);
