/*
 * kernel/shell/cmd_latency_trace.c - `latency trace` and `latency thresh
 * US` (LATENCY_TRACE, kernel/debug/latency_trace.h): print the worst
 * section's function trace, set the threshold under which sections are
 * not kept.  Reached from cmd_latency.c's `latency` command.
 *
 * One line per call, after Linux's latency_trace output:
 *	  cpu flags   time   function <- parent
 *	    1 d.h1     12us : handle_irq_event <- generic_handle_irq
 * flags: 'd' irqs off; 'N' need-resched; 'h' hard irq, 's' softirq;
 * the preemption depth (hex, '.' for 0).
 *
 * Linux counterpart: kernel/trace/trace_output.c (lat_print_generic),
 * Documentation/trace/ftrace.rst ("irqsoff" output).
 */
#include "kernel/debug/latency_trace.h"
#include "kernel/debug/latency_timing.h"
#include "kernel/ksyms.h"
#include "kernel/mm/slab.h"
#include "kernel/preempt_count.h"
#include "kernel/printk.h"
#include "kernel/time/ktime.h"
#include "lib/errno.h"
#include "lib/string.h"

/* ltr_flags - the four flag characters of entry e into buf[5]. */
static void ltr_flags(const struct ltr_entry *e, char *buf)
{
	u32 depth = e->preempt_count & PREEMPT_MASK;

	buf[0] = (e->flags & LTR_IRQS_OFF) ? 'd' : '.';
	buf[1] = (e->flags & LTR_RESCHED) ? 'N' : '.';
	buf[2] = (e->preempt_count & HARDIRQ_MASK) ? 'h' :
		 (e->preempt_count & SOFTIRQ_MASK) ? 's' : '.';
	buf[3] = depth ? (depth < 16 ? "0123456789abcdef"[depth] : '+') : '.';
	buf[4] = '\0';
}

/* ksym_name - the bare symbol name of addr, or its hex address. */
static const char *ksym_name(unsigned long addr, char *buf, size_t len)
{
	unsigned long off, size;
	const char *name = ksym_lookup(addr, &off, &size);

	if (name)
		return name;
	ksym_snprint(buf, len, addr);
	return buf;
}

/* Context: task (the shell); may sleep (allocates). */
static int print_trace(void)
{
	struct ltr_entry *buf;
	struct ltr_info in;
	char a[96], b[96], f[5];
	u32 i;

	buf = kmalloc(LTR_ENTRIES * sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (!latency_trace_read(&in, buf, LTR_ENTRIES)) {
		console_printf("latency trace: none since boot, reset or thresh "
			       "(threshold %llu us)\n",
			       (unsigned long long)latency_trace_thresh_us());
		kfree(buf);
		return 0;
	}
	console_printf("# latency trace: %s section of %llu us on CPU %d, "
		       "%s (pid %d); threshold %llu us\n",
		       latency_kind_name((enum latency_kind)in.kind),
		       (unsigned long long)in.ns / 1000, in.cpu, in.comm,
		       in.pid, (unsigned long long)latency_trace_thresh_us());
	ksym_snprint(a, sizeof(a), in.start_ip);
	ksym_snprint(b, sizeof(b), in.end_ip);
	console_printf("#   began at %s, ended at %s\n", a, b);
	console_printf("#   %u calls recorded, %u more lost\n", in.nr, in.lost);
	console_printf("#  cpu flags   time   function <- parent\n");
	for (i = 0; i < in.nr; i++) {
		const struct ltr_entry *e = &buf[i];
		u64 us = e->cycles > in.start_cycles ?
			 ktime_cycles_to_ns(e->cycles - in.start_cycles) / 1000 : 0;

		ltr_flags(e, f);
		console_printf("  %4d %s %6lluus : %s <- %s\n", in.cpu, f,
			       (unsigned long long)us,
			       ksym_name(e->ip, a, sizeof(a)),
			       ksym_name(e->parent, b, sizeof(b)));
	}
	kfree(buf);
	return 0;
}

/*
 * latency_trace_cmd - `latency trace` / `latency thresh [US]`.
 * Context: task (the shell).
 */
int latency_trace_cmd(int argc, char **argv)
{
	unsigned long us;

	if (!latency_trace_built()) {
		console_printf("latency %s: LATENCY_TRACE not built "
			       "(make LATENCY_TRACE=1)\n", argv[1]);
		return -ENODEV;
	}
	if (argc == 2 && !strcmp(argv[1], "trace"))
		return print_trace();
	if (argc == 2 && !strcmp(argv[1], "thresh")) {
		console_printf("latency thresh: %llu us\n",
			       (unsigned long long)latency_trace_thresh_us());
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "thresh") &&
	    !kstrtoul(argv[2], 10, &us)) {
		latency_trace_set_thresh_us(us);
		console_printf("latency thresh: %lu us (worst trace reset)\n",
			       us);
		return 0;
	}
	console_printf("usage: latency trace | latency thresh [US]\n");
	return -EINVAL;
}
