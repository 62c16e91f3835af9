/*
 * kernel/main.c - the boot sequence, from kmain() to the shell.
 *
 * Read this file first: each call is one subsystem coming up, in
 * dependency order.  The boot code (boot/) calls kmain() on the boot CPU in
 * 64-bit mode with the boot page tables; interrupts are off.
 * Linux counterpart: init/main.c start_kernel().
 */
#include "kernel/version.h"
#include "kernel/printk.h"
#include "kernel/console.h"
#include "kernel/cmdline.h"
#include "kernel/ktest.h"
#include "kernel/panic.h"
#include "kernel/smp.h"
#include "kernel/sched/sched.h"
#include "kernel/shell/shell.h"
#include "kernel/user/init_process.h"
#include "kernel/debug/softlockup.h"
#include "kernel/debug/latency_timing.h"
#include "kernel/mm/mm.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "arch/x86_64/arch.h"
#include "drivers/uart16550.h"
#include "drivers/serial_irq.h"
#include "drivers/lpptest.h"
#include "kernel/irq/manage.h"
#include "kernel/irq/irqdesc.h"
#include "kernel/time/timer.h"
#include "drivers/vga_text.h"
#include "drivers/fbcon.h"
#include "drivers/i8042.h"
#include "drivers/rtc_cmos.h"
#include "kernel/fs/procfs.h"
#include "lib/string.h"
#include "kernel/sched/deferred.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/futex/futex.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/file.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/fault_inject.h"
#include "kernel/percpu_locked.h"

static bool selftest_mode;
static char selftest_list[256];

/* `selftest` runs every suite, `selftest=a,b` only those; then power off. */
static int __init parse_selftest(const char *val)
{
	selftest_mode = true;
	if (val)
		strscpy(selftest_list, val, sizeof(selftest_list));
	return 0;
}
CMDLINE_PARAM("selftest", parse_selftest);

static struct console serial_console = {
	.name = "ttyS0",
	.write = uart_write,
	.poll_char = uart_getc,
};

static struct console vga_console = {
	.name = "vga",
	.write = vga_text_write,
};

static void __init console_init(void)
{
	uart_init();
	register_console(&serial_console);
	/* QEMU -kernel (Multiboot1) always starts in 80x25 text mode; GRUB
	 * says so with an EGA-text framebuffer tag (type 2). */
	if (boot_info.has_framebuffer ? boot_info.fb_type == 2
				       : !strcmp(boot_info.loader, "multiboot1")) {
		vga_text_init(boot_info.has_framebuffer ? boot_info.fb_addr : 0xB8000,
			      boot_info.fb_width, boot_info.fb_height);
		register_console(&vga_console);
	} else {
		fbcon_init();	/* a linear framebuffer (GRUB, UEFI) */
	}
}

static __noreturn void run_selftests(void)
{
	struct ktest_totals tot = { 0 };

	ktest_run(selftest_list, &tot);
	console_printf("# rtk-selftest: %d passed, %d failed, %d skipped\n",
		       tot.passed, tot.failed, tot.skipped);
	console_printf("rtk: selftest done, powering off\n");
	arch_poweroff();
}

static void __init time_init(void)
{
	u64 hz = arch_time_init();	/* prints the reference it used */

	if (!hz)
		panic("time: no reference clock to calibrate the TSC against");
	ktime_init(hz);
	printk_set_time_source(ktime_get_ns);
}

/*
 * kmain - boot the kernel.
 * Context: boot CPU, interrupts off, boot stack.  Never returns.
 */
__noreturn void kmain(u32 magic, u32 info_phys)
{
	int err = arch_boot_parse(magic, info_phys);

	console_init();
	arch_cpu_init();
	if (err)
		panic("boot: unknown boot loader magic %#x", magic);
	pr_info("rtk %s (PREEMPT_%s) booting via %s\n", RTK_VERSION,
		RTK_PREEMPT_NAME, boot_info.loader);
	pr_info("cmdline: %s\n", boot_info.cmdline);
	cmdline_parse(boot_info.cmdline);
	acpi_init();	/* before time (HPET/PM timer) and SMP (MADT) */
	time_init();
	mm_init();
	mm_struct_init();	/* init_mm, the kernel address space */
	percpu_init_bsp();	/* needs pages; before anything per-CPU */
	sched_init();	/* this flow becomes the task "init" */
	set_cpu_online(0, true);
	arch_irq_init();	/* PIC masked, LAPIC, IOAPIC, LAPIC timer */
	irq_desc_init();	/* before the first request: the tick's */
	raw_local_irq_enable();
	tick_init();	/* the timer line, SA_NODELAY per CPU; CPU 0 ticks */
	smp_init();	/* APs, IPIs: "smp: N CPUs online" */
	percpu_locked_init();	/* DEFINE_PER_CPU_LOCKED locks, all CPUs */
	irq_init();	/* lines, softirqs (ksoftirqd/N under rt) */
	init_timers();	/* timer_list, TIMER_SOFTIRQ */
	serial_irq_init();	/* COM1 input via request_irq */
	lpptest_init();	/* COM2: LPPTEST's stimulus line, if present */
	i8042_init();	/* PS/2 keyboard: input beside COM1 */
	fbcon_late_init();	/* the screen console's kthread */
	latency_timing_init();	/* every CPU's per-CPU copy exists now */
	softlockup_init();	/* watchdog/N on every online CPU */
	deferred_init();	/* desched: delayed put_task_struct / mmdrop */
	rcu_init();	/* rcu_preempt|rcu_sched gp kthread, rcu_cb */
	futex_init();	/* the hash of futex queues */
	fs_init();	/* the root file system, from the initramfs */
	rtc_clock_init();	/* CLOCK_REALTIME from the CMOS clock */
	dev_init();
	procfs_init();	/* /proc and /sys, generated at open */	/* /dev/console, null, cpu_dma_latency if it lacked them */
	fault_inject_boot_done();	/* failslab=, fail_page_alloc= from here */

	if (selftest_mode)
		run_selftests();
	run_init_process();	/* init=PATH: pid 1 until it exits */
	pr_info("rtk: boot complete, shell on the console\n");
	shell_run();
}
