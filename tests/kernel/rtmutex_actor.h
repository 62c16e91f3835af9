/*
 * tests/kernel/rtmutex_actor.h - the rtmutex suite's actors: kernel
 * threads that take, try, time out on and release rt_mutexes on command,
 * one command at a time, so a case can build a PI chain step by step
 * and check each priority in between (tests/kernel/test_rtmutex.c).
 * Commands and results travel through completions, never sleeps.
 */
#ifndef TESTS_KERNEL_RTMUTEX_ACTOR_H
#define TESTS_KERNEL_RTMUTEX_ACTOR_H

#include "kernel/ktest.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/sched/completion.h"
#include "kernel/time/ktime.h"

#define FIFO(p) (MAX_RT_PRIO - 1 - (p))	/* kernel prio of SCHED_FIFO p */
#define PRIO_OTHER DEFAULT_PRIO
/* A waited-for condition that has not happened after this long never
 * will: every step here is a few context switches, even under TCG. */
#define WAIT_NS (3 * NSEC_PER_SEC)

enum actor_op { OP_LOCK, OP_LOCK_INTR, OP_TIMED, OP_TRYLOCK, OP_UNLOCK,
		OP_EXIT };

struct actor {
	struct task_struct *task;
	struct completion go;		/* a command is posted */
	struct completion done;		/* it finished; result is valid */
	enum actor_op op;
	struct rt_mutex *lock;
	s64 arg;
	int result;
};

/* actor_start - a kernel thread that runs the commands posted to a, at
 * SCHED_FIFO fifo (0: SCHED_OTHER), pinned to cpu (< 0: not pinned).
 * Context: the test runner; ASSERTs on failure. */
void actor_start(struct ktest *t, struct actor *a, const char *name,
		 int fifo, int cpu);
/* actor_post - give a command without waiting for it. */
void actor_post(struct actor *a, enum actor_op op, struct rt_mutex *lock,
		s64 arg);
/* actor_result - the posted command's result, 1000 after WAIT_NS. */
int actor_result(struct actor *a);
/* actor_do - post and wait for the result. */
int actor_do(struct actor *a, enum actor_op op, struct rt_mutex *lock);
/* actor_stop - end the actor's thread and drop it. */
void actor_stop(struct actor *a);
/* wait_blocked_on - until p sleeps blocked on lock (its chain walk is
 * over then); false after WAIT_NS.  Context: task; schedules. */
bool wait_blocked_on(struct task_struct *p, struct rt_mutex *lock);

#define EXPECT_BLOCKED(t, a, l)                                              \
	KTEST_EXPECT(t, wait_blocked_on((a)->task, l),                       \
		     "%s not seen blocked on %s", (a)->task->name, (l)->name)
#define EXPECT_PRIO(t, a, p)                                                 \
	KTEST_EXPECT(t, READ_ONCE((a)->task->prio) == (p),                   \
		     "%s prio %d, want %d", (a)->task->name,                 \
		     READ_ONCE((a)->task->prio), (p))
#define EXPECT_RESULT(t, a, op, l, want)                                     \
	do {                                                                 \
		int __r = actor_do(a, op, l);                                \
		KTEST_EXPECT(t, __r == (want), "%s: %s on %s gave %d, want %d", \
			     (a)->task->name, #op, (l)->name, __r, (want));  \
	} while (0)

#endif /* TESTS_KERNEL_RTMUTEX_ACTOR_H */
