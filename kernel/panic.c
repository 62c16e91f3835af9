/*
 * kernel/panic.c - panic(), BUG()/WARN() back ends and dump_stack().
 *
 * panic() is the end of the line: it prints "Kernel panic - not syncing:"
 * (the harness looks for exactly that), the registers and a symbolised
 * backtrace, stops the other CPUs (arch_stop_other_cpus, an NMI
 * broadcast once SMP is up) and halts.  __bug() and __warn() implement
 * lib/bug.h for the kernel.  Linux counterpart: kernel/panic.c,
 * lib/bug.c.
 */
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "arch/x86_64/arch.h"
#include "lib/bug.h"
#include "lib/vsnprintf.h"

static int panic_cpu_entered;

/*
 * panic - see panic.h.
 * Context: any.  Never returns.  Interrupts are disabled first so that
 * nothing else runs on this CPU while the report prints.
 */
__noreturn void panic(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	arch_local_irq_disable();
	if (__atomic_exchange_n(&panic_cpu_entered, 1, __ATOMIC_ACQ_REL))
		arch_halt_forever();	/* another CPU is already panicking */
	oops_in_progress = 1;
	va_start(ap, fmt);
	vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", buf);
	arch_show_current_regs();
	arch_show_backtrace(arch_frame_pointer());
	arch_stop_other_cpus();	/* an NMI each; no-op with one CPU online */
	printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", buf);
	arch_halt_forever();
}

void dump_stack(void)
{
	arch_show_backtrace(arch_frame_pointer());
}

__noreturn void __bug(const char *file, int line, const char *expr)
{
	panic("BUG at %s:%d: %s", file, line, expr);
}

/*
 * __warn - report a WARN_ON(): where, what, and the caller's backtrace;
 * the kernel carries on.
 * Context: any.
 */
unsigned long warn_count;

void __warn(const char *file, int line, const char *fmt, ...)
{
	char buf[192];
	va_list ap;

	__atomic_add_fetch(&warn_count, 1, __ATOMIC_RELAXED);
	va_start(ap, fmt);
	vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printk(KERN_WARNING "------------[ cut here ]------------\n");
	printk(KERN_WARNING "WARNING: at %s:%d: %s\n", file, line, buf);
	arch_show_backtrace(arch_frame_pointer());
	printk(KERN_WARNING "---[ end trace ]---\n");
}
