/*
 * kernel/user/fork.c - a new process from user space: fork(2), vfork(2)
 * and clone(2) without CLONE_VM (sys_process.c hands those here).
 *
 * do_fork(regs, flags, ...), Linux's copy_process for a new thread group:
 *   [1] flags: the exit signal in the low byte (any: as Linux's clone(2),
 *       which checks it only in clone3; one above 64 is never sent), and only
 *       CLONE_FS, CLONE_FILES, CLONE_SETTLS, CLONE_PARENT_SETTID,
 *       CLONE_CHILD_SETTID, CLONE_CHILD_CLEARTID, CLONE_VFORK and
 *       CLONE_SYSVSEM besides (-EINVAL: rtk has no namespaces, ptrace or
 *       cgroups for the others);
 *   [2] the child process: the parent's name, exe path, rlimits and
 *       signal dispositions (proc->action); no pending signal;
 *   [3] charged one thread (rlimit.c): -EAGAIN beyond RLIMIT_NPROC
 *       (inherited), which rtk counts over the tree of the kernel-started
 *       ancestor as Linux counts it over a user's processes, or beyond
 *       the system's USER_THREADS_MAX: a fork bomb stops at one of them,
 *       and the KSTACK_KERNEL_RESERVE stacks stay for the kernel;
 *   [4] the address space copied (kernel/mm/dup_mmap.c);
 *   [5] the thread: the parent's registers from the system call with
 *       rax 0, its FS base (or CLONE_SETTLS's) and its FPU/SSE state
 *       (arch_thread_init_clone), the calling thread's blocked mask and
 *       alternate signal stack,
 *       CLONE_CHILD_SETTID to be written by the child on its own mm
 *       (user_thread_start), CLONE_CHILD_CLEARTID for its exit; no
 *       robust list (Linux's copy_process clears it; glibc's child sets
 *       its own again);
 *   [6] a kthread with the new mm, the fd table copied (each file's
 *       reference taken: the offsets are shared, as after dup) or
 *       shared (CLONE_FILES), the cwd copied or shared (CLONE_FS), the
 *       parent thread's policy, priority and affinity;
 *   [7] linked under the parent (process_tree.c), then its thread listed;
 *   [8] CLONE_PARENT_SETTID written in the parent (a bad address is
 *       ignored, as in Linux), the child woken; the parent gets its pid.
 * The child returns 0 from the same system call through the normal
 * return to user mode (arch_thread_enter_user: IRET with the registers).
 * vfork(2) is a fork here: the parent does not wait for the child's exec
 * or exit (Linux's CLONE_VFORK does).  A program that follows vfork's
 * rules (only exec or _exit in the child) sees no difference; one that
 * writes the parent's memory from the child does.
 * Linux counterpart: kernel/fork.c (kernel_clone, copy_process, dup_mm,
 * copy_files, copy_fs, copy_sighand, copy_signal), kernel/sched/core.c
 * (schedule_tail's set_child_tid).
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/process.h"
#include "kernel/user/process_tree.h"
#include "kernel/user/rlimit.h"
#include "kernel/user/uaccess.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/fdtable.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

#define CLONE_FORK_FLAGS (CSIGNAL | CLONE_FS | CLONE_FILES | CLONE_SETTLS |   \
			  CLONE_PARENT_SETTID | CLONE_CHILD_SETTID |          \
			  CLONE_CHILD_CLEARTID | CLONE_VFORK | CLONE_SYSVSEM)

/* fork_process - [2]: the child's process, the parent's copies in it.
 * NULL: no memory.  Context: task.  Locking: takes parent->lock. */
static struct process *fork_process(struct process *parent)
{
	struct process *p = process_new("");

	might_sleep();
	if (!p)
		return NULL;
	/* the tree's thread count is its kernel-started root's (rlimit.c);
	 * the root's struct lives while a process of its tree does */
	p->nproc_root = parent->nproc_root ? parent->nproc_root : parent;
	__atomic_fetch_add(&p->nproc_root->refcount, 1, __ATOMIC_RELAXED);
	spin_lock(&parent->lock);	/* an execve renames it under it */
	strscpy(p->name, parent->name, sizeof(p->name));
	strscpy(p->exe_path, parent->exe_path, sizeof(p->exe_path));
	memcpy(p->rlim, parent->rlim, sizeof(p->rlim));
	memcpy(p->action, parent->action, sizeof(p->action));
	spin_unlock(&parent->lock);
	return p;
}

