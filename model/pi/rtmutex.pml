/*
 * model/pi/rtmutex.pml - kernel/locking/rtmutex.c in Promela: the owner
 * word with its waiters bit and the cmpxchg fast paths, try_to_take_rt_mutex,
 * the slow lock, the slow unlock with unlock_rt_mutex_safe, and the API
 * (rt_mutex_lock_common, rt_mutex_unlock).  Every block names the C
 * function and its step in the C code's one numbering (the step table of
 * kernel/locking/rtmutex_internal.h): [T1]..[T4] try_to_take_rt_mutex,
 * [S1]..[S6] rt_mutex_slowlock, [U1]..[U3] rt_mutex_slowunlock.  Read
 * it beside the C file.
 *
 * Granularity: an atomic block is one lock-held section of the C code (or
 * one atomic instruction on the owner word); taking a raw spinlock is a
 * step of its own, so another process can see the lock held and a
 * trylock can fail.  Merging the statements of a section is sound
 * because every variable a section touches is protected by a lock it
 * holds, or is the owner word, whose atomic operations under wait_lock
 * cannot race with a fast path once the waiters bit is set.
 */

/* raw_spin_lock / raw_spin_unlock: lk is a holder id, NIL when free. */
inline spin_lock(lk)
{
	atomic { lk == NIL -> lk = me }
}

inline spin_unlock(lk)
{
	atomic { assert(lk == me); lk = NIL }
}

/* wake_up_process: the sleeper's schedule() returns. */
inline wake_up_process(t)
{
	task_state[t] = TASK_RUNNING
}

/* set_owner (rt_mutex_set_owner) with the checks every acquisition
 * makes: mutual exclusion, the stealing rule, the pending window. */
inline rt_mutex_set_owner(l, t)
{
	if	/* NIL printed as a word, not as task 255 */
	:: pending[l] == NIL ->
		printf("T%d takes L%d (prio %d; no pending waiter)\n", t, l,
		       prio[t])
	:: else ->
		printf("T%d takes L%d (prio %d; pending waiter T%d)\n", t, l,
		       prio[t], pending[l])
	fi;
	prop_mutual_exclusion = (cs[l] == NIL && owner[l] == NIL);
	assert(prop_mutual_exclusion);
	prop_steal_strictly_higher = (pending[l] == NIL || pending[l] == t ||
				      prio[t] < w_prio[pending[l]]);
	assert(prop_steal_strictly_higher);
	if
	:: pending[l] == t -> pending[l] = NIL
	:: else -> skip
	fi;
	owner[l] = t;
	hasw[l] = (wait_list[l].n > 0);
	cs[l] = t
}

/*
 * try_to_take_rt_mutex (rtmutex.c) for task t, as a queued waiter
 * (waiter true) or an arriving task; taken gets the verdict.
 * Locking: wait_lock[l] held.
 */
inline try_to_take_rt_mutex(l, t, waiter, taken)
{
	atomic {
		assert(wait_lock[l] == me);
#ifndef MUTANT_NO_WAITERS_BIT
		hasw[l] = true;				/* [T1] mark_rt_mutex_waiters */
#endif
		if
#ifndef MUTANT_NO_OWNER_CHECK
		:: owner[l] != NIL -> taken = false	/* [T1] owned */
#endif
		:: else ->
			if
			:: waiter ->			/* [T2] only the top waiter */
				if
				:: plist_first(wait_list[l]) != t -> taken = false
				:: else ->
					pi_waiter_dequeue(l, t);
					taken = true
				fi
			:: !waiter && wait_list[l].n > 0 ->	/* [T3] stealing */
#ifdef MUTANT_STEAL_EQUAL
				taken = (prio[t] <= w_prio[wait_list[l].e[0]])
#else
				taken = (prio[t] < w_prio[wait_list[l].e[0]])
#endif
			:: else -> taken = true		/* [T3] nobody waits */
			fi
		fi
	}
	if
	:: taken ->
		spin_lock(pi_lock[t]);			/* [T4] */
		atomic {
			pi_blocked_on[t] = false;
			if
			:: wait_list[l].n > 0 -> pi_owner_enqueue(t, wait_list[l].e[0])
			:: else -> skip
			fi;
#ifndef MUTANT_T4_NO_ADJUST_PRIO
			/* the fix of the model's finding (README.md,
			 * "Finding"): the new owner runs at least at its new
			 * top PI waiter's prio */
			rt_mutex_adjust_prio(t);
#endif
			spin_unlock(pi_lock[t]);
			rt_mutex_set_owner(l, t)
		}
	:: else -> skip
	fi
}

