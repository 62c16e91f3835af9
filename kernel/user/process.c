/*
 * kernel/user/process.c - starting, waiting for and killing user
 * processes (see process.h).
 *
 * process_spawn_env():
 *   [1] the program by path in the file system, and its name (the path's
 *       last component, as Linux's comm);
 *   [2] a new address space, the ELF's segments and its interpreter's in
 *       it, or a #! script's interpreter's (binfmt_script.c exec_binprm,
 *       the code execve uses);
 *   [3] the main stack with Linux's initial layout (argc, argv, envp,
 *       auxv: elf_tables.c create_elf_tables);
 *   [4] the fd table, fds 0, 1 and 2 on /dev/console (so a program's
 *       write(1, ...) reaches the console through the table, as on Linux);
 *       the first thread: a kthread whose first code leaves for ring 3
 *       at the ELF entry (user_thread_start), listed in the process
 *       (init=: pid 1 first, sched_claim_init_pid);
 *   [5] started; the caller keeps a reference to wait with.
 * Linux counterpart: kernel/fork.c (copy_process), fs/exec.c
 * (kernel_execve, bprm), kernel/exit.c (wait_consider_task).
 */
#include "kernel/user/process.h"
#include "kernel/user/elf_loader.h"
#include "kernel/user/rlimit.h"
#include "kernel/user/uaccess.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/fdtable.h"
#include "kernel/user/uapi.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/vsnprintf.h"
#include "lib/string.h"

static DEFINE_SPINLOCK(process_list_lock);
static LIST_HEAD(process_list);

struct process *current_process(void)
{
	struct user_thread *t = current->user;

	return t ? t->proc : NULL;
}

struct arch_thread *current_arch_thread(void)
{
	struct user_thread *t = current->user;

	return t ? &t->arch : NULL;
}

struct user_thread *user_thread_alloc(void)
{
	struct user_thread *t = kzalloc(sizeof(*t), GFP_KERNEL);

	/* FXSAVE needs 16 bytes; the slab's size classes give that */
	BUG_ON(t && ((uintptr_t)&t->arch & 15));
	return t;
}

int user_thread_start(void *data)
{
	struct user_thread *t = data;

	BUG_ON(current->user != t);
	/* a fork's CLONE_CHILD_SETTID, written here on the child's own mm
	 * (Linux: schedule_tail); a bad address is ignored, as there */
	if (t->set_child_tid)
		put_user_u32(current->pid, t->set_child_tid);
	arch_thread_enter_user(&t->arch);
}

void user_task_inherit_sched(struct task_struct *task)
{
	struct sched_param param = { .sched_priority = current->rt_priority };

	might_sleep();
	sched_setscheduler(task, current->policy, &param);
	if (current->policy == SCHED_OTHER)
		set_user_nice(task, PRIO_TO_NICE(current->static_prio));
	set_cpus_allowed(task, current->cpus_allowed);
}

void user_task_abort(struct task_struct *task)
{
	might_sleep();
	task->user = NULL;
	task->mm = NULL;
	exit_files(task);
	exit_fs(task);
	kthread_stop(task);	/* it finds itself stopped: no user code */
}

int process_add_thread(struct process *proc, struct user_thread *t)
{
	int err = 0;

	spin_lock(&proc->lock);
	/* an execve's de_thread waits for the threads it saw: a clone
	 * finishing meanwhile must not add one it never signals */
	if (proc->group_exit || proc->exec_task) {
		err = -EAGAIN;
	} else {
		list_add_tail(&t->node, &proc->threads);
		proc->nr_threads++;
		__atomic_fetch_add(&proc->refcount, 1, __ATOMIC_RELAXED);
		t->proc = proc;
	}
	spin_unlock(&proc->lock);
	return err;
}

