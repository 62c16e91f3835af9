/*
 * kernel/user/process.h - a user process: one address space, one or more
 * threads (tasks) in it, an exit status its waiter collects.
 *
 * A user thread is a task (kernel/sched/task.h) with task->mm set and
 * task->user pointing at its struct user_thread; it starts as a kernel
 * thread (kthread_create) whose first code leaves for ring 3
 * (arch_thread_enter_user) and enters the kernel again only through a
 * system call, an interrupt or a fault.  The process is what the
 * threads share: the mm, the thread-group id (the first thread's pid,
 * getpid()), the group-exit state.
 *
 * Lifetime: a process is counted (refcount): one reference for its live
 * threads together, one for whoever spawned it (process_wait +
 * process_put).  Its threads drop their shared one when the last exits,
 * after completing `exited`.
 * Linux counterpart: struct signal_struct (group exit, the status) and
 * the thread-group leader's task_struct (tgid), kernel/exit.c,
 * kernel/fork.c.  A process is started by the kernel (process_spawn*:
 * no parent, the spawner waits with process_wait) or forked by another
 * (kernel/user/fork.c: its parent reaps it with wait4,
 * kernel/user/process_tree.c, wait.c); execve replaces its program
 * (kernel/user/exec.c).
 */
#ifndef KERNEL_USER_PROCESS_H
#define KERNEL_USER_PROCESS_H

#include "lib/types.h"
#include "lib/list.h"
#include "arch/x86_64/arch.h"
#include "kernel/sched/task.h"
#include "kernel/sched/completion.h"
#include "kernel/locking/spinlock.h"
#include "kernel/user/uapi.h"

struct mm_struct;
struct race_window;

/*
 * struct sigqueue - what a pending signal's siginfo will say: one slot
 * per signal number, filled by the first send while the bit is clear.
 * rtk does not queue a second instance of a pending signal, real-time
 * ones included (Linux queues rt signals up to RLIMIT_SIGPENDING).
 */
struct sigqueue {
	int code;			/* si_code: SI_USER, SI_TKILL ... */
	int pid;			/* the sender's tgid (0: the kernel) */
	unsigned long addr;		/* a fault's si_addr */
};

struct process {
	/* constant after process_spawn */
	int tgid;			/* the first thread's pid */
	/* current's only, written by execve (exec.c) with the other
	 * threads gone; process_set_exe / process_get_exe */
	struct mm_struct *mm;		/* valid while nr_threads > 0 */

	int refcount;			/* atomic; freed at 0 */
	struct completion exited;	/* completed when the last thread went */

	spinlock_t lock;		/* protects the fields below */
	char name[TASK_COMM_LEN];	/* the program's (execve renames it) */
	char exe_path[128];		/* its path in the tree: /proc/self/exe */
	struct task_struct *exec_task;	/* the thread in execve's de_thread:
					 * the others exit, none kills it */
	struct completion exec_wait;	/* completed when only exec_task is
					 * left (do_exit [3]) */
	struct list_head threads;	/* user_thread.node, live threads */
	int nr_threads;			/* on the list */
	bool group_exit;		/* exit_group or a kill: all go */
	int exit_status;		/* wait status: W_EXITCODE(code, sig) */
	int nr_charged;			/* threads listed or being made
					 * (rlimit.c process_charge_thread) */
	struct process *nproc_root;	/* constant: the kernel-started
					 * ancestor whose tree_charged counts
					 * this one's threads, a reference;
					 * NULL: this one (rlimit.c) */
	int tree_charged;		/* atomic: threads of the tree rooted
					 * here (a kernel-started process) */
	unsigned long nr_refused;	/* clones refused by a limit */
	struct rlimit64 rlim[RLIM_NLIMITS];	/* rlimit.c */
	/* signals (kernel/user/sys_signal.c): the handler table Linux
	 * keeps in sighand_struct (CLONE_SIGHAND shares it: every thread
	 * of an rtk process does) and the process-wide pending set */
	struct kernel_sigaction action[_NSIG];	/* action[sig - 1] */
	u64 shared_pending;			/* sent to the process (kill) */
	struct sigqueue shared_info[_NSIG];	/* its siginfo, [sig - 1] */

