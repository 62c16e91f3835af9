/*
 * kernel/user/exec.c - execve(2) and execveat(2): the calling process
 * replaces its program, keeping its pid, its fds (but the close-on-exec
 * ones), its ignored signals, its blocked mask and pending signals.
 *
 * do_execveat_common():
 *   [1] the path (getname: -EFAULT, -ENAMETOOLONG, -ENOENT for "") and
 *       where it is walked from (the caller's root and cwd, or dfd);
 *   [2] the file opened as any exec (open_exec: the walk's errors,
 *       -EACCES), before the arguments, as Linux's do_open_execat;
 *   [3] argv and envp copied from user memory (copy_exec_strings:
 *       -EFAULT for a bad pointer anywhere, -E2BIG past ELF_ARG_MAX);
 *   [4] the new address space built completely: the program or a #!
 *       script's interpreter (binfmt_script.c exec_binprm), its initial
 *       stack (create_elf_tables), /proc/self/exe's new text;
 *       a failure here returns its errno to the old image, untouched;
 *   [5] the other threads killed and waited for (de_thread); a group
 *       exit already under way is -EAGAIN (the caller dies on its way
 *       out anyway);
 *   [6] the point of no return: the thread runs on the new mm, the old
 *       one is dropped (exec_mmap);
 *   [7] what Linux's begin_new_exec and setup_new_exec reset: a private
 *       fd table with the FD_CLOEXEC fds closed, handled signals back to
 *       SIG_DFL (flush_signal_handlers), the robust list and
 *       clear_child_tid and the alternate signal stack forgotten, comm
 *       and /proc/self/exe;
 *   [8] the registers of a new program (rip = entry, rsp = the new
 *       stack, all else 0, FS base 0, the FPU's reset state: Linux's
 *       start_thread) and the way out to ring 3; execve never returns.
 * It acts on current's process and thread only: the parent/child tree
 * (fork) and signal delivery are other files' (issue 30).
 * Linux counterpart: fs/exec.c (do_execveat_common, copy_strings,
 * bprm_execve, begin_new_exec, de_thread, exec_mmap, setup_new_exec),
 * kernel/signal.c (flush_signal_handlers), arch/x86/kernel/process_64.c
 * (start_thread).  rtk has no set-uid programs, no LSM, no personality,
 * and gives argc 0 an argv of {""} as Linux has since 5.18.
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/process.h"
#include "kernel/user/elf_loader.h"
#include "kernel/user/uaccess.h"
#include "kernel/fs/fdtable.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/user_path.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/irqflags.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

/* argv and envp in kernel memory: the strings in one buffer, the
 * pointers (argv, NULL, envp, NULL) in another. */
struct exec_strings {
	char *buf;		/* ELF_ARG_MAX bytes */
	size_t used;		/* bytes of buf and pointer slots charged */
	char **vec;		/* ELF_ARG_MAX / sizeof(char *) slots */
	int n;			/* slots used */
};

/* copy_exec_strings - append the user array uv (NULL: none) and its
 * strings to s; *count = how many.  0, -EFAULT, -E2BIG.  Context: task,
 * may sleep (user memory).  Locking: none. */
static int copy_exec_strings(struct exec_strings *s,
			     const char __user *const __user *uv, int *count)
{
	const size_t max_slots = ELF_ARG_MAX / sizeof(char *);

	might_sleep();
	*count = 0;
	for (int i = 0; uv; i++) {
		const char __user *us;
		long len;

		if (copy_from_user(&us, &uv[i], sizeof(us)))
			return -EFAULT;
		if (!us)
			break;
		if (s->used + sizeof(char *) >= ELF_ARG_MAX ||
		    s->n + 2 >= (int)max_slots)
			return -E2BIG;
		s->used += sizeof(char *);
		len = strncpy_from_user(s->buf + s->used, us,
					ELF_ARG_MAX - s->used);
		if (len < 0)
			return (int)len;
		if ((size_t)len == ELF_ARG_MAX - s->used)
			return -E2BIG;	/* no NUL in what is left */
		s->vec[s->n++] = s->buf + s->used;
		s->used += len + 1;
		(*count)++;
	}
	s->vec[s->n++] = NULL;
	return 0;
}

/*
 * de_thread - step [5]: make current the only thread of proc.  The
 * others get the kernel signal; each leaves through do_group_exit,
 * which sees exec_task and exits alone (exit.c), and the last one to
 * go completes exec_wait (do_exit [3]).  A non-leader takes the thread
 * group's id as its pid, as Linux's de_thread.
 * 0, -EAGAIN (a group exit is under way, or another thread is in exec).
 * Context: current's thread, sleeps.  Locking: takes proc->lock.
 */