void process_put(struct process *p)
{
	if (__atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL))
		return;
	might_sleep();
	spin_lock(&process_list_lock);
	list_del(&p->node);
	spin_unlock(&process_list_lock);
	WARN_ON(!list_empty(&p->children));
	if (p->nproc_root)
		process_put(p->nproc_root);
	kfree(p);
}

struct process *process_new(const char *path)
{
	struct process *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	spin_lock_init(&p->lock);
	process_set_exe(p, path, NULL);
	p->refcount = 1;
	init_completion(&p->exited);
	init_completion(&p->exec_wait);
	INIT_LIST_HEAD(&p->threads);
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	init_waitqueue_head(&p->wait_chldexit);
	process_rlimit_init(p);
	spin_lock(&process_list_lock);
	list_add_tail(&p->node, &process_list);
	spin_unlock(&process_list_lock);
	return p;
}

/* The environment of a program nobody gave one: what Linux's kernel
 * gives /init (init/main.c envp_init). */
static char *const default_envp[] = { "HOME=/", "TERM=linux", NULL };

void process_set_exe(struct process *p, const char *path, const char *exe)
{
	const char *name = strrchr(path, '/');

	might_sleep();
	name = name && name[1] ? name + 1 : path;
	if (!exe)
		exe = path;
	spin_lock(&p->lock);
	strscpy(p->name, name, sizeof(p->name));
	snprintf(p->exe_path, sizeof(p->exe_path), "%s%s",
		 exe[0] == '/' ? "" : "/", exe);
	spin_unlock(&p->lock);
}

void process_get_exe(struct process *p, char *buf, size_t size)
{
	might_sleep();
	spin_lock(&p->lock);
	strscpy(buf, p->exe_path, size);
	spin_unlock(&p->lock);
}

struct process *process_spawn(int argc, char *const argv[], int *err)
{
	return process_spawn_env(argc, argv, NULL, err);
}

struct process *process_spawn_env(int argc, char *const argv[],
				  char *const envp[], int *err)
{
	return process_spawn_out(argc, argv, envp, NULL, err);
}

static struct process *__process_spawn(int argc, char *const argv[],
				       char *const envp[],
				       const char *out_path, bool as_init,
				       int *err);

struct process *process_spawn_out(int argc, char *const argv[],
				  char *const envp[], const char *out_path,
				  int *err)
{
	return __process_spawn(argc, argv, envp, out_path, false, err);
}

struct process *process_spawn_init(const char *path, int *err)
{
	char *const argv[] = { (char *)path, NULL };

	return __process_spawn(1, argv, NULL, NULL, true, err);
}

/* __process_spawn - the steps of the header; as_init: pid 1.
 * Context: task, sleeps.  Locking: none held. */
