/*
 * kernel/user/sys_reboot.c - reboot(2): power off, restart or halt the
 * machine, as an init (busybox's `poweroff -f`) asks at the end.
 *
 * Linux's checks, in its order: magic1 must be LINUX_REBOOT_MAGIC1 and
 * magic2 one of the four MAGIC2 words, else -EINVAL; then the command:
 * POWER_OFF (arch_poweroff: ACPI S5, QEMU's ports), RESTART
 * (arch_reboot), HALT (this CPU stops; the others run on, as nothing
 * stops them -- Linux stops them first), CAD_ON / CAD_OFF (0: rtk has
 * no ctrl-alt-del action to switch), anything else -EINVAL.  Every
 * caller counts as having CAP_SYS_BOOT (rtk has no users).
 * Linux counterpart: kernel/reboot.c (SYSCALL_DEFINE4(reboot),
 * kernel_power_off, kernel_restart, kernel_halt).
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/uapi.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

long sys_reboot(int magic1, int magic2, unsigned int cmd, void __user *arg)
{
	might_sleep();
	if ((unsigned int)magic1 != LINUX_REBOOT_MAGIC1 ||
	    (magic2 != LINUX_REBOOT_MAGIC2 && magic2 != LINUX_REBOOT_MAGIC2A &&
	     magic2 != LINUX_REBOOT_MAGIC2B && magic2 != LINUX_REBOOT_MAGIC2C))
		return -EINVAL;
	switch (cmd) {
	case LINUX_REBOOT_CMD_POWER_OFF:
		pr_emerg("reboot: Power down\n");
		arch_poweroff();
	case LINUX_REBOOT_CMD_RESTART:
		pr_emerg("reboot: Restarting system\n");
		arch_reboot();
	case LINUX_REBOOT_CMD_HALT:
		pr_emerg("reboot: System halted\n");
		arch_halt_forever();
	case LINUX_REBOOT_CMD_CAD_ON:
	case LINUX_REBOOT_CMD_CAD_OFF:
		return 0;
	default:
		return -EINVAL;
	}
}
