/*
 * tests/kernel/test_user_execve.c - execve(2) from user space, #!
 * scripts and the first process (issue 30 items 2 and 8;
 * kernel/user/exec.c, binfmt_script.c, init_process.c), driven from
 * ring 3 by user/tests/t_exec.c (its header lists every mode) and
 * t_init.c.
 *
 * Scenario of each t_exec case: [1] a warm-up run of the same mode (the
 * slab caches, the per-CPU magazines, the page tables' first pages);
 * [2] a snapshot: free + slab pages, slab objects, mm_structs, tasks and
 * kernel stacks in use, once every exited task is gone; [3] `t_exec
 * MODE` must exit 0 -- it ends by exec'ing t_exec_child, which checks
 * what the exec gave it and exits with its failures, so the exit status
 * is the new image's; a failure of t_exec itself before the exec is its
 * own count; each failed check printed what it expected and saw; [4] the
 * snapshot must be back: the old address space (and, in `threads`, the
 * killed threads) freed by the exec, the new one by the exit.
 * The kernel's own loader takes #! scripts too (process_spawn: the
 * shell's `run`), checked here without an initramfs but for t_exec_child.
 */
#include "tests/kernel/user_helpers.h"
#include "kernel/ktest.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/mm/kstack.h"
#include "kernel/sched/sched.h"
#include "kernel/user/process.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

struct exec_snap {
	struct mem_snap mem;
	int tasks;
	unsigned int kstacks;
};

static void count_task(struct task_struct *p, void *arg)
{
	(*(int *)arg)++;
}

static void exec_snap(struct exec_snap *s)
{
	user_snap(&s->mem);
	s->tasks = 0;
	sched_for_each_task(count_task, &s->tasks);
	s->kstacks = kstack_nr_in_use();
}

static void expect_snap_back(struct ktest *t, const struct exec_snap *a)
{
	struct exec_snap b;

	user_expect_same(t, &a->mem);
	exec_snap(&b);
	KTEST_EXPECT(t, b.tasks == a->tasks, "tasks back to %d, saw %d",
		     a->tasks, b.tasks);
	KTEST_EXPECT(t, b.kstacks == a->kstacks,
		     "kernel stacks back to %u, saw %u", a->kstacks, b.kstacks);
}

/* run_mode - steps [1]-[4] for `t_exec mode`. */
static void run_mode(struct ktest *t, const char *mode)
{
	struct exec_snap before;
	char line[48];
	int status;

	if (!user_have_program(t, "t_exec") ||
	    !user_have_program(t, "t_exec_child"))
		return;
	snprintf(line, sizeof(line), "t_exec %s", mode);
	user_run(t, line);						/* [1] */
	exec_snap(&before);						/* [2] */
	status = user_run(t, line);					/* [3] */
	KTEST_EXPECT(t, status == 0, "t_exec %s: expected exit 0, got status "
		     "%#x (failed checks above)", mode, status);
	expect_snap_back(t, &before);					/* [4] */
}

static void test_execve_static_program_sees_its_argv_envp_auxv(struct ktest *t)
{
	run_mode(t, "static");
}

static void test_execve_relative_path_walks_from_the_cwd(struct ktest *t)
{
	run_mode(t, "relative");
}

static void test_execve_pie_with_interpreter(struct ktest *t)
{
	if (!user_have_program(t, "t_pie_interp"))
		return;
	run_mode(t, "pie");
}

static void test_execveat_empty_path_runs_the_fd(struct ktest *t)
{
	run_mode(t, "empty");
}

static void test_execve_failures_return_errno_to_the_old_image(struct ktest *t)
{
	run_mode(t, "errors");
}

static void test_execve_closes_cloexec_fds_and_keeps_the_others(struct ktest *t)
{
	run_mode(t, "fds");
}

static void test_execve_resets_handled_signals_keeps_ignored_and_mask(
	struct ktest *t)
{
	run_mode(t, "signals");
}

/*
 * Scenario: t_exec threads -- the leader and a waiter block in
 * FUTEX_WAIT on a word nobody wakes, a third thread execs.  Expected:
 * both sleepers are killed and waited for (de_thread), the child sees
 * one thread and getpid() == gettid() == the old pid (the non-leader
 * took the thread group's id), and every task and kernel stack is back.
 */