static struct process *__process_spawn(int argc, char *const argv[],
				       char *const envp[],
				       const char *out_path, bool as_init,
				       int *err)
{
	struct linux_binprm bprm = { .filename = argv[0], .argc = argc,
				     .argv = argv };
	struct process *proc;
	struct mm_struct *mm;
	struct files_struct *files;
	struct user_thread *t;
	struct task_struct *task;
	long ret;

	might_sleep();
	BUG_ON(argc < 1);
	bprm.envp = envp ? envp : default_envp;				/* [1] */
	while (bprm.envp[bprm.envc])
		bprm.envc++;
	ret = -ENOMEM;
	proc = process_new(argv[0]);
	if (!proc)
		goto out_err;
	mm = mm_alloc_user(proc->name);					/* [2] */
	if (!mm)
		goto out_proc;
	ret = exec_binprm(mm, &bprm);
	if (ret)
		goto out_mm;
	if (bprm.interp)	/* a script: exe is its interpreter */
		process_set_exe(proc, argv[0], bprm.interp);
	ret = create_elf_tables(mm, &bprm);				/* [3] */
	if (ret)
		goto out_mm;
	ret = process_charge_thread(proc);				/* [4] */
	if (ret)
		goto out_mm;
	ret = -ENOMEM;
	files = files_alloc();
	if (!files)
		goto out_uncharge;
	ret = console_open_stdio(files);
	if (!ret && out_path)	/* fds 1 and 2 replaced: `> out 2>&1` */
		ret = stdio_open_path(files, out_path,
				      O_WRONLY | O_CREAT | O_TRUNC, 0644, 1, 3);
	if (ret)
		goto out_files;
	ret = -ENOMEM;
	t = user_thread_alloc();
	if (!t)
		goto out_files;
	arch_thread_init_exec(&t->arch, bprm.entry, bprm.p);
	task = kthread_create(user_thread_start, t, "%s", proc->name);
	if (!task)
		goto out_thread;
	t->task = task;
	task->mm = mm;
	task->user = t;
	task->fs = get_fs_struct(&init_fs);
	task->files = files;
	ret = as_init ? sched_claim_init_pid(task) : 0;
	if (ret)
		goto out_task;
	proc->mm = mm;
	proc->tgid = task->pid;
	task->tgid = task->pid;
	/* read under mmlist_lock by mm_count_owned_by, written once here */
	WRITE_ONCE(mm->owner_tgid, proc->tgid);
	ret = process_add_thread(proc, t);
	BUG_ON(ret);			/* nobody can have killed it yet */
	bprm_release(&bprm);
	wake_up_process(task);						/* [5] */
	return proc;

out_task:
	/* never woken, as clone's out_task (sys_process.c) */
	task->user = NULL;
	task->mm = NULL;
	task->files = NULL;
	exit_fs(task);
	kthread_stop(task);
out_thread:
	kfree(t);
out_files:
	put_files_struct(files);
out_uncharge:
	process_uncharge_thread(proc);
out_mm:
	bprm_release(&bprm);
	mmput(mm);
out_proc:
	process_put(proc);
out_err:
	*err = (int)ret;
	return NULL;
}

int process_wait(struct process *p)
{
	might_sleep();
	wait_for_completion(&p->exited);
	return READ_ONCE(p->exit_status);
}

struct process *process_get_by_pid(int pid)
{
	struct process *p, *found = NULL;
	struct user_thread *t;

	spin_lock(&process_list_lock);
	list_for_each_entry(p, &process_list, node) {
		spin_lock(&p->lock);
		list_for_each_entry(t, &p->threads, node)
			if (t->task->pid == pid)
				found = p;
		if (found)
			__atomic_fetch_add(&p->refcount, 1, __ATOMIC_RELAXED);
		spin_unlock(&p->lock);
		if (found)
			break;
	}
	spin_unlock(&process_list_lock);
	return found;
}

void __process_group_kill(struct process *p, int sig)
{
	struct user_thread *t;

	WARN_ON(!spin_is_locked(&p->lock));
	if (!p->group_exit) {
		p->group_exit = true;
		p->exit_status = W_EXITCODE(0, sig);
	}
	list_for_each_entry(t, &p->threads, node)
		kernel_signal(t->task);
}

int process_kill(int pid)
{
	struct process *p = process_get_by_pid(pid);

	if (!p)
		return -ESRCH;
	spin_lock(&p->lock);
	__process_group_kill(p, SIGKILL);
	spin_unlock(&p->lock);
	process_put(p);
	return 0;
}

struct task_struct *process_find_thread(int tid)
{
	struct process *proc = current_process();
	struct task_struct *found = NULL;
	struct user_thread *t;

	if (!proc)
		return NULL;
	spin_lock(&proc->lock);
	list_for_each_entry(t, &proc->threads, node)
		if (t->task->pid == tid)
			found = get_task_struct(t->task);
	spin_unlock(&proc->lock);
	return found;
}

int process_count_live(void)
{
	struct process *p;
	int n = 0;

	spin_lock(&process_list_lock);
	list_for_each_entry(p, &process_list, node)
		n += READ_ONCE(p->nr_threads) > 0;
	spin_unlock(&process_list_lock);
	return n;
}
