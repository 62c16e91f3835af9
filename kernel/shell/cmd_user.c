/*
 * kernel/shell/cmd_user.c - user programs from the shell:
 *
 *	run [VAR=VALUE...] PATH [ARGS...] [&]
 *				start the program at PATH in the file
 *				system ("hello" is "/hello"; symlinks
 *				followed) with argv = PATH ARGS and envp =
 *				HOME=/ TERM=linux VAR=VALUE..., wait for it
 *				and print its exit status ("exited 0",
 *				"killed by signal 11"); with a final "&"
 *				return at once, a helper thread prints the
 *				status when it ends
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
#define RUN_MAX_ENV 16

/* run_strerror - why a program did not start, in words. */
static const char *run_strerror(int err)
{
	switch (err) {
	case -ENOENT:	return "no such file (or its interpreter)";
	case -ENOTDIR:	return "a path component is not a directory";
	case -ELOOP:	return "too many levels of symbolic links";
	case -ENAMETOOLONG: return "file name too long";
	case -EACCES:	return "not a regular file";
	case -ENOEXEC:	return "not an x86-64 ELF64 executable rtk can load";
	case -ELIBBAD:	return "its interpreter is not a loadable ELF";
	case -EIO:	return "the file is shorter than its headers say";
	case -E2BIG:	return "argument list too long";
	default:	return "out of memory";
	}
}

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
	char *envp[2 + RUN_MAX_ENV + 1] = { "HOME=/", "TERM=linux" };
	int envc = 2, first = 1, err = 0;
	const char *out = NULL;
	struct process *p;

	if (background)
		argc--;
	/* a trailing `> FILE`: stdout and stderr to FILE, as sh's > FILE 2>&1 */
	if (argc > 2 && !strcmp(argv[argc - 2], ">")) {
		out = argv[argc - 1];
		argc -= 2;
	}
	/* leading VAR=VALUE words are the environment, as in sh */
	while (first < argc && strchr(argv[first], '=') &&
	       envc < 2 + RUN_MAX_ENV)
		envp[envc++] = argv[first++];
	envp[envc] = NULL;
	if (argc - first < 1 || argc - first > RUN_MAX_ARGS) {
		console_printf("usage: run [VAR=VALUE...] PATH [ARGS...] [> FILE] [&]  (`programs` lists them)\n");
		return -EINVAL;
	}
	p = process_spawn_out(argc - first, &argv[first], envp, out, &err);
	if (!p) {
		console_printf("run: %s: %s (%d)\n", argv[first],
			       run_strerror(err), err);
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
SHELL_COMMAND(run, "run [VAR=VALUE...] PATH [ARGS...] [> FILE] [&]: a user program from the file system",
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
