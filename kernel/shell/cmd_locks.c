/*
 * kernel/shell/cmd_locks.c - `locks`: the rt_mutex-based locks that are
 * contended (found through their blocked waiters) or are PI tester locks
 * held right now, each with its name, where it was initialised, its
 * owner with base/effective prio, and its waiters, best first.  This is
 * also the place that shows, for a blocked task, the lock it waits on
 * and that lock's owner (the `ps` lock column of issue 5).
 * Locks nobody waits for are invisible to rtk (there is no registry of
 * every lock), except the tester's L0..L7.
 * Linux counterpart: /proc/locks in spirit; lockdep's lock_stat and
 * "show all locks held" (SysRq-d) in content.
 */
#include "kernel/shell/shell.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/workloads/rttester.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

/* A snapshot taken under the task list lock: irqs off, no allocation. */
#define LOCKS_MAX_WAITERS 64

/* What to print of a lock, copied while a waiter pins it. */
struct locks_lock {
	const char *name, *file;	/* static strings */
	int line;
	int owner_pid, owner_prio, owner_normal_prio;	/* pid 0: none */
	char owner_name[TASK_COMM_LEN];
};

struct locks_waiter {
	const struct rt_mutex *lock;	/* identity only, never dereferenced
					 * after the snapshot */
	struct locks_lock info;
	int pid, prio, normal_prio;
	char name[TASK_COMM_LEN];
};

struct locks_snap {
	int nr;
	bool truncated;
	struct locks_waiter w[LOCKS_MAX_WAITERS];
};

/* Copy lock's report data.  Locking: the lock cannot go away (a waiter
 * is queued on it, or it is static). */
static void locks_copy_lock(const struct rt_mutex *lock, struct locks_lock *l)
{
	struct task_struct *owner = rt_mutex_owner(lock);

	l->name = lock->name ? lock->name : "?";
	l->file = lock->file ? lock->file : "?";
	l->line = lock->line;
	l->owner_pid = 0;
	if (owner) {
		l->owner_pid = owner->pid;
		l->owner_prio = READ_ONCE(owner->prio);
		l->owner_normal_prio = READ_ONCE(owner->normal_prio);
		strscpy(l->owner_name, owner->name, sizeof(l->owner_name));
	}
}

/* sched_for_each_task() callback.  Locking: tasklist lock held (irqs
 * off); takes p->pi_lock, under which pi_blocked_on and the waiter on
 * p's stack are stable. */
static void locks_collect(struct task_struct *p, void *arg)
{
	struct locks_snap *s = arg;
	struct locks_waiter *w;

	raw_spin_lock(&p->pi_lock);
	if (p->pi_blocked_on) {
		if (s->nr == LOCKS_MAX_WAITERS) {
			s->truncated = true;
		} else {
			w = &s->w[s->nr++];
			w->lock = p->pi_blocked_on->lock;
			locks_copy_lock(w->lock, &w->info);
			w->pid = p->pid;
			w->prio = p->prio;
			w->normal_prio = p->normal_prio;
			strscpy(w->name, p->name, sizeof(w->name));
		}
	}
	raw_spin_unlock(&p->pi_lock);
}

static void locks_print_lock(const struct locks_snap *s,
			     const struct rt_mutex *lock,
			     const struct locks_lock *l)
{
	bool first = true;
	int i, j, best;
	bool shown[LOCKS_MAX_WAITERS] = { false };

	console_printf("%-12s %s:%d\n", l->name, l->file, l->line);
	if (l->owner_pid)
		console_printf("    owner   %4d %-16s prio %3d (base %3d)\n",
			       l->owner_pid, l->owner_name, l->owner_prio,
			       l->owner_normal_prio);
	else
		console_printf("    owner   none (free, woken top waiter pending)\n");
	/* waiters best prio first, FIFO (task list order) among equals */
	for (;;) {
		best = -1;
		for (j = 0; j < s->nr; j++)
			if (s->w[j].lock == lock && !shown[j] &&
			    (best < 0 || s->w[j].prio < s->w[best].prio))
				best = j;
		if (best < 0)
			break;
		shown[best] = true;
		i = best;
		console_printf("    %s %4d %-16s prio %3d (base %3d)\n",
			       first ? "waiter" : "      ", s->w[i].pid,
			       s->w[i].name, s->w[i].prio, s->w[i].normal_prio);
		first = false;
	}
}

static bool locks_seen_before(const struct locks_snap *s, int upto,
			      const struct rt_mutex *lock)
{
	int i;

	for (i = 0; i < upto; i++)
		if (s->w[i].lock == lock)
			return true;
	return false;
}

static struct locks_snap locks_snap;	/* one shell: too big for a stack */

static int cmd_locks(int argc, char **argv)
{
	struct locks_snap *s = &locks_snap;
	struct locks_lock info;
	struct rt_mutex *t;
	int i, shown = 0;

	if (shell_no_args(argc, argv))
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	sched_for_each_task(locks_collect, s);
	console_printf("prio: kernel scale (0..99 realtime, 100..139 other)\n");
	for (i = 0; i < s->nr; i++) {
		if (locks_seen_before(s, i, s->w[i].lock))
			continue;
		locks_print_lock(s, s->w[i].lock, &s->w[i].info);
		shown++;
	}
	for (i = 0; (t = rttest_lock(i)) != NULL && i < RTTEST_LOCKS; i++) {
		if (!rt_mutex_is_locked(t) || locks_seen_before(s, s->nr, t))
			continue;
		locks_copy_lock(t, &info);
		locks_print_lock(s, t, &info);
		shown++;
	}
	if (!shown)
		console_printf("no contended locks\n");
	if (s->truncated)
		console_printf("(more than %d waiters, list truncated)\n",
			       LOCKS_MAX_WAITERS);
	return 0;
}
SHELL_COMMAND(locks, "locks held or contended: owner and waiters with prios",
	      cmd_locks);
