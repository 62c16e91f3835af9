/*
 * kernel/user/process_tree.c - the process tree (see process_tree.h):
 * linking a forked child, the exit-time notice, reparenting, getppid.
 *
 * exit_notify(p), when p's last thread is gone:
 *   [1] the reaper: process_reparent_target (pid 1 while it runs);
 *   [2] each child of p goes to the reaper (a zombie among them is a
 *       notice for the reaper) or, with no reaper, loses its parent: a
 *       zombie one is released now, a live one releases itself at its
 *       own exit ([4]); p is marked tree_exited, so that no fork can add
 *       a child any more (a fork by p's thread cannot be under way: the
 *       forking thread is still listed, so it is not the last);
 *   [3] a forked p with a parent becomes a zombie: the parent's
 *       child_events moves and its wait4 sleepers wake;
 *   [4] a forked p without one (orphaned, no reaper) is released;
 *   [5] outside the lock: the releases, and the exit signal to the
 *       parent (SIGCHLD, whose default is to ignore it) through
 *       kill_process, with a reference on the parent taken under the
 *       lock, so a parent ending meanwhile stays valid.
 *
 * Why a zombie's parent pointer is always valid under the lock: a parent
 * hands its children on ([2]) before it can itself be reaped or freed,
 * and it does that under process_tree_lock.
 *
 * The race [2]'s tree_exited closes, a fork by another process adding a
 * child to p is impossible (only p's threads fork into p), but the
 * other order of one exit and a wait4 matters:
 *
 *	CPU0 (parent, wait4)		CPU1 (child's last thread)
 *	lock; no zombie; seen = events
 *	unlock
 *					lock; zombie; events++; wake: nobody
 *					unlock
 *	queue; events != seen: no sleep, scan again
 *
 * wait.c queues itself before it compares the counter, so CPU1's wake
 * after the compare finds it queued.
 * Linux counterpart: kernel/exit.c (exit_notify, forget_original_parent,
 * reparent_leader, do_notify_parent's autoreap), kernel/fork.c
 * (copy_process's link under tasklist_lock), kernel/sys.c (getppid).
 */
#include "kernel/user/process_tree.h"
#include "kernel/user/process.h"
#include "kernel/user/syscalls.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "lib/bug.h"
#include "lib/errno.h"

DEFINE_SPINLOCK(process_tree_lock);

/* process_get - one more reference.  Locking: the caller knows p is
 * alive (process_tree_lock held and p in the tree). */
static struct process *process_get(struct process *p)
{
	__atomic_fetch_add(&p->refcount, 1, __ATOMIC_RELAXED);
	return p;
}

/* the init= process (init_process.c) while it runs: orphans go to it */
static struct process *child_reaper;

void process_tree_set_reaper(struct process *p)
{
	might_sleep();
	spin_lock(&process_tree_lock);
	child_reaper = p;
	spin_unlock(&process_tree_lock);
}

struct process *process_reparent_target(struct process *dying)
{
	struct process *r = child_reaper;

	WARN_ON(!spin_is_locked(&process_tree_lock));
	/* a reaper whose children were handed on takes no more: they would
	 * never be reaped (its exit_notify has run) */
	if (!r || r == dying || r->tree_exited)
		return NULL;
	return r;
}

int process_tree_link(struct process *parent, struct process *child,
		      int exit_signal)
{
	int ret = 0;

	might_sleep();
	spin_lock(&process_tree_lock);
	if (parent->tree_exited) {
		ret = -EINTR;
	} else {
		child->parent = parent;
		child->in_tree = true;
		child->exit_signal = exit_signal;
		list_add_tail(&child->sibling, &parent->children);
	}
	spin_unlock(&process_tree_lock);
	return ret;
}

/* child_event - tell p a child of its became a zombie.
 * Locking: process_tree_lock held. */
static void child_event(struct process *p)
{
	WARN_ON(!spin_is_locked(&process_tree_lock));
	WRITE_ONCE(p->child_events, p->child_events + 1);
	wake_up_all(&p->wait_chldexit);
}

void exit_notify(struct process *p)
{
	struct process *reaper, *c, *n, *parent = NULL;
	LIST_HEAD(release);
	bool self_release = false, handed_zombie = false;

	might_sleep();
	spin_lock(&process_tree_lock);
	reaper = process_reparent_target(p);				/* [1] */
	BUG_ON(reaper == p);
	list_for_each_entry_safe(c, n, &p->children, sibling) {		/* [2] */
		list_del_init(&c->sibling);
		c->parent = reaper;
		if (reaper) {
			list_add_tail(&c->sibling, &reaper->children);
			handed_zombie |= c->zombie;
		} else if (c->zombie) {
			list_add_tail(&c->sibling, &release);
		}
	}
	p->tree_exited = true;
	if (handed_zombie)
		child_event(process_get(reaper));
	if (p->in_tree && p->parent) {					/* [3] */
		p->zombie = true;
		parent = process_get(p->parent);
		child_event(parent);
	} else if (p->in_tree) {					/* [4] */
		self_release = true;
	}
	spin_unlock(&process_tree_lock);
	list_for_each_entry_safe(c, n, &release, sibling) {		/* [5] */
		list_del_init(&c->sibling);
		process_put(c);
	}
	if (self_release)	/* do_exit still holds its thread's reference */
		process_put(p);
	if (parent) {
		if (p->exit_signal)
			kill_process(parent, p->exit_signal);
		process_put(parent);
	}
	if (handed_zombie) {
		kill_process(reaper, SIGCHLD);
		process_put(reaper);
	}
}

int process_ppid(struct process *p)
{
	int ppid = 0;

	might_sleep();
	spin_lock(&process_tree_lock);
	if (p && p->parent)
		ppid = p->parent->tgid;
	spin_unlock(&process_tree_lock);
	return ppid;
}

/* sys_getppid - the parent's process id: 1 for an orphan init took, 0
 * for a process the kernel started (Linux's parent there is kthreadd or
 * the idle task, pid 0) and for an orphan with no init to take it. */
long sys_getppid(void)
{
	return process_ppid(current_process());
}
