/*
 * kernel/user/sys_sched.c - the scheduling system calls, on the
 * kernel's sched_setscheduler / set_cpus_allowed / sched_yield.
 *
 * pid 0 is the caller; another pid must name a thread of the caller's
 * own process (-ESRCH otherwise).  Linux lets a privileged process
 * change any task; rtk's processes are all "root", and the restriction
 * keeps a user program from re-prioritising kernel threads (irq
 * threads, ksoftirqd) and other programs -- a named difference.
 * Errors are Linux's: -EINVAL for a negative pid, a NULL param, a bad
 * policy or priority, an affinity mask with no online CPU or shorter
 * than a cpumask word; -EFAULT for a bad pointer.
 * Linux counterpart: kernel/sched/syscalls.c (do_sched_setscheduler,
 * sched_setaffinity, sched_getaffinity, do_sched_yield).
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/process.h"
#include "kernel/user/rlimit.h"
#include "kernel/user/uaccess.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "lib/errno.h"

/* find_thread - the target of a pid argument, with a reference. */
static struct task_struct *find_thread(int pid)
{
	if (pid == 0)
		return get_task_struct(current);
	return process_find_thread(pid);
}

long sys_sched_setscheduler(int pid, int policy,
			    const struct sched_param __user *param)
{
	struct sched_param kp;
	struct task_struct *p;
	long ret;

	if (pid < 0 || !param)
		return -EINVAL;
	if (copy_from_user(&kp, param, sizeof(kp)))
		return -EFAULT;
	if (policy != SCHED_OTHER && policy != SCHED_FIFO && policy != SCHED_RR)
		return -EINVAL;
	p = find_thread(pid);
	if (!p)
		return -ESRCH;
	if (!rlimit_rtprio_allows(p, policy, kp.sched_priority))
		ret = -EPERM;	/* RLIMIT_RTPRIO, as Linux (rlimit.c) */
	else
		ret = sched_setscheduler(p, policy, &kp);
	put_task_struct(p);
	return ret;
}

long sys_sched_getscheduler(int pid)
{
	struct task_struct *p;
	long ret;

	if (pid < 0)
		return -EINVAL;
	p = find_thread(pid);
	if (!p)
		return -ESRCH;
	ret = READ_ONCE(p->policy);
	put_task_struct(p);
	return ret;
}

long sys_sched_setparam(int pid, const struct sched_param __user *param)
{
	struct task_struct *p;
	long ret;

	if (pid < 0 || !param)
		return -EINVAL;
	p = find_thread(pid);
	if (!p)
		return -ESRCH;
	ret = READ_ONCE(p->policy);
	put_task_struct(p);
	return sys_sched_setscheduler(pid, (int)ret, param);
}

long sys_sched_getparam(int pid, struct sched_param __user *param)
{
	struct sched_param kp;
	struct task_struct *p;

	if (pid < 0 || !param)
		return -EINVAL;
	p = find_thread(pid);
	if (!p)
		return -ESRCH;
	kp.sched_priority = READ_ONCE(p->rt_priority);
	put_task_struct(p);
	return copy_to_user(param, &kp, sizeof(kp)) ? -EFAULT : 0;
}

long sys_sched_setaffinity(int pid, unsigned int len,
			   const unsigned long __user *user_mask)
{
	cpumask_t mask = { 0 };
	struct task_struct *p;
	long ret;

	if (pid < 0 || len < sizeof(mask.bits))
		return -EINVAL;
	if (copy_from_user(&mask.bits, user_mask, sizeof(mask.bits)))
		return -EFAULT;
	p = find_thread(pid);
	if (!p)
		return -ESRCH;
	ret = set_cpus_allowed(p, mask);
	put_task_struct(p);
	return ret;
}

/* sys_sched_getaffinity - Linux returns the bytes written (one word). */
long sys_sched_getaffinity(int pid, unsigned int len,
			   unsigned long __user *user_mask)
{
	struct task_struct *p;
	u64 bits;

	if (pid < 0 || len < sizeof(bits) || (len & (sizeof(long) - 1)))
		return -EINVAL;
	p = find_thread(pid);
	if (!p)
		return -ESRCH;
	bits = __atomic_load_n(&p->cpus_allowed.bits, __ATOMIC_RELAXED) &
	       __atomic_load_n(&cpu_online_mask.bits, __ATOMIC_RELAXED);
	put_task_struct(p);
	return copy_to_user(user_mask, &bits, sizeof(bits)) ? -EFAULT :
							     (long)sizeof(bits);
}

long sys_sched_yield(void)
{
	sched_yield();
	return 0;
}

/* sched_get_priority_max/min - the sched_priority range of a policy:
 * 1..99 for SCHED_FIFO and SCHED_RR, 0..0 for SCHED_OTHER; -EINVAL for
 * any other (Linux answers 0..0 for SCHED_BATCH, SCHED_IDLE and
 * SCHED_DEADLINE too, which rtk's sched_setscheduler refuses). */
long sys_sched_get_priority_max(int policy)
{
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		return MAX_RT_PRIO - 1;
	return policy == SCHED_OTHER ? 0 : -EINVAL;
}

long sys_sched_get_priority_min(int policy)
{
	if (policy == SCHED_FIFO || policy == SCHED_RR)
		return 1;
	return policy == SCHED_OTHER ? 0 : -EINVAL;
}
