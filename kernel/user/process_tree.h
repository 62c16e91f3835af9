/*
 * kernel/user/process_tree.h - parents, children and zombies: the tree a
 * fork grows (kernel/user/fork.c), the notice a parent gets when a child
 * ends (exit_notify), and who inherits the children of a process that
 * ends first (process_reparent_target).  wait4 (kernel/user/wait.c)
 * reaps the zombies.
 *
 * A process started by the kernel (process_spawn*) has no parent: its
 * spawner waits for it with process_wait and drops it, as before the
 * tree.  A forked one is its parent's child; the tree holds its first
 * reference until wait4 reaps it.  One lock, process_tree_lock, covers
 * every parent, children and sibling field of every process (Linux's
 * tasklist_lock, a sleeping spinlock_t here: nothing under it runs with
 * preemption off).  Lock order: process_tree_lock, then a process's lock.
 * Linux counterpart: kernel/exit.c (exit_notify, forget_original_parent,
 * find_new_reaper, do_notify_parent), kernel/sys.c (getppid).
 */
#ifndef KERNEL_USER_PROCESS_TREE_H
#define KERNEL_USER_PROCESS_TREE_H

#include "kernel/locking/spinlock.h"

struct process;

extern spinlock_t process_tree_lock;

/* process_reparent_target - the process that inherits dying's children:
 * the child reaper (pid 1, the init= program) while it lives and is not
 * dying itself; NULL otherwise (no init=, or init is gone): the children
 * are reaped at their exit by nobody (their zombies freed at once).
 * Linux gives them to the namespace's child_reaper or a subreaper; rtk
 * has one namespace and no subreapers.
 * Locking: process_tree_lock held. */
struct process *process_reparent_target(struct process *dying);

/* process_tree_set_reaper - p (or NULL) becomes the process orphans are
 * handed to, Linux's pid_ns->child_reaper; the caller keeps a reference
 * on p until it sets NULL again.  Context: task.
 * Locking: takes process_tree_lock. */
void process_tree_set_reaper(struct process *p);

/* process_tree_link - make child (forked, no thread running yet) a child
 * of parent, which gets exit_signal when it ends (0: none).  -EINTR if
 * parent already handed its children on (its last thread is gone).
 * Context: task.  Locking: takes process_tree_lock. */
int process_tree_link(struct process *parent, struct process *child,
		      int exit_signal);

/* exit_notify - p's last thread is gone (do_exit, before its own
 * reference drops): its children go to the reaper (or are released),
 * p becomes a zombie for its parent's wait4, and the parent gets p's
 * exit signal.  A forked p with no parent is released here.
 * Context: task, may sleep.  Locking: takes process_tree_lock. */
void exit_notify(struct process *p);

/* process_ppid - p's parent's pid (getppid, /proc/self/status PPid);
 * 0 with no parent or p NULL.  Context: task.  Locking: takes
 * process_tree_lock. */
int process_ppid(struct process *p);

#endif /* KERNEL_USER_PROCESS_TREE_H */