	/* under process_list_lock (process.c) */
	struct list_head node;		/* every live process */

	/* the process tree (kernel/user/process_tree.c), under
	 * process_tree_lock */
	struct process *parent;		/* NULL: started by the kernel, or
					 * orphaned with no reaper */
	struct list_head children;	/* their `sibling`s */
	struct list_head sibling;	/* in parent->children */
	bool in_tree;			/* forked: the first reference is
					 * the tree's, dropped when wait4
					 * reaps it (or at its exit when it
					 * has no parent) */
	bool zombie;			/* every thread gone, not reaped */
	bool tree_exited;		/* children handed on: no fork may
					 * add one */
	int exit_signal;		/* sent to the parent at exit */
	unsigned long child_events;	/* a child became a zombie (or one
					 * was handed over): wait4 looks */
	wait_queue_head_t wait_chldexit;	/* wait4 sleeps here */
};

/*
 * struct user_thread - a task's user-mode side; task->user.  The arch
 * part first: it must be 16-byte aligned (FXSAVE), so the struct is
 * allocated on its own (kmalloc's alignment).
 */
struct user_thread {
	struct arch_thread arch;	/* registers, FPU, FS base */
	struct process *proc;		/* a reference until the thread exits */
	struct task_struct *task;	/* the thread; valid while listed */
	struct list_head node;		/* in proc->threads, under proc->lock */
	u32 __user *set_child_tid;	/* a fork's CLONE_CHILD_SETTID: the
					 * child writes its tid there first
					 * (user_thread_start) */
	u32 __user *clear_child_tid;	/* CLONE_CHILD_CLEARTID or
					 * set_tid_address: 0 at exit */
	void __user *robust_list;	/* set_robust_list's head: kept for
					 * get_robust_list; the exit walk
					 * is issue 30's */
	/* the thread's signal state (kernel/user/sys_signal.c), under
	 * proc->lock */
	u64 blocked;			/* rt_sigprocmask's mask */
	u64 pending;			/* sent to this thread (tgkill) */
	struct sigqueue info[_NSIG];	/* its siginfo, [sig - 1] */
	u64 real_blocked;		/* rt_sigtimedwait: the mask it
					 * unblocked its set from, else 0 */
	/* current's own, no lock: */
	u64 saved_sigmask;		/* rt_sigsuspend's mask to restore */
	bool restore_sigmask;		/* ... after the next delivery */
	unsigned long sas_ss_sp;	/* sigaltstack: lowest address */
	unsigned long sas_ss_size;	/* 0: none */
};

/* process_spawn_env - start the program at path argv[0] (walked from
 * "/", symlinks followed; "hello" is "/hello") in a new address space,
 * with argv and envp (NULL: HOME=/ TERM=linux, what Linux gives /init;
 * NULL-terminated otherwise) on its initial stack.  Returns the process
 * with a reference for the caller (process_wait, process_put), or NULL
 * with *err: load_elf_binary's errors (elf_loader.h), -E2BIG, -ENOMEM.
 * Context: task, sleeps. */
struct process *process_spawn_env(int argc, char *const argv[],
				  char *const envp[], int *err);

/* process_spawn_out - process_spawn_env with fds 1 and 2 on the file
 * out_path (created or truncated, 0644) instead of the console, as a
 * shell's `> FILE 2>&1`; out_path NULL: the console.  The errors of
 * process_spawn_env, and the open's (-ENOENT, -EISDIR ...). */
struct process *process_spawn_out(int argc, char *const argv[],
				  char *const envp[], const char *out_path,
				  int *err);

/* process_spawn_init - the first user process (init=PATH): argv {path},
 * the default environment, pid 1 as Linux's init (tasklist.c
 * sched_claim_init_pid: -EBUSY while another task has it).  The errors
 * of process_spawn_env.  Context: task, sleeps. */