static int de_thread(struct process *proc)
{
	struct user_thread *t;
	int err = 0;

	might_sleep();
	spin_lock(&proc->lock);
	if (proc->group_exit || proc->exec_task) {
		spin_unlock(&proc->lock);
		return -EAGAIN;
	}
	if (proc->nr_threads == 1) {
		spin_unlock(&proc->lock);
		return 0;
	}
	proc->exec_task = current;
	reinit_completion(&proc->exec_wait);
	list_for_each_entry(t, &proc->threads, node)
		if (t->task != current)
			kernel_signal(t->task);
	spin_unlock(&proc->lock);
	wait_for_completion(&proc->exec_wait);
	spin_lock(&proc->lock);
	BUG_ON(proc->nr_threads != 1);
	proc->exec_task = NULL;
	if (proc->group_exit)	/* killed meanwhile: a kill wins */
		err = -EAGAIN;
	spin_unlock(&proc->lock);
	if (!err && current->pid != proc->tgid)
		sched_task_set_pid(current, proc->tgid);
	return err;
}

/* exec_mmap - step [6]: current runs on mm from now on; the old mm's
 * users reference goes (the last one unmaps it).  Context: current's
 * only thread, task.  Locking: none; irqs off around the switch, which
 * the context switch reads (core.c switch_mm). */
static void exec_mmap(struct process *proc, struct mm_struct *mm)
{
	struct task_struct *tsk = current;
	struct mm_struct *old = tsk->mm;
	unsigned long flags;

	might_sleep();
	raw_local_irq_save(flags);
	tsk->mm = mm;
	tsk->active_mm = mm;
	arch_switch_mm(mm->pgd);
	raw_local_irq_restore(flags);
	proc->mm = mm;
	WRITE_ONCE(mm->owner_tgid, proc->tgid);
	mmput(old);
}

/* flush_signal_handlers - step [7]: handled signals back to SIG_DFL;
 * SIG_IGN stays; flags, restorer and mask cleared for all, as Linux's
 * flush_signal_handlers(t, 0).  Locking: takes proc->lock. */
static void flush_signal_handlers(struct process *proc)
{
	spin_lock(&proc->lock);
	for (int i = 0; i < _NSIG; i++) {
		struct kernel_sigaction *ka = &proc->action[i];

		if (ka->sa_handler != SIG_IGN)
			ka->sa_handler = SIG_DFL;
		ka->sa_flags = 0;
		ka->sa_restorer = 0;
		ka->sa_mask = 0;
	}
	spin_unlock(&proc->lock);
}

/* unshare_files - step [7]: a table shared with another task (clone
 * CLONE_FILES without CLONE_THREAD, once fork exists) is copied first,
 * so the close-on-exec closes only ours.  Context: task, sleeps. */
static int unshare_files(void)
{
	struct files_struct *files = current->files, *copy;

	might_sleep();
	if (__atomic_load_n(&files->count, __ATOMIC_ACQUIRE) == 1)
		return 0;
	copy = dup_fd(files);
	if (!copy)
		return -ENOMEM;
	current->files = copy;
	put_files_struct(files);
	return 0;
}

/* exe_path_of - step [4]: the loaded file's path from the root, into
 * buf (PATH_MAX): name itself when absolute, else joined to the walk's
 * start ("." and ".." are kept as written: Linux shows the resolved
 * path).  An AT_EMPTY_PATH exec shows /dev/fd/N: rtk's files have no
 * dentry to name them by (Linux's d_path of the file).
 * Context: task, sleeps.  Locking: prepend_path's. */
static int exe_path_of(const struct linux_binprm *bprm, const char *name,
		       char *buf)
{
	char *dir;
	int err;

	might_sleep();
	if (!name[0])
		name = bprm->filename;	/* /dev/fd/N: see below */
	if (name[0] == '/') {
		strscpy(buf, name, PATH_MAX);
		return 0;
	}
	dir = prepend_path(bprm->root, bprm->pwd, buf, &err);
	if (!dir)
		return err;
	memmove(buf, dir, strlen(dir) + 1);
	dir = buf + strlen(buf);
	if (snprintf(dir, PATH_MAX - (dir - buf), "%s%s",
		     strcmp(buf, "/") ? "/" : "", name) >= PATH_MAX - (dir - buf))
		return -ENAMETOOLONG;
	return 0;
}

/*
 * do_execveat_common - the steps of the header.  Returns only on
 * failure, with the old image intact (steps [1]-[5]).
 * Context: a user thread, sleeps.  Locking: none held.
 */
