/*
 * kernel/user/rlimit.c - resource limits: getrlimit, setrlimit and
 * prlimit64 on a per-process table with Linux's defaults, and the two
 * limits rtk enforces, each against an attack a program can make:
 *
 *   RLIMIT_NPROC: a thread bomb.  Every user thread is charged to its
 *   process before its kernel stack is taken (process_charge_thread,
 *   called by clone and by process_spawn), and given back when it has
 *   exited; a clone beyond the process's limit, or beyond
 *   USER_THREADS_MAX for all processes together, is -EAGAIN.  The
 *   difference, KSTACK_KERNEL_RESERVE stacks, stays for the kernel: irq
 *   threads, kthreads, the shell's next program.  Before, KSTACK_MAX was
 *   one pool for all, and a bomb of ~1000 threads left no stack for any
 *   kernel thread while it lived.  Linux counts RLIMIT_NPROC per user;
 *   rtk has no users and counts it per tree: a process the kernel
 *   started and every process forked from it, however deep, charge one
 *   count kept at that root (nproc_root->tree_charged), checked against
 *   the forking or cloning process's own limit -- Linux's rule with "the
 *   program the kernel started" for "the user", so a fork bomb is held
 *   by its RLIMIT_NPROC too.  (Linux exempts root from RLIMIT_NPROC;
 *   every rtk program is root, and is not exempt.)  max_threads is
 *   kept for all.
 *
 *   RLIMIT_RTPRIO: the highest RT priority a program may give its
 *   threads (rlimit_rtprio_allows, called by sched_setscheduler).  Off by
 *   default (unlimited), because rtk's programs are all root, and a
 *   Linux root program is never held to it; set lower, it holds as on
 *   Linux for an unprivileged one.
 *
 * The table is under proc->lock; threads share it (Linux keeps it in
 * signal_struct, shared by CLONE_THREAD).  A pid argument names the
 * caller (0) or a thread of its process; other pids are -ESRCH, as for
 * the scheduling calls (sys_sched.c).
 * Linux counterpart: kernel/sys.c (do_prlimit, getrlimit, setrlimit,
 * prlimit64), include/asm-generic/resource.h (INIT_RLIMITS),
 * kernel/fork.c (copy_process's RLIMIT_NPROC and nr_threads checks),
 * kernel/sched/syscalls.c (__sched_setscheduler's RLIMIT_RTPRIO check).
 */
#include "kernel/user/rlimit.h"
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/bug.h"

#define INF RLIM64_INFINITY

/* Linux's INIT_RLIMITS as a Debian program sees them, but for NPROC
 * (rtk's per-process cap) and RTPRIO (see the header). */
static const struct rlimit64 rlimit_defaults[RLIM_NLIMITS] = {
	[RLIMIT_CPU] = { INF, INF },
	[RLIMIT_FSIZE] = { INF, INF },
	[RLIMIT_DATA] = { INF, INF },
	[RLIMIT_STACK] = { 8ULL << 20, INF },	/* _STK_LIM */
	[RLIMIT_CORE] = { 0, INF },
	[RLIMIT_RSS] = { INF, INF },
	[RLIMIT_NPROC] = { PROCESS_THREADS_MAX, PROCESS_THREADS_MAX },
	[RLIMIT_NOFILE] = { 1024, 4096 },	/* INR_OPEN_CUR, _MAX */
	[RLIMIT_MEMLOCK] = { 8ULL << 20, 8ULL << 20 },	/* MLOCK_LIMIT */
	[RLIMIT_AS] = { INF, INF },
	[RLIMIT_LOCKS] = { INF, INF },
	[RLIMIT_SIGPENDING] = { 1024, 1024 },
	[RLIMIT_MSGQUEUE] = { 819200, 819200 },	/* MQ_BYTES_MAX */
	[RLIMIT_NICE] = { 0, 0 },
	[RLIMIT_RTPRIO] = { INF, INF },
	[RLIMIT_RTTIME] = { INF, INF },
};

/* user threads of every process, charged (under no lock: atomic) */
static int nr_user_threads;

void process_rlimit_init(struct process *p)
{
	for (int i = 0; i < RLIM_NLIMITS; i++)
		p->rlim[i] = rlimit_defaults[i];
}

/*
 * process_charge_thread - see rlimit.h.  The global count is taken
 * first with an atomic add that backs out over the limit, so two
 * processes cloning at once cannot both take the last slot.
 */
/* nproc_root - the process whose tree_charged counts proc's threads. */
static struct process *nproc_root(struct process *proc)
{
	return proc->nproc_root ? proc->nproc_root : proc;
}

