/*
 * model/pi/scenarios.pml - the configurations the model is checked in:
 * tasks (0 = most important prio), locks, each task's lock script, and
 * which events may happen.  Select one with -DSCENARIO_<name>
 * (check.sh runs them all); CHAIN is the default.
 *
 * Each sets NT (tasks), NL (locks), MAXOPS (script length),
 * CYCLE_POSSIBLE (may a lock return -EDEADLK) and SCENARIO_INIT, run
 * atomically by init: prios, scripts, then the processes.
 */

/* LOWER is STEAL with T1's prio lowered to 3 instead of raised to 0 */
#ifdef SCENARIO_LOWER
#define SCENARIO_STEAL
#define STEAL_NEWPRIO	3
#endif
#ifndef STEAL_NEWPRIO
#define STEAL_NEWPRIO	0
#endif

#if !defined(SCENARIO_STEAL) && !defined(SCENARIO_CYCLE) && \
    !defined(SCENARIO_LEAVE) && !defined(SCENARIO_CHAIN) && \
    !defined(SCENARIO_CHAIN3)
#define SCENARIO_CHAIN
#endif

#define SET_TASK(t, p)	normal_prio[t] = p; prio[t] = p
#define OP(t, i, o)	script[(t) * MAXOPS + (i)] = o

#ifdef SCENARIO_CHAIN
/*
 * CHAIN: the transitive boost, the walk, a waiter leaving, a prio change.
 *	T0 prio 3 (low):  lock A, unlock A
 *	T1 prio 2 (mid):  lock B, lock A (timed: it may time out), unlock A,
 *			  unlock B
 *	T2 prio 1 (high): lock B, unlock B
 * T2 -> B (T1) -> A (T0) is the chain; T1's timer may fire; T2's prio
 * may drop to 4 at any moment (a deboost walk along the chain).
 */
#define NT		3
#define NL		2
#define MAXOPS		5
#define CYCLE_POSSIBLE	false
#define SCENARIO_INIT \
	SET_TASK(0, 3); SET_TASK(1, 2); SET_TASK(2, 1); \
	OP(0, 0, LOCK(0)); OP(0, 1, UNLOCK(0)); OP(0, 2, OP_END); \
	OP(1, 0, LOCK(1)); OP(1, 1, LOCK(0)); OP(1, 2, UNLOCK(0)); \
	OP(1, 3, UNLOCK(1)); OP(1, 4, OP_END); \
	OP(2, 0, LOCK(1)); OP(2, 1, UNLOCK(1)); OP(2, 2, OP_END); \
	timed[1] = true; \
	run task(0); run task(1); run task(2); \
	run timer(1); run setsched(2, 4)
#endif

#ifdef SCENARIO_STEAL
/*
 * STEAL: the pending window and lock stealing on one lock.
 *	T0 prio 2: lock A, unlock A, lock A, unlock A (relocks: may steal)
 *	T1 prio 2: lock A, unlock A (equal to T0: must never be stolen from
 *		   by T0)
 *	T2 prio 1: lock A, unlock A (better: may steal from both)
 * T1's prio may rise to 0 at any moment: queued behind T0 in the pending
 * window, it becomes the top waiter the walk must wake (step [9]).
 * LOWER: T1's prio may drop to 3 instead, while its waiter is still
 * queued at 2 (README.md, "Finding").
 */
#define NT		3
#define NL		1
#define MAXOPS		5
#define CYCLE_POSSIBLE	false
#define SCENARIO_INIT \
	SET_TASK(0, 2); SET_TASK(1, 2); SET_TASK(2, 1); \
	OP(0, 0, LOCK(0)); OP(0, 1, UNLOCK(0)); OP(0, 2, LOCK(0)); \
	OP(0, 3, UNLOCK(0)); OP(0, 4, OP_END); \
	OP(1, 0, LOCK(0)); OP(1, 1, UNLOCK(0)); OP(1, 2, OP_END); \
	OP(2, 0, LOCK(0)); OP(2, 1, UNLOCK(0)); OP(2, 2, OP_END); \
	run task(0); run task(1); run task(2); run setsched(1, STEAL_NEWPRIO)