/* fork_task - [6]: the child's kthread with its mm, files and fs, not
 * yet woken.  NULL: no memory (nothing of mm's taken then).
 * Context: task, sleeps. */
static struct task_struct *fork_task(struct process *proc,
				     struct user_thread *t,
				     struct mm_struct *mm, unsigned long flags)
{
	struct task_struct *task;

	might_sleep();
	task = kthread_create(user_thread_start, t, "%s", proc->name);
	if (!task)
		return NULL;
	if (flags & CLONE_FILES)
		task->files = get_files_struct(current->files);
	else
		task->files = dup_fd(current->files);
	if (flags & CLONE_FS)
		task->fs = get_fs_struct(task_fs(current));
	else
		task->fs = copy_fs_struct(task_fs(current));
	if (!task->files || !task->fs) {
		user_task_abort(task);	/* never woken: runs no user code */
		return NULL;
	}
	t->task = task;
	task->mm = mm;
	task->user = t;
	task->tgid = task->pid;
	user_task_inherit_sched(task);
	return task;
}

long do_fork(struct pt_regs *regs, unsigned long flags, unsigned long newsp,
	     int __user *parent_tid, int __user *child_tid, unsigned long tls)
{
	struct process *parent = current_process(), *proc;
	struct task_struct *task;
	struct user_thread *t;
	struct mm_struct *mm;
	long ret;

	might_sleep();
	if (flags & ~CLONE_FORK_FLAGS)					/* [1] */
		return -EINVAL;
	if ((flags & CLONE_SETTLS) && tls >= USER_ADDR_END)
		return -EPERM;
	proc = fork_process(parent);					/* [2] */
	if (!proc)
		return -ENOMEM;
	ret = process_charge_thread(proc);				/* [3] */
	if (ret) {
		spin_lock(&parent->lock);
		parent->nr_refused++;	/* the bomb's counter, for tests */
		spin_unlock(&parent->lock);
		goto out_proc;
	}
	ret = -ENOMEM;
	mm = dup_mm(current->mm, proc->name);				/* [4] */
	if (!mm)
		goto out_uncharge;
	t = user_thread_alloc();					/* [5] */
	if (!t)
		goto out_mm;
	arch_thread_init_clone(&t->arch, regs, newsp, flags & CLONE_SETTLS, tls);
	t->blocked = READ_ONCE(current->user->blocked);
	/* fork keeps the alternate signal stack (Linux resets it only for
	 * CLONE_VM without CLONE_VFORK, a thread) */
	t->sas_ss_sp = current->user->sas_ss_sp;
	t->sas_ss_size = current->user->sas_ss_size;
	if (flags & CLONE_CHILD_SETTID)
		t->set_child_tid = (u32 __user *)child_tid;
	if (flags & CLONE_CHILD_CLEARTID)
		t->clear_child_tid = (u32 __user *)child_tid;
	task = fork_task(proc, t, mm, flags);				/* [6] */
	if (!task)
		goto out_thread;
	proc->mm = mm;
	proc->tgid = task->pid;
	WRITE_ONCE(mm->owner_tgid, proc->tgid);
	ret = process_tree_link(parent, proc, (int)(flags & CSIGNAL));	/* [7] */
	if (ret)
		goto out_task;
	ret = process_add_thread(proc, t);
	BUG_ON(ret);		/* nobody knows the child's pid yet */
	ret = proc->tgid;
	if (flags & CLONE_PARENT_SETTID)				/* [8] */
		put_user_u32((u32)ret, (u32 __user *)parent_tid);
	wake_up_process(task);
	return ret;

out_task:
	user_task_abort(task);
out_thread:
	kfree(t);
out_mm:
	mmput(mm);
out_uncharge:
	process_uncharge_thread(proc);
out_proc:
	process_put(proc);
	return ret;
}

long sys_fork(struct pt_regs *regs)
{
	return do_fork(regs, SIGCHLD, 0, NULL, NULL, 0);
}

/* sys_vfork - a fork (see the header), with Linux's vfork flags but
 * CLONE_VM. */
long sys_vfork(struct pt_regs *regs)
{
	return do_fork(regs, CLONE_VFORK | SIGCHLD, 0, NULL, NULL, 0);
}
