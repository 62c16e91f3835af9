/*
 * model/pi/pi.pml - the PI protocol of rtk's rt_mutex as a Promela model
 * for SPIN: the state (owner word, wait_lock, pi_lock, wait lists,
 * pi_waiters, task prios), the properties, the task processes running a
 * lock script, and the nondeterministic events (a waiter leaving by
 * timeout or signal, a priority change).  The C code's steps are in
 * rtmutex.pml (kernel/locking/rtmutex.c), rtmutex_pi.pml
 * (kernel/locking/rtmutex_pi.c) and pi_chain.pml
 * (kernel/locking/pi_chain.c).  model/pi/README.md says how to read and
 * run it; model/pi/check.sh runs the model and the mutants.
 *
 * Build-time choices (spin -D...): one SCENARIO_* (scenarios.pml), and
 * at most one MUTANT_* (a deliberate bug, README.md lists them).
 */

#include "scenarios.pml"

#define NIL		255	/* no task, no lock, lock free */
#define TASK_RUNNING	0
#define TASK_SLEEPING	1
#define EDEADLK		35
#define ETIMEDOUT	110
#define PI_LINK_STOP	0
#define PI_LINK_REQUEUE	1
#define PI_LINK_FOLLOW	2
/* max_lock_depth is 1024 in C; any bound above the longest chain the
 * scenario can build (NT links) behaves the same. */
#define MAX_LOCK_DEPTH	(NT + 2)
#ifdef MUTANT_NO_DETECT
#define DETECT		false	/* RT_DEADLOCK_DETECT=0 */
#else
#define DETECT		true	/* RT_DEADLOCK_DETECT (deadlock.h) */
#endif

/* script ops: LOCK(l), UNLOCK(l), END */
#define LOCK(l)		(l)
#define UNLOCK(l)	(8 + (l))
#define OP_END		16

#include "pi_chain.pml"

/* ---- the locks: owner word and wait_lock, under wait_lock the queue */
byte owner[NL] = NIL;		/* lock->owner without bit 0: task or NIL */
bool hasw[NL];			/* lock->owner bit 0: RT_MUTEX_HAS_WAITERS */
byte wait_lock[NL] = NIL;	/* raw spinlock: holder or NIL */
plist wait_list[NL];		/* waiters (task ids) by w_prio, FIFO */

/* ---- the tasks: pi_lock, under it prio, pi_waiters, pi_blocked_on */
byte pi_lock[NT] = NIL;		/* raw spinlock: holder or NIL */
byte normal_prio[NT];		/* lower is more important */
byte prio[NT];			/* effective prio (rt_mutex_setprio) */
plist pi_waiters[NT];		/* top waiter of each owned lock */
bool pi_blocked_on[NT];		/* task->pi_blocked_on == its waiter */
byte task_state[NT];			/* TASK_RUNNING / TASK_SLEEPING */

/* ---- each task's one waiter (struct rt_mutex_waiter on its stack) */
byte w_lock[NT];		/* waiter->lock */
byte w_prio[NT];		/* waiter->prio = list_entry's prio */
byte pw_prio[NT];		/* pi_list_entry's prio */

/* ---- the events: the hrtimer of a timed lock */
bool armed[NT];			/* hrtimer started, not cancelled */
bool expired[NT];		/* to.expired */

/* ---- the task scripts (constant) */
byte script[NT * MAXOPS];
bool timed[NT];			/* rt_mutex_timed_lock: -EDEADLK returned */

/* ---- ghost state for the properties (no C counterpart) */
byte cs[NL] = NIL;		/* who is between lock and unlock */
byte pending[NL] = NIL;		/* woken top waiter that has not run yet */
byte unlocking[NL] = NIL;	/* unlocker before its last touch */
byte busy;			/* processes inside a slow path or walk */
byte walking;			/* chain walks in flight */

#if NL == 1
#define OWNER_WORD_OK	(wait_list[0].n == 0 || hasw[0])
#elif NL == 2
#define OWNER_WORD_OK	((wait_list[0].n == 0 || hasw[0]) && \
			 (wait_list[1].n == 0 || hasw[1]))
#else
#define OWNER_WORD_OK	((wait_list[0].n == 0 || hasw[0]) && \
			 (wait_list[1].n == 0 || hasw[1]) && \
			 (wait_list[2].n == 0 || hasw[2]))
#endif

/* the properties, named so that pan's "assertion violated" says which */
hidden byte prop_mutual_exclusion;
hidden byte prop_no_lost_wakeup;
hidden byte prop_edeadlk_only_on_cycle;
hidden byte prop_pi_boost;
hidden byte prop_pi_transitive;
hidden byte prop_pi_waiters;
hidden byte prop_timely_deboost;
hidden byte prop_steal_strictly_higher;
hidden byte prop_owner_word_waiters_bit;
hidden byte prop_fastpath_never_under_unlocker;
hidden byte prop_plist_del_on_list;

/* the locals every process that runs slow paths needs */
#define SLOWPATH_LOCALS \
	bool sl_taken, sl_fast, su_released, tb_walk, rw_top; \
	byte su_waiter, tb_owner, tb_top, tb_next; \
	byte wk_task, wk_orig_lock, wk_next_lock, wk_orig_waiter, wk_top_task; \
	byte wk_top_waiter, wk_waiter, wk_lock, wk_prtop, wk_act, wk_depth, wk_ret; \
	bool wk_detect, wk_requeue, wk_propagate, wk_stop, wk_got; \
	byte q_i, q_e, q_t, q_l, q_x