struct process *process_spawn_init(const char *path, int *err);

/* process_spawn - process_spawn_env with the default environment. */
struct process *process_spawn(int argc, char *const argv[], int *err);

/* process_wait - sleep until every thread of p has exited; returns the
 * wait status (W_EXITCODE).  Context: task, sleeps. */
int process_wait(struct process *p);

/* process_put - drop a reference.  Context: task. */
void process_put(struct process *p);

/* process_kill - end process tgid (any of its thread ids also names it)
 * as by SIGKILL; 0 or -ESRCH.  Context: task. */
int process_kill(int pid);

/* kill_process - send sig to p as the kernel does (si_code SI_KERNEL,
 * si_pid 0): SIGCHLD to a parent, SIGPIPE to a writer.  0, or -EINVAL
 * for a bad sig.  Defined in sys_signal.c.  Context: task.
 * Locking: takes p->lock (the caller must not hold it). */
int kill_process(struct process *p, int sig);

/* __process_group_kill - end every thread of p, the wait status "killed
 * by sig" unless a group exit already chose one (kill's default action).
 * Context: task.  Locking: p->lock held. */
void __process_group_kill(struct process *p, int sig);

/* process_get_by_pid - the live process with a thread whose pid is pid,
 * with a reference (process_put); NULL if none.  Context: task.
 * Locking: takes process_list_lock and each process's lock. */
struct process *process_get_by_pid(int pid);

/* process_find_thread - the task with tid pid in current's process,
 * with a reference (put_task_struct), or NULL.  Context: task. */
struct task_struct *process_find_thread(int tid);

/* process_set_exe - p's name (comm: path's last component) and
 * /proc/self/exe (exe, else path; made absolute against "/").
 * Context: task.  Locking: takes p->lock. */
void process_set_exe(struct process *p, const char *path, const char *exe);

/* process_get_exe - a copy of p's exe path in buf (size bytes).
 * Context: task.  Locking: takes p->lock. */
void process_get_exe(struct process *p, char *buf, size_t size);

/* process_count_live - processes with a live thread (tests). */
int process_count_live(void);

/* process_new - a process with no thread yet, named after path's last
 * component (process_set_exe): one reference (the spawner's, or for a
 * fork the tree's).  NULL: no memory.  Context: task, may sleep. */
struct process *process_new(const char *path);

/* user_thread_alloc - a zeroed, aligned user_thread.  NULL: no memory. */
struct user_thread *user_thread_alloc(void);

/* user_thread_start - the first code of every user thread (the kthread
 * function): leave for ring 3.  Context: the new thread. */
int user_thread_start(void *data);

/* user_task_inherit_sched - task (a new user thread's, not yet woken)
 * gets current's policy, RT priority, nice and affinity, as Linux's
 * fork and clone give a child.  Context: task. */
void user_task_inherit_sched(struct task_struct *task);

/* user_task_abort - undo a new user thread's task that was never woken:
 * its fd table and fs_struct references dropped (either may be NULL),
 * task->user and task->mm cleared (the caller drops its mm reference),
 * the kthread stopped before it runs any user code.  Context: task. */
void user_task_abort(struct task_struct *task);

/* process_add_thread - list t (task set) in proc and take its reference.
 * -EAGAIN when the group is already exiting or in execve's de_thread.
 * Context: task. */
int process_add_thread(struct process *proc, struct user_thread *t);

/* do_exit - end the calling user thread with wait status `status`;
 * the last one ends the process.  Context: a user thread, irqs on. */
__noreturn void do_exit(int status);

/* test-only: do_exit parks here between waking the waiter ([3]) and
 * task_exit ([4]) (tests/kernel/test_user.c). */
extern struct race_window user_exit_woken_window;

/* do_group_exit - end every thread of current's process, with `status`
 * unless a group exit already chose one.  Context: a user thread. */
__noreturn void do_group_exit(int status);

/* current_process - the calling user thread's process (NULL: a kernel
 * thread). */
struct process *current_process(void);

#endif /* KERNEL_USER_PROCESS_H */