/* fixup_rt_mutex_waiters (rtmutex.c): clear bit 0 when nobody waits.
 * Locking: wait_lock[l]. */
inline fixup_rt_mutex_waiters(l)
{
	if
	:: wait_list[l].n == 0 -> hasw[l] = false
	:: else -> skip
	fi
}

/*
 * rt_mutex_slowlock (rtmutex.c), the contended path of
 * rt_mutex_lock_common, for the running task me on lock l.  ret gets 0,
 * ETIMEDOUT (the waiter left: timeout or signal, one event in the model)
 * or EDEADLK.  timed[me]: rt_mutex_timed_lock (detect_report false);
 * otherwise rt_mutex_lock (detect_report true: a deadlock is reported
 * and the task keeps waiting).
 */
inline rt_mutex_slowlock(l, ret)
{
	atomic { busy++; spin_lock(wait_lock[l]) }
	try_to_take_rt_mutex(l, me, false, sl_taken);		/* [S1] */
	if
	:: sl_taken ->
		atomic { spin_unlock(wait_lock[l]); quiesce() };
		ret = 0
	:: else ->
		/* [S2]..[S3]: set_current_state, hrtimer_start */
		atomic {
			task_state[me] = TASK_SLEEPING;
			armed[me] = timed[me];
			if	/* no owner: the pending window ([U3]) */
			:: owner[l] == NIL ->
				printf("T%d [S3] blocks on L%d (no owner yet: pending window)\n",
				       me, l)
			:: else ->
				printf("T%d [S3] blocks on L%d (owner T%d)\n",
				       me, l, owner[l])
			fi
		};
		task_blocks_on_rt_mutex(l, ret);		/* [S3] */
		if
		:: ret == EDEADLK && !timed[me] -> ret = 0	/* report, keep waiting */
		:: else -> skip
		fi;
		do						/* [S4] */
		:: ret != 0 -> break
		:: else ->
			try_to_take_rt_mutex(l, me, true, sl_taken);
			if
			:: sl_taken -> break
			:: else -> skip
			fi;
			if
			:: expired[me] ->
				printf("T%d [S4] leaves L%d: timeout\n", me, l);
				ret = ETIMEDOUT;
				break
			:: else -> skip
			fi;
#ifdef MUTANT_STATE_AFTER_UNLOCK
			/* the sleep state set after dropping wait_lock: an unlock
			 * in between wakes a running task, then it sleeps */
			atomic { task_state[me] = TASK_RUNNING; spin_unlock(wait_lock[l]); quiesce() };
			task_state[me] = TASK_SLEEPING;
#else
			atomic { spin_unlock(wait_lock[l]); quiesce() };
#endif
			/* schedule(): sleep until woken */
			atomic {
				task_state[me] == TASK_RUNNING -> busy++;
				printf("T%d [S4] runs again\n", me)
			};
			spin_lock(wait_lock[l]);
			atomic {
				if	/* the woken waiter runs: the steal window ends */
				:: pending[l] == me -> pending[l] = NIL
				:: else -> skip
				fi;
				task_state[me] = TASK_SLEEPING
			}
		od;
		task_state[me] = TASK_RUNNING;
		if						/* [S5] */
		:: ret != 0 -> remove_waiter(l)
		:: else -> skip
		fi;
		atomic {
			fixup_rt_mutex_waiters(l);
			spin_unlock(wait_lock[l]);
			armed[me] = false;			/* hrtimer_cancel */
			expired[me] = false;
			quiesce()
		}
	fi;
	sl_taken = false
}

/* [U2]: under current->pi_lock, the top waiter w leaves current's
 * pi_waiters and current is deboosted. */
