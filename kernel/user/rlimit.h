/*
 * kernel/user/rlimit.h - a process's resource limits and what rtk
 * enforces of them (kernel/user/rlimit.c): RLIMIT_NPROC, as a cap on the
 * process's threads, and RLIMIT_RTPRIO, as the ceiling of the RT
 * priority its threads may set; plus the kernel's own reserve of kernel
 * stacks that no user program can take.
 */
#ifndef KERNEL_USER_RLIMIT_H
#define KERNEL_USER_RLIMIT_H

#include "kernel/user/process.h"
#include "kernel/mm/kstack.h"

/* Threads of one process, at most (RLIMIT_NPROC's default; Linux's
 * default is per user and derived from memory, threads-max / 2). */
#define PROCESS_THREADS_MAX 512
/* Kernel stacks only kernel threads may take: a thread bomb leaves
 * this many for irq threads, kthreads and the shell's next program. */
#define KSTACK_KERNEL_RESERVE 128
/* User threads of all processes together, at most. */
#define USER_THREADS_MAX (KSTACK_MAX - KSTACK_KERNEL_RESERVE)

/* process_rlimit_init - Linux's defaults (see rlimit.c).
 * Context: process creation, p not yet visible. */
void process_rlimit_init(struct process *p);

/*
 * process_charge_thread - count one more thread of proc before it is
 * made: -EAGAIN (Linux's answer to a clone over RLIMIT_NPROC or
 * threads-max) when proc's tree (proc->nproc_root and every process
 * forked from it, see rlimit.c) has RLIMIT_NPROC threads already, or
 * all user threads together have USER_THREADS_MAX.  process_uncharge_thread gives
 * it back, when the thread has exited or its creation failed.
 * Context: task.  Locking: takes proc->lock.
 */
int process_charge_thread(struct process *proc);
void process_uncharge_thread(struct process *proc);

/* user_threads_charged - user threads now, of all processes (tests,
 * `mem`).  Context: any; a lockless read. */
int user_threads_charged(void);

/*
 * rlimit_rtprio_allows - may p, a user thread, be given policy and RT
 * priority prio?  Linux's RLIMIT_RTPRIO rule for an unprivileged task:
 * no change to an RT policy with a limit of 0, no raise of the RT
 * priority above the limit; lowering is always allowed.  rtk has no
 * capabilities: the rule applies to every program, and the default
 * limit is unlimited (a Linux root program is exempt instead).
 * Context: task.  Locking: takes p's process lock.
 */
bool rlimit_rtprio_allows(struct task_struct *p, int policy, int prio);

#endif /* KERNEL_USER_RLIMIT_H */