static long do_execveat_common(int fd, const char __user *filename,
			       const char __user *const __user *argv,
			       const char __user *const __user *envp,
			       int flags)
{
	struct process *proc = current_process();
	struct user_thread *t = current->user;
	struct linux_binprm bprm = { 0 };
	struct exec_strings s = { 0 };
	char fd_name[24], *path, *exe = NULL;
	struct at_path ap;
	struct inode *inode;
	struct mm_struct *mm = NULL;
	int err, argc, envc;

	might_sleep();
	BUG_ON(!proc || !t);
	if (flags & ~(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	path = getname_flags(filename, flags & AT_EMPTY_PATH, &err);	/* [1] */
	if (!path)
		return err;
	err = at_path_get(fd, path, &ap);
	if (err)
		goto out_name;
	bprm.root = ap.root;
	bprm.pwd = ap.start;
	bprm.empty_path = !path[0];
	bprm.filename = path;
	if (bprm.empty_path) {	/* fexecve: Linux names it /dev/fd/N */
		snprintf(fd_name, sizeof(fd_name), "/dev/fd/%d", fd);
		bprm.filename = fd_name;
	}
	err = open_exec(&bprm, path, &inode);				/* [2] */
	if (err)
		goto out_path;
	iput(inode);
	if (flags & AT_SYMLINK_NOFOLLOW) {
		/* O_NOFOLLOW: a symlink as the last component is -ELOOP */
		err = filename_lookup(ap.root, ap.start, path, 0, &inode);
		if (!err) {
			if (S_ISLNK(inode->i_mode))
				err = -ELOOP;
			iput(inode);
		}
		if (err)
			goto out_path;
	}
	err = -ENOMEM;							/* [3] */
	s.buf = kmalloc(ELF_ARG_MAX, GFP_KERNEL);
	s.vec = kmalloc(ELF_ARG_MAX, GFP_KERNEL);
	exe = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!s.buf || !s.vec || !exe)
		goto out_strings;
	s.used = strlen(bprm.filename) + 1;	/* AT_EXECFN's copy */
	err = copy_exec_strings(&s, argv, &argc);
	if (err)
		goto out_strings;
	if (argc == 0) {	/* Linux >= 5.18: argv {""}, not argc 0 */
		s.vec[0] = s.buf + s.used++;
		s.buf[s.used - 1] = '\0';
		s.vec[s.n++] = NULL;
		argc = 1;
	}
	err = copy_exec_strings(&s, envp, &envc);
	if (err)
		goto out_strings;
	bprm.argv = s.vec;
	bprm.argc = argc;
	bprm.envp = s.vec + argc + 1;
	bprm.envc = envc;
	err = -ENOMEM;							/* [4] */
	mm = mm_alloc_user(proc->name);
	if (!mm)
		goto out_strings;
	err = exec_binprm(mm, &bprm);
	if (!err)
		err = create_elf_tables(mm, &bprm);
	if (!err)
		err = exe_path_of(&bprm, bprm.interp ? bprm.interp : path, exe);
	if (!err)
		err = de_thread(proc);					/* [5] */
	if (err)
		goto out_mm;
	err = unshare_files();
	if (err)
		goto out_mm;
	exec_mmap(proc, mm);						/* [6] */
	do_close_on_exec(current->files);				/* [7] */
	flush_signal_handlers(proc);
	t->robust_list = NULL;
	t->clear_child_tid = NULL;
	t->sas_ss_sp = 0;	/* execve(2): no alternate stack kept */
	t->sas_ss_size = 0;
	process_set_exe(proc, bprm.filename, exe);
	spin_lock(&proc->lock);	/* comm: prctl(PR_SET_NAME) writes it too */
	strscpy(current->name, proc->name, sizeof(current->name));
	spin_unlock(&proc->lock);
	arch_thread_exec(&t->arch, bprm.entry, bprm.p);		/* [8] */
	bprm_release(&bprm);
	kfree(exe);
	kfree(s.vec);
	kfree(s.buf);
	at_path_put(&ap);
	putname(path);
	arch_thread_enter_user(&t->arch);

out_mm:
	bprm_release(&bprm);
	mmput(mm);
out_strings:
	kfree(exe);
	kfree(s.vec);
	kfree(s.buf);
out_path:
	at_path_put(&ap);
out_name:
	putname(path);
	return err;
}

long sys_execve(const char __user *filename,
		const char __user *const __user *argv,
		const char __user *const __user *envp)
{
	return do_execveat_common(AT_FDCWD, filename, argv, envp, 0);
}

long sys_execveat(int fd, const char __user *filename,
		  const char __user *const __user *argv,
		  const char __user *const __user *envp, int flags)
{
	return do_execveat_common(fd, filename, argv, envp, flags);
}
