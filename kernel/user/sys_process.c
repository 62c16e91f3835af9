/*
 * kernel/user/sys_process.c - process and thread system calls: exit,
 * exit_group, getpid, gettid, clone (threads only), set_tid_address,
 * the robust-list head, arch_prctl.  kill is sys_signal.c's.
 *
 * clone() makes a thread of the caller's process, Linux's pthread_create
 * flags: CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD
 * | CLONE_SYSVSEM, optionally CLONE_SETTLS, CLONE_PARENT_SETTID,
 * CLONE_CHILD_CLEARTID, CLONE_CHILD_SETTID.  Linux's flag rules apply
 * (CLONE_THREAD needs CLONE_SIGHAND, which needs CLONE_VM: -EINVAL);
 * a new process (no CLONE_VM: fork) is kernel/user/fork.c's; a new
 * process sharing the caller's memory (CLONE_VM without CLONE_THREAD:
 * glibc's posix_spawn, CLONE_VM | CLONE_VFORK) is -ENOSYS: its parent
 * must sleep until the child's exec or exit, which rtk does not do.
 * The child:
 *   [0] charged to the process: -EAGAIN over RLIMIT_NPROC or the
 *       user-thread total, before anything is allocated (rlimit.c);
 *   [1] a user_thread with the parent's registers (return value 0) on
 *       the new stack, the parent's FPU state, TLS when asked;
 *   [2] a kthread named after the process, mm shared (mmget), the fd
 *       table shared (CLONE_FILES) or copied (dup_fd), the parent's
 *       policy, priority and affinity (as Linux's fork);
 *   [3] listed in the process (-EAGAIN if it is exiting);
 *   [4] CLONE_PARENT_SETTID / CLONE_CHILD_SETTID written before it runs;
 *   [5] woken; its TID returned.
 * Linux counterpart: kernel/fork.c (kernel_clone, copy_process),
 * kernel/exit.c, kernel/signal.c (kill), arch/x86/kernel/process_64.c
 * (do_arch_prctl_64).
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/process.h"
#include "kernel/user/rlimit.h"
#include "kernel/user/uaccess.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/fdtable.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

long sys_exit(int code)
{
	do_exit(W_EXITCODE(code, 0));
}

long sys_exit_group(int code)
{
	do_group_exit(W_EXITCODE(code, 0));
}

long sys_getpid(void)
{
	return current_process()->tgid;
}

long sys_gettid(void)
{
	return current->pid;
}

#define CLONE_THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
			    CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS |        \
			    CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID |         \
			    CLONE_CHILD_SETTID | CSIGNAL)

long sys_clone(struct pt_regs *regs, unsigned long flags, unsigned long newsp,
	       int __user *parent_tid, int __user *child_tid, unsigned long tls)
{
	struct process *proc = current_process();
	struct user_thread *t;
	struct task_struct *task;
	long ret;

	might_sleep();
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	if (!(flags & CLONE_VM))
		return do_fork(regs, flags, newsp, parent_tid, child_tid, tls);
	if (!(flags & CLONE_THREAD))
		return -ENOSYS;		/* CLONE_VM, a process: see the header */
	if (flags & ~CLONE_THREAD_FLAGS)
		return -EINVAL;
	if ((flags & CLONE_SETTLS) && tls >= USER_ADDR_END)
		return -EPERM;
	ret = process_charge_thread(proc);				/* [0] */
	if (ret)
		return ret;
	ret = -ENOMEM;
	t = user_thread_alloc();					/* [1] */
	if (!t)
		goto out_uncharge;
	arch_thread_init_clone(&t->arch, regs, newsp, flags & CLONE_SETTLS, tls);
	if (flags & CLONE_CHILD_CLEARTID)
		t->clear_child_tid = (u32 __user *)child_tid;
	t->blocked = READ_ONCE(current->user->blocked);	/* as Linux's */
	ret = -ENOMEM;
	task = kthread_create(user_thread_start, t, "%s", proc->name);	/* [2] */
	if (!task)
		goto out_free;
	t->task = task;
	mmget(current->mm);
	task->mm = current->mm;
	task->user = t;
	task->fs = get_fs_struct(task_fs(current));	/* CLONE_FS */
	if (flags & CLONE_FILES)
		task->files = get_files_struct(current->files);
	else
		task->files = dup_fd(current->files);
	ret = -ENOMEM;
	if (!task->files)
		goto out_task;
	task->tgid = proc->tgid;
	user_task_inherit_sched(task);
	ret = process_add_thread(proc, t);				/* [3] */
	if (ret)
		goto out_task;
	if (flags & CLONE_PARENT_SETTID)				/* [4] */
		put_user_u32(task->pid, (u32 __user *)parent_tid);
	if (flags & CLONE_CHILD_SETTID)
		put_user_u32(task->pid, (u32 __user *)child_tid);
	ret = task->pid;
	wake_up_process(task);						/* [5] */
	return ret;

out_task:
	user_task_abort(task);	/* never woken: it runs no user code */
	mmput(current->mm);
out_free:
	kfree(t);
out_uncharge:
	process_uncharge_thread(proc);
	return ret;
}

/* sys_set_tid_address - the word to clear and FUTEX_WAKE at this
 * thread's exit (as CLONE_CHILD_CLEARTID sets it); returns the caller's
 * TID, which glibc keeps as the thread's tid -- the owner value its PI
 * mutexes write into their futex words. */
long sys_set_tid_address(int __user *tidptr)
{
	current->user->clear_child_tid = (u32 __user *)tidptr;
	return current->pid;
}

/* struct robust_list_head is three words on x86_64 (list, futex_offset,
 * list_op_pending): the only length Linux accepts. */
#define ROBUST_LIST_HEAD_SIZE 24

/* sys_set_robust_list - record the thread's robust-futex list head.
 * Linux walks the list at exit and marks each held futex
 * FUTEX_OWNER_DIED; rtk records it only (issue 30 adds the walk: none
 * of the rt-tests programs uses a robust mutex). */
long sys_set_robust_list(void __user *head, size_t len)
{
	if (len != ROBUST_LIST_HEAD_SIZE)
		return -EINVAL;
	current->user->robust_list = head;
	return 0;
}

/* sys_get_robust_list - the head and length of thread pid (0: the
 * caller; another must be a thread of the caller's process). */
long sys_get_robust_list(int pid, void __user *__user *head_ptr,
			 size_t __user *len_ptr)
{
	struct task_struct *p = pid ? process_find_thread(pid) :
				      get_task_struct(current);
	size_t len = ROBUST_LIST_HEAD_SIZE;
	void __user *head;

	if (!p)
		return -ESRCH;
	head = p->user->robust_list;
	put_task_struct(p);
	if (copy_to_user(head_ptr, &head, sizeof(head)) ||
	    copy_to_user(len_ptr, &len, sizeof(len)))
		return -EFAULT;
	return 0;
}

long sys_arch_prctl(int code, unsigned long addr)
{
	struct user_thread *t = current->user;
	u64 fs;

	switch (code) {
	case ARCH_SET_FS:
		if (addr >= USER_ADDR_END)
			return -EPERM;
		arch_thread_set_fs(&t->arch, addr);
		return 0;
	case ARCH_GET_FS:
		fs = arch_thread_get_fs(&t->arch);
		return copy_to_user((void __user *)addr, &fs, sizeof(fs)) ?
			       -EFAULT : 0;
	default:
		return -EINVAL;
	}
}