static void test_execve_from_a_thread_kills_the_others_and_keeps_the_pid(
	struct ktest *t)
{
	run_mode(t, "threads");
}

static void test_execve_runs_nested_scripts_and_refuses_bad_ones(struct ktest *t)
{
	run_mode(t, "script");
}

/* The kernel's loader goes through exec_binprm too: a script run by
 * process_spawn, with its argument, gives the interpreter the
 * rewritten argv (t_exec_child checks it through EXPECT_ARGV). */
static void test_kernel_spawn_runs_a_script(struct ktest *t)
{
	static const char script[] = "#!/t_exec_child  spawn arg\n";
	char *const argv[] = { "/t_exec.kscript", "z", NULL };
	char *const envp[] = { "EXPECT_ARGV=/t_exec_child|spawn arg|"
			       "/t_exec.kscript|z",
			       "EXPECT_EXE=/t_exec_child",
			       "EXPECT_EXECFN=/t_exec.kscript",
			       "EXPECT_COMM=t_exec.kscript", NULL };
	struct inode *root, *inode;
	struct process *p;
	int err = 0;

	if (!user_have_program(t, "t_exec_child"))
		return;
	root = get_fs_root(&init_fs);
	KTEST_ASSERT(t, root, "no root");
	err = path_openat(root, root, argv[0], O_CREAT | O_WRONLY | O_TRUNC,
			  0755, &inode);
	KTEST_ASSERT(t, !err, "create %s: %d", argv[0], err);
	KTEST_EXPECT_EQ(t, inode_write(inode, script, sizeof(script) - 1, 0),
			(long)sizeof(script) - 1);
	iput(inode);
	p = process_spawn_env(2, argv, envp, &err);
	KTEST_EXPECT(t, p, "spawn of a script: expected a process, got %d", err);
	if (p) {
		KTEST_EXPECT_EQ(t, process_wait(p), 0);
		process_put(p);
	}
	do_unlinkat(root, root, argv[0]);
	iput(root);
}

/*
 * Scenario: t_init started as the first process would be
 * (process_spawn_init: pid 1, argv {"/t_init"}, the default
 * environment, fds on /dev/console); it checks getpid() == 1, its fds,
 * mount/umount2/sync/reboot's answers and exits with its failures (the
 * command line has no init=, so it does not power off).  A second
 * process_spawn_init while the first lives would be -EBUSY; after it
 * exited pid 1 is free again.
 */
static void test_init_process_is_pid_1_and_mounts_the_builtin_trees(
	struct ktest *t)
{
	struct exec_snap before;
	struct process *p;
	int err = 0;

	if (!user_have_program(t, "t_init"))
		return;
	exec_snap(&before);
	p = process_spawn_init("/t_init", &err);
	KTEST_ASSERT(t, p, "process_spawn_init(/t_init): %d", err);
	KTEST_EXPECT_EQ(t, p->tgid, 1);
	KTEST_EXPECT_EQ(t, process_wait(p), 0);
	process_put(p);
	expect_snap_back(t, &before);
	p = process_spawn_init("/t_exec.none", &err);
	KTEST_EXPECT(t, !p && err == -ENOENT,
		     "a missing init: expected -ENOENT, got %d", p ? 0 : err);
}

KTEST_SUITE(user_execve,
	    KTEST_CASE(test_execve_static_program_sees_its_argv_envp_auxv),
	    KTEST_CASE(test_execve_relative_path_walks_from_the_cwd),
	    KTEST_CASE(test_execve_pie_with_interpreter),
	    KTEST_CASE(test_execveat_empty_path_runs_the_fd),
	    KTEST_CASE(test_execve_failures_return_errno_to_the_old_image),
	    KTEST_CASE(test_execve_closes_cloexec_fds_and_keeps_the_others),
	    KTEST_CASE(test_execve_resets_handled_signals_keeps_ignored_and_mask),
	    KTEST_CASE(test_execve_from_a_thread_kills_the_others_and_keeps_the_pid),
	    KTEST_CASE(test_execve_runs_nested_scripts_and_refuses_bad_ones),
	    KTEST_CASE(test_kernel_spawn_runs_a_script),
	    KTEST_CASE(test_init_process_is_pid_1_and_mounts_the_builtin_trees));
