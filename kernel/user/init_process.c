/*
 * kernel/user/init_process.c - `init=PATH`: boot a user program as the
 * first process, as Linux's kernel_init runs /init or init=.
 *
 * run_init_process():
 *   [1] PATH started as a new process (process_spawn_init): argv {PATH},
 *       envp HOME=/ TERM=linux, fds 0, 1 and 2 on /dev/console, pid 1
 *       (kernel/sched/tasklist.c keeps pid 1 for it); a #! script works
 *       too (binfmt_script.c);
 *   [2] it cannot start: Linux's "Failed to execute PATH (error -N)",
 *       and the kernel shell follows (Linux would try /sbin/init and
 *       friends, then panic "No working init found");
 *   [3] it is the child reaper (process_tree.c): orphans are handed to
 *       it, to be reaped by its wait4; the boot flow waits for it; the
 *       console belongs to it meanwhile (the shell does not read);
 *   [4] it exits: Linux panics "Attempted to kill init! exitcode=0x..."
 *       (the wait status); rtk prints that line and returns to its own
 *       shell instead -- a course machine, where a student's init that
 *       exits should cost a prompt, not a reboot.  The shell is the way
 *       back to rtk's tools: let init exit (or power off from it).
 * Without init=, rtk's shell runs, as before.  The boot flow itself is
 * the kernel task "init" (pid 2); Linux's pid 1 becomes the user program
 * by exec, rtk's starts a new process and keeps the boot flow for the
 * shell.
 * Linux counterpart: init/main.c (init_setup, kernel_init,
 * run_init_process, try_to_run_init_process), kernel/exit.c
 * (find_child_reaper's panic).
 */
#include "kernel/user/init_process.h"
#include "kernel/user/process.h"
#include "kernel/user/process_tree.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

static char init_path[128];

/* `init=PATH`: an absolute path of at most 127 bytes (else the value is
 * refused and the shell stays the default). */
static int __init parse_init(const char *val)
{
	if (!val || val[0] != '/')
		return -EINVAL;
	if (strlen(val) >= sizeof(init_path))
		return -ENAMETOOLONG;
	strscpy(init_path, val, sizeof(init_path));
	return 0;
}
CMDLINE_PARAM("init", parse_init);

void run_init_process(void)
{
	struct process *p;
	int err, status;

	might_sleep();
	if (!init_path[0])
		return;
	pr_info("Run %s as init process\n", init_path);
	p = process_spawn_init(init_path, &err);			/* [1] */
	if (!p) {							/* [2] */
		pr_err("Failed to execute %s (error %d)\n", init_path, err);
		pr_info("init: back to the kernel shell\n");
		return;
	}
	process_tree_set_reaper(p);	/* orphans are init's to reap */
	status = process_wait(p);					/* [3] */
	process_tree_set_reaper(NULL);
	process_put(p);
	pr_emerg("Attempted to kill init! exitcode=0x%08x\n", status);	/* [4] */
	pr_info("init: rtk does not panic here: back to the kernel shell\n");
}