#endif

#ifdef SCENARIO_CYCLE
/*
 * CYCLE: the tasks make a lock cycle (ABBA); both use timed locks, so
 * the deadlock must come back as -EDEADLK from one of them (the chain
 * walk's step [4]) and the other then gets both locks.
 *	T0 prio 2: lock A, lock B, unlock B, unlock A
 *	T1 prio 2: lock B, lock A, unlock A, unlock B
 */
#define NT		2
#define NL		2
#define MAXOPS		5
#define CYCLE_POSSIBLE	true
#define SCENARIO_INIT \
	SET_TASK(0, 2); SET_TASK(1, 2); \
	OP(0, 0, LOCK(0)); OP(0, 1, LOCK(1)); OP(0, 2, UNLOCK(1)); \
	OP(0, 3, UNLOCK(0)); OP(0, 4, OP_END); \
	OP(1, 0, LOCK(1)); OP(1, 1, LOCK(0)); OP(1, 2, UNLOCK(0)); \
	OP(1, 3, UNLOCK(1)); OP(1, 4, OP_END); \
	timed[0] = true; timed[1] = true; \
	run task(0); run task(1)
#endif

#ifdef SCENARIO_LEAVE
/*
 * LEAVE: a waiter leaves (timeout) after the owner saw the waiters bit,
 * so the owner's slow unlock finds no waiters ([U1],
 * unlock_rt_mutex_safe) while a third task arrives on the fast path.
 *	T0 prio 1: lock A, unlock A
 *	T1 prio 2: lock A (timed: its timer may fire), unlock A
 *	T2 prio 3: lock A, unlock A
 */
#define NT		3
#define NL		1
#define MAXOPS		3
#define CYCLE_POSSIBLE	false
#define SCENARIO_INIT \
	SET_TASK(0, 1); SET_TASK(1, 2); SET_TASK(2, 3); \
	OP(0, 0, LOCK(0)); OP(0, 1, UNLOCK(0)); OP(0, 2, OP_END); \
	OP(1, 0, LOCK(0)); OP(1, 1, UNLOCK(0)); OP(1, 2, OP_END); \
	OP(2, 0, LOCK(0)); OP(2, 1, UNLOCK(0)); OP(2, 2, OP_END); \
	timed[1] = true; \
	run task(0); run task(1); run task(2); run timer(1)
#endif

#ifdef SCENARIO_CHAIN3
/*
 * CHAIN3: a boost carried over two links, and undone along them.
 *	T0 prio 4: lock A, unlock A
 *	T1 prio 3: lock B, lock A, unlock A, unlock B
 *	T2 prio 2: lock C, lock B, unlock B, unlock C
 *	T3 prio 1: lock C, unlock C
 * T3 -> C (T2) -> B (T1) -> A (T0): T0 must run at 1 while T3 waits;
 * T3's prio may drop to 5 at any moment (a deboost walk of two links).
 */
#define NT		4
#define NL		3
#define MAXOPS		5
#define CYCLE_POSSIBLE	false
#define SCENARIO_INIT \
	SET_TASK(0, 4); SET_TASK(1, 3); SET_TASK(2, 2); SET_TASK(3, 1); \
	OP(0, 0, LOCK(0)); OP(0, 1, UNLOCK(0)); OP(0, 2, OP_END); \
	OP(1, 0, LOCK(1)); OP(1, 1, LOCK(0)); OP(1, 2, UNLOCK(0)); \
	OP(1, 3, UNLOCK(1)); OP(1, 4, OP_END); \
	OP(2, 0, LOCK(2)); OP(2, 1, LOCK(1)); OP(2, 2, UNLOCK(1)); \
	OP(2, 3, UNLOCK(2)); OP(2, 4, OP_END); \
	OP(3, 0, LOCK(2)); OP(3, 1, UNLOCK(2)); OP(3, 2, OP_END); \
	run task(0); run task(1); run task(2); run task(3); \
	run setsched(3, 5)
#endif
