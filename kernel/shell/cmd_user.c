/*
 * kernel/shell/cmd_user.c - user programs from the shell:
 *
 *	run NAME [ARGS...] [&]	start NAME from the initramfs with argv =
 *				NAME ARGS, wait for it and print its exit
 *				status ("exited 0", "killed by signal 11");
 *				with a final "&" return at once, a helper
 *				thread prints the status when it ends
 *	kill PID		end user process PID (or the process of
 *				thread PID) as by SIGKILL
 *	programs		list the initramfs's files
 *
 * Linux counterpart: a shell's fork+execve+waitpid, kill(1), ls /.
 */
#include "kernel/shell/shell.h"
#include "kernel/user/process.h"
#include "kernel/user/initramfs.h"
#include "kernel/sched/kthread.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

#define RUN_MAX_ARGS 32

/* print_status - a wait status (W_EXITCODE) in words. */
static void print_status(int pid, const char *name, int status)
{
	if (status & 0x7f)
		console_printf("[%d] %s: killed by signal %d\n", pid, name,
			       status & 0x7f);
	else
		console_printf("[%d] %s: exited %d\n", pid, name,
			       (status >> 8) & 0xff);
}

/* run_waiter - a background run's waiter thread. */
static int run_waiter(void *data)
{
	struct process *p = data;
	int status = process_wait(p);

	print_status(p->tgid, p->name, status);
	process_put(p);
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	bool background = argc > 1 && !strcmp(argv[argc - 1], "&");
	struct process *p;
	int err = 0;

	if (background)
		argc--;
	if (argc < 2 || argc - 1 > RUN_MAX_ARGS) {
		console_printf("usage: run NAME [ARGS...] [&]  (`programs` lists them)\n");
		return -EINVAL;
	}
	p = process_spawn(argc - 1, &argv[1], &err);
	if (!p) {
		console_printf("run: %s: %s\n", argv[1],
			       err == -ENOENT ? "no such program in the initramfs" :
			       err == -ENOEXEC ? "not a static x86-64 ELF executable" :
			       "out of memory");
		return err;
	}
	if (background) {
		console_printf("[%d] %s started\n", p->tgid, p->name);
		if (!kthread_run(run_waiter, p, "wait/%d", p->tgid)) {
			console_printf("run: no memory for the waiter; waiting here\n");
			run_waiter(p);
		}
		return 0;
	}
	print_status(p->tgid, p->name, process_wait(p));
	process_put(p);
	return 0;
}
SHELL_COMMAND(run, "run NAME [ARGS...] [&]: a user program from the initramfs",
	      cmd_run);

static int cmd_kill(int argc, char **argv)
{
	long pid;
	int err;

	if (argc != 2 || kstrtol(argv[1], 10, &pid)) {
		console_printf("usage: kill PID\n");
		return -EINVAL;
	}
	err = process_kill((int)pid);
	if (err)
		console_printf("kill: %ld: no such user process\n", pid);
	return err;
}
SHELL_COMMAND(kill, "kill PID: end a user process (SIGKILL)", cmd_kill);

static void print_program(const char *name, size_t size, void *arg)
{
	(void)arg;
	console_printf("%8zu %s\n", size, name);
}

static int cmd_programs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (initramfs_for_each(print_program, NULL) < 0)
		console_printf("programs: no initramfs (boot with -initrd)\n");
	return 0;
}
SHELL_COMMAND(programs, "list the user programs in the initramfs", cmd_programs);