/*
 * check_quiescent - the PI properties, checked whenever the last slow
 * path or walk in flight ends (busy drops to 0): no walk is carrying a
 * change then, so the boosts must be exact.
 *   prop_pi_boost: every task's prio is the best of its normal prio and
 *	the prios of the top waiters of the locks it owns
 *   prop_pi_transitive: every blocked task is queued at its current
 *	prio, so the boost of a chain's head reaches its tail
 *   prop_pi_waiters: pi_waiters holds exactly the top waiter of each
 *	owned lock, at its queued prio
 *   prop_no_lost_wakeup: a free lock with waiters has its top waiter
 *	running (woken), never all waiters asleep
 */
inline check_quiescent()
{
	q_t = 0;
	do	/* first the links of every chain, then each owner */
	:: q_t < NT ->
		prop_pi_transitive = (!pi_blocked_on[q_t] || w_prio[q_t] == prio[q_t]);
		assert(prop_pi_transitive);
		q_t++
	:: else -> break
	od;
	q_t = 0;
	do
	:: q_t < NT ->
		q_e = normal_prio[q_t];
		q_i = 0;		/* owned locks with waiters */
		q_l = 0;
		do
		:: q_l < NL ->
			if
			:: owner[q_l] == q_t && wait_list[q_l].n > 0 ->
				q_i++;
				if
				:: prio[wait_list[q_l].e[0]] < q_e ->
					q_e = prio[wait_list[q_l].e[0]]
				:: else -> skip
				fi;
				/* the lock's top waiter is on q_t's pi_waiters */
				q_x = 0;
				do
				:: q_x < pi_waiters[q_t].n &&
				   pi_waiters[q_t].e[q_x] != wait_list[q_l].e[0] -> q_x++
				:: else -> break
				od;
				prop_pi_waiters = (q_x < pi_waiters[q_t].n &&
					pw_prio[wait_list[q_l].e[0]] == w_prio[wait_list[q_l].e[0]]);
				assert(prop_pi_waiters)
			:: else -> skip
			fi;
			q_l++
		:: else -> break
		od;
		prop_pi_waiters = (pi_waiters[q_t].n == q_i);
		assert(prop_pi_waiters);
		prop_pi_boost = (prio[q_t] == q_e);
		assert(prop_pi_boost);
		q_t++
	:: else -> break
	od;
	q_l = 0;
	do
	:: q_l < NL ->
		prop_no_lost_wakeup = (owner[q_l] != NIL || wait_list[q_l].n == 0 ||
				       task_state[wait_list[q_l].e[0]] == TASK_RUNNING);
		assert(prop_no_lost_wakeup);
		q_l++
	:: else -> break
	od;
	q_t = 0; q_i = 0; q_e = 0; q_l = 0; q_x = 0
}

inline quiesce()
{
	busy--;
	if
	:: busy == 0 -> check_quiescent()
	:: else -> skip
	fi
}

/*
 * check_timely_deboost - at the wake-up of rt_mutex_slowunlock (me has
 * just released l): me runs at no better a prio than its normal prio
 * and the pi_waiters entries of the locks it still holds allow.
 */
inline check_timely_deboost(l)
{
	q_e = normal_prio[me];
	q_i = 0;
	do
	:: q_i < pi_waiters[me].n ->
		if
		:: w_lock[pi_waiters[me].e[q_i]] != l &&
		   pw_prio[pi_waiters[me].e[q_i]] < q_e ->
			q_e = pw_prio[pi_waiters[me].e[q_i]]
		:: else -> skip
		fi;
		q_i++
	:: else -> break
	od;
	prop_timely_deboost = (prio[me] >= q_e);
	assert(prop_timely_deboost);
	q_i = 0; q_e = 0
}

#include "rtmutex.pml"
#include "rtmutex_pi.pml"

/* A task: runs script[me*MAXOPS..]; a failed lock skips to its unlock. */
proctype task(byte me)
{
	byte pc, op, ret, skip_to = NIL;
	SLOWPATH_LOCALS;

	do
	:: op = script[me * MAXOPS + pc];
		if
		:: op == OP_END -> break
		:: op != OP_END && skip_to != NIL ->
			if
			:: op == UNLOCK(skip_to) -> skip_to = NIL
			:: else -> skip
			fi
		:: op != OP_END && skip_to == NIL && op < 8 ->
			rt_mutex_lock(op, ret);
			prop_edeadlk_only_on_cycle = (ret != EDEADLK || CYCLE_POSSIBLE);
			assert(prop_edeadlk_only_on_cycle);
			if
			:: ret != 0 -> skip_to = op
			:: else -> skip
			fi;
			ret = 0
		:: op != OP_END && skip_to == NIL && op >= 8 ->
			rt_mutex_unlock(op - 8)
		fi;
		pc++
	od
}

/* The hrtimer of t's timed lock fires (or a signal arrives: the same
 * path in the model) at any moment while armed; at most once. */
proctype timer(byte t)
{
end:	atomic { armed[t] -> expired[t] = true; wake_up_process(t) }
}

/* A priority change of task t to p, at any moment. */
proctype setsched(byte t; byte p)
{
	byte me = NT;
	SLOWPATH_LOCALS;

	sched_setscheduler(t, p)
}

/* The owner word property, checked in every state. */
active proctype owner_word_monitor()
{
end:	atomic {
		!OWNER_WORD_OK ->
		prop_owner_word_waiters_bit = false;
		assert(prop_owner_word_waiters_bit)
	}
}

init {
	atomic {
		SCENARIO_INIT
	}
}