inline slowunlock_deboost(w)
{
	spin_lock(pi_lock[me]);
	atomic {
		pi_owner_dequeue(me, w);
		rt_mutex_adjust_prio(me);
		printf("T%d [U2] deboosted to %d\n", me, prio[me]);
		spin_unlock(pi_lock[me])
	}
}

/*
 * rt_mutex_slowunlock (rtmutex.c): me owns l and bit 0 was set.
 */
inline rt_mutex_slowunlock(l)
{
	atomic { busy++; spin_lock(wait_lock[l]) }
	do
	:: wait_list[l].n == 0 ->				/* [U1] */
		/* unlock_rt_mutex_safe: owner = current (bit cleared),
		 * drop wait_lock, then give the word up by cmpxchg: the
		 * unlocker's last touch of the lock is that cmpxchg */
#ifdef MUTANT_UNLOCK_CLEAR_EARLY
		atomic { owner[l] = NIL; hasw[l] = false };
		atomic {
			spin_unlock(wait_lock[l]);
			unlocking[l] = NIL;
			su_released = true
		};
#else
		atomic { owner[l] = me; hasw[l] = false };
		spin_unlock(wait_lock[l]);
		atomic {
			if	/* rt_mutex_cmpxchg(lock, current, 0) */
			:: owner[l] == me && !hasw[l] ->
				owner[l] = NIL;
				unlocking[l] = NIL;
				su_released = true
			:: else -> su_released = false
			fi
		};
#endif
		if
		:: su_released -> atomic { quiesce() }; break
		:: else -> spin_lock(wait_lock[l])
		fi
	:: else ->
		su_waiter = wait_list[l].e[0];			/* [U2] */
#ifndef MUTANT_DEBOOST_AFTER_WAKE
		slowunlock_deboost(su_waiter);
#endif
		atomic {					/* [U3] */
			owner[l] = NIL;
#ifdef MUTANT_UNLOCK_NO_BIT
			hasw[l] = false;
#else
			hasw[l] = true;
#endif
			pending[l] = su_waiter;
			printf("T%d [U3] L%d left free for T%d (waiter prio %d)\n",
			       me, l, su_waiter, w_prio[su_waiter]);
			spin_unlock(wait_lock[l]);
			unlocking[l] = NIL
		}
		atomic {
			check_timely_deboost(l);
			printf("T%d [U3] wakes T%d\n", me, su_waiter);
			wake_up_process(su_waiter)
		}
#ifdef MUTANT_DEBOOST_AFTER_WAKE
		slowunlock_deboost(su_waiter);
#endif
		atomic { quiesce() };
		break
	od;
	su_waiter = 0;
	su_released = false
}

/*
 * rt_mutex_lock_common (rtmutex.c): the cmpxchg fast path, else the slow
 * path.  (The self-deadlock report is not modelled: no script relocks a
 * lock it holds.)
 */
inline rt_mutex_lock(l, ret)
{
	atomic {
		assert(owner[l] != me);
		if	/* rt_mutex_fastlock: cmpxchg(owner, 0, current) */
		:: owner[l] == NIL && !hasw[l] ->
			prop_fastpath_never_under_unlocker = (unlocking[l] == NIL);
			assert(prop_fastpath_never_under_unlocker);
			rt_mutex_set_owner(l, me);
			sl_fast = true
		:: else -> sl_fast = false
		fi
	}
	if
	:: sl_fast -> ret = 0
	:: else -> rt_mutex_slowlock(l, ret)
	fi;
	sl_fast = false
}

/* rt_mutex_unlock (rtmutex.c): cmpxchg(owner, current, 0), else the slow
 * path (bit 0 set).  unlocking[l] marks the unlocker from its call until
 * its last touch of the lock (unlock_rt_mutex_safe's rule). */
inline rt_mutex_unlock(l)
{
	atomic {
		assert(owner[l] == me && cs[l] == me);
		cs[l] = NIL;
		if
		:: !hasw[l] -> owner[l] = NIL; sl_fast = true
		:: else -> unlocking[l] = me; sl_fast = false
		fi
	}
	if
	:: sl_fast -> skip
	:: else -> rt_mutex_slowunlock(l)
	fi;
	sl_fast = false
}