int process_charge_thread(struct process *proc)
{
	struct process *root = nproc_root(proc);
	int ret = 0;

	might_sleep();
	if (__atomic_add_fetch(&nr_user_threads, 1, __ATOMIC_RELAXED) >
	    USER_THREADS_MAX) {
		__atomic_sub_fetch(&nr_user_threads, 1, __ATOMIC_RELAXED);
		ret = -EAGAIN;
	}
	spin_lock(&proc->lock);
	/* the tree's count backs out over the limit, as the total does */
	if (!ret && (u64)__atomic_add_fetch(&root->tree_charged, 1,
					    __ATOMIC_RELAXED) >
			    proc->rlim[RLIMIT_NPROC].rlim_cur) {
		__atomic_sub_fetch(&root->tree_charged, 1, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&nr_user_threads, 1, __ATOMIC_RELAXED);
		ret = -EAGAIN;
	}
	if (ret)
		proc->nr_refused++;
	else
		proc->nr_charged++;
	spin_unlock(&proc->lock);
	return ret;
}

/* process_uncharge_thread - see rlimit.h.  Context: task.  Locking:
 * takes proc->lock. */
void process_uncharge_thread(struct process *proc)
{
	spin_lock(&proc->lock);
	BUG_ON(proc->nr_charged <= 0);
	proc->nr_charged--;
	spin_unlock(&proc->lock);
	BUG_ON(__atomic_sub_fetch(&nproc_root(proc)->tree_charged, 1,
				  __ATOMIC_RELAXED) < 0);
	__atomic_sub_fetch(&nr_user_threads, 1, __ATOMIC_RELAXED);
}

int user_threads_charged(void)
{
	return __atomic_load_n(&nr_user_threads, __ATOMIC_RELAXED);
}

bool rlimit_rtprio_allows(struct task_struct *p, int policy, int prio)
{
	struct process *proc = p->user ? p->user->proc : NULL;
	u64 limit;

	if (!proc || policy == SCHED_OTHER)
		return true;
	spin_lock(&proc->lock);
	limit = proc->rlim[RLIMIT_RTPRIO].rlim_cur;
	spin_unlock(&proc->lock);
	if (policy != READ_ONCE(p->policy) && !limit)
		return false;	/* can't set an RT policy */
	return prio <= READ_ONCE(p->rt_priority) || (u64)prio <= limit;
}

/* rlimit_process - the process a pid argument names, with a reference
 * to drop (its thread's task); NULL: -ESRCH. */
static struct task_struct *rlimit_target(int pid)
{
	if (pid == 0)
		return current->user ? get_task_struct(current) : NULL;
	return process_find_thread(pid);
}

/*
 * do_prlimit - old (if not NULL) gets the limit now, then new (if not
 * NULL) replaces it.  Linux's checks: resource in range (-EINVAL), cur
 * not above max (-EINVAL).  Raising a hard limit needs CAP_SYS_RESOURCE
 * in Linux; every rtk program has it.
 * Context: task.  Locking: takes the process's lock.
 */
static int do_prlimit(struct process *proc, unsigned int resource,
		      const struct rlimit64 *new, struct rlimit64 *old)
{
	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (new && new->rlim_cur > new->rlim_max)
		return -EINVAL;
	spin_lock(&proc->lock);
	if (old)
		*old = proc->rlim[resource];
	if (new)
		proc->rlim[resource] = *new;
	spin_unlock(&proc->lock);
	return 0;
}

long sys_prlimit64(int pid, unsigned int resource,
		   const struct rlimit64 __user *new_rlim,
		   struct rlimit64 __user *old_rlim)
{
	struct rlimit64 new, old;
	struct task_struct *p;
	long ret;

	might_sleep();
	if (pid < 0)
		return -EINVAL;
	if (new_rlim && copy_from_user(&new, new_rlim, sizeof(new)))
		return -EFAULT;
	p = rlimit_target(pid);
	if (!p)
		return -ESRCH;
	ret = do_prlimit(p->user->proc, resource, new_rlim ? &new : NULL,
			 old_rlim ? &old : NULL);
	put_task_struct(p);
	if (!ret && old_rlim && copy_to_user(old_rlim, &old, sizeof(old)))
		ret = -EFAULT;
	return ret;
}

long sys_getrlimit(unsigned int resource, struct rlimit64 __user *rlim)
{
	return sys_prlimit64(0, resource, NULL, rlim);
}

long sys_setrlimit(unsigned int resource, const struct rlimit64 __user *rlim)
{
	return sys_prlimit64(0, resource, rlim, NULL);
}
