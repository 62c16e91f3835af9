/*
 * kernel/shell/cmd_basic.c - the basic shell commands: echo, uptime,
 * dmesg, test, poweroff, reboot.
 */
#include "kernel/shell/shell.h"
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/sched/sched.h"
#include "kernel/time/ktime.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"

static int cmd_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		console_printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	console_printf("\n");
	return 0;
}
SHELL_COMMAND(echo, "print the arguments", cmd_echo);

/* cmd_uptime - the time since boot, the CPUs online and the context
 * switches of all CPUs so far (Linux's `ctxt` line of /proc/stat): read
 * twice, it gives a load's switch rate (tools/compare_linux.py sets it
 * beside Linux's).  The counts are read racily; each only grows. */
static int cmd_uptime(int argc, char **argv)
{
	u64 ns = ktime_get_ns();
	unsigned long switches = 0;
	int cpu;

	if (shell_no_args(argc, argv))
		return -EINVAL;
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			switches += sched_nr_switches(cpu);
	console_printf("up %llu.%03llu s, %d CPU%s online, %lu context "
		       "switches\n",
		       (unsigned long long)(ns / 1000000000ULL),
		       (unsigned long long)(ns / 1000000ULL % 1000),
		       num_online_cpus(), num_online_cpus() == 1 ? "" : "s",
		       switches);
	return 0;
}
SHELL_COMMAND(uptime, "time since boot, the CPUs online and the context switches so far", cmd_uptime);

static int cmd_dmesg(int argc, char **argv)
{
	static char buf[16384];
	size_t n;

	if (shell_no_args(argc, argv))
		return -EINVAL;
	n = printk_log_read(buf, sizeof(buf));
	/* A line per console_write: the console lock keeps interrupts off
	 * while it is held, and 16 KiB at once was one section of all the
	 * serial output (1.4 s at 115200 baud) and the screen's. */
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(buf + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (buf + i)) + 1 : n - i;

		console_write(buf + i, len);
		i += len;
	}
	return 0;
}
SHELL_COMMAND(dmesg, "print the newest 16 KiB of the kernel log", cmd_dmesg);

/*
 * cmd_test - `test [suite ...]`, `test -l`: run self-test suites and end
 * with the summary line the harness and people read.
 * Context: task (the shell).
 */
static int cmd_test(int argc, char **argv)
{
	struct ktest_totals tot = { 0 };
	char list[SHELL_LINE_MAX] = "";

	if (argc == 2 && !strcmp(argv[1], "-l")) {
		ktest_list_suites();
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (!ktest_suite_exists(argv[i])) {
			console_printf("test: no suite '%s' (test -l lists them)\n",
				       argv[i]);
			return -EINVAL;
		}
		if (i > 1)
			strlcat(list, ",", sizeof(list));
		strlcat(list, argv[i], sizeof(list));
	}
	ktest_run(list, &tot);
	console_printf("%d passed, %d failed, %d skipped\n", tot.passed,
		       tot.failed, tot.skipped);
	return 0;
}
SHELL_COMMAND(test, "test [suite ...] | -l: run self-tests (KTAP)", cmd_test);

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	console_printf("rtk: powering off\n");
	arch_poweroff();
}
SHELL_COMMAND(poweroff, "power the machine off (ACPI S5 / QEMU exit)", cmd_poweroff);

static int cmd_reboot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	console_printf("rtk: rebooting\n");
	arch_reboot();
}
SHELL_COMMAND(reboot, "reset the machine", cmd_reboot);
