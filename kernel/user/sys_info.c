/*
 * kernel/user/sys_info.c - the calls that tell a program who and where it
 * is: uname, the user and group ids and prctl's thread name (getppid
 * is the process tree's: process_tree.c).
 *
 * uname says "Linux": the programs rtk runs are Linux programs, and some
 * test the name (busybox's `uname`, rt-tests' JSON output records it);
 * the release is Debian 12's kernel series (6.1), the ABI rtk's calls
 * follow, with "-rtk-" and the preemption model after it, so a reader of
 * any log can tell the two kernels apart.  Every process is root (uid,
 * gid 0: rtk has no users).
 * Linux counterpart: kernel/sys.c (newuname, getuid, prctl).
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/sched/sched.h"
#include "kernel/version.h"
#include "lib/errno.h"
#include "lib/string.h"


long sys_uname(struct new_utsname __user *name)
{
	static const struct new_utsname uts = {
		.sysname = "Linux",
		.nodename = "rtk",
		.release = "6.1.0-rtk-" RTK_PREEMPT_NAME,
		.version = "#1 SMP PREEMPT_" RTK_PREEMPT_NAME " rtk " RTK_VERSION,
		.machine = "x86_64",
		.domainname = "(none)",
	};

	return copy_to_user(name, &uts, sizeof(uts)) ? -EFAULT : 0;
}

long sys_getuid(void)
{
	return 0;
}

long sys_geteuid(void)
{
	return 0;
}

long sys_getgid(void)
{
	return 0;
}

long sys_getegid(void)
{
	return 0;
}

/*
 * sys_prctl - PR_SET_NAME and PR_GET_NAME, the thread's name (the one
 * `ps` shows): at most TASK_COMM_LEN - 1 bytes are kept, the rest cut,
 * as Linux does; any other option is -EINVAL.
 * Context: task, may fault in user memory.  Locking: none: the name is
 * written whole and NUL-padded, and its readers (ps, the logs) copy it
 * without a lock and terminate their copy, so a read racing a rename
 * shows a mix of the two names at worst -- Linux's readers of comm
 * accept the same.
 */
long sys_prctl(int option, unsigned long arg2)
{
	char comm[TASK_COMM_LEN];
	long n;

	might_sleep();
	switch (option) {
	case PR_SET_NAME:
		n = strncpy_from_user(comm, (const char __user *)arg2,
				      sizeof(comm) - 1);
		if (n < 0)
			return n;
		memset(comm + n, 0, sizeof(comm) - (size_t)n);
		memcpy(current->name, comm, sizeof(comm));
		return 0;
	case PR_GET_NAME:
		memcpy(comm, current->name, sizeof(comm));
		comm[sizeof(comm) - 1] = '\0';
		return copy_to_user((char __user *)arg2, comm, sizeof(comm)) ?
			       -EFAULT :
			       0;
	}
	return -EINVAL;
}
