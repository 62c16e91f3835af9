/*
 * model/pi/rtmutex_pi.pml - kernel/locking/rtmutex_pi.c in Promela:
 * task_blocks_on_rt_mutex, remove_waiter, the chain walk
 * rt_mutex_adjust_prio_chain and rt_mutex_adjust_pi.  Same names, the
 * C [n] steps marked at each block.  The walk's arguments and locals are
 * the wk_* variables of the process that walks (a task, or the
 * setscheduler process of a priority change); the caller sets the
 * arguments and reads wk_ret.  Steps in the C code's one numbering
 * (kernel/locking/rtmutex_internal.h): the walk [0]..[13] (its comment's
 * table says which of [R] [P] [L] each step holds), task_blocks_on_rt_mutex
 * [B1]..[B4], remove_waiter [D1]..[D3], rt_mutex_adjust_pi [A1]..[A2].
 */

/*
 * rt_mutex_adjust_prio_chain (rtmutex_pi.c).  Arguments: wk_task,
 * wk_detect, wk_orig_lock, wk_next_lock, wk_orig_waiter (NIL on a
 * deboost), wk_top_task.  Locking: none held on entry; one link at a
 * time, pi_lock[task] then a TRYLOCK of the next wait_lock (against the
 * lock order), dropping both and retrying when the trylock fails.
 */
inline rt_mutex_adjust_prio_chain()
{
	walking++;
	wk_top_waiter = wk_orig_waiter;
	wk_depth = 0;
	wk_ret = 0;
	do	/* again: one link per pass */
	:: wk_depth++;						/* [0] */
		if
		:: wk_depth > MAX_LOCK_DEPTH -> wk_ret = EDEADLK; break
		:: else -> skip
		fi;
		do	/* retry: [1]..[5] until the trylock succeeds */
		:: spin_lock(pi_lock[wk_task]);			/* [1] */
			atomic {
				/* [2] */
				wk_waiter = (pi_blocked_on[wk_task] -> wk_task : NIL);
				if	/* [3] exit conditions 1 */
				:: wk_waiter != NIL && wk_orig_waiter != NIL &&
				   owner[wk_orig_lock] == NIL ->
					wk_act = PI_LINK_STOP	/* released meanwhile */
				:: wk_waiter != NIL && wk_next_lock != w_lock[wk_waiter] ->
					wk_act = PI_LINK_STOP	/* moved on */
				:: else ->			/* [3] pi_link_action */
					pi_link_action(wk_waiter, wk_task,
						       wk_top_waiter, wk_detect, wk_act)
				fi;
				if
				:: wk_act == PI_LINK_STOP ->
					spin_unlock(pi_lock[wk_task]);
					wk_stop = true
				:: else ->
					wk_requeue = (wk_act == PI_LINK_REQUEUE);
					wk_lock = w_lock[wk_waiter]	/* [4] */
				fi
			}
			if
			:: wk_stop -> break
			:: else -> skip
			fi;
			atomic {					/* [5] */
				if	/* raw_spin_trylock(&lock->wait_lock) */
				:: wait_lock[wk_lock] == NIL ->
					wait_lock[wk_lock] = me;
					wk_got = true
				:: else ->
					spin_unlock(pi_lock[wk_task]);
					wk_got = false
				fi
			}
			if
			:: wk_got -> break
#ifdef MUTANT_WALK_NO_RETRY
			:: else -> wk_stop = true; break	/* gives up the walk */
#else
			:: else -> skip				/* back to [1] */
#endif
			fi
		od;
		if
		:: wk_stop -> break
		:: else -> skip
		fi;
		atomic {						/* [6] */
			if
#ifndef MUTANT_NO_DEADLOCK_CHECK
			:: wk_lock == wk_orig_lock || owner[wk_lock] == wk_top_task ->
				spin_unlock(wait_lock[wk_lock]);
				spin_unlock(pi_lock[wk_task]);
				printf("walk [6] L%d: deadlock\n", wk_lock);
				wk_ret = EDEADLK;
				wk_stop = true
#endif
			:: else -> skip
			fi
		}
		if
		:: wk_stop -> break
		:: else -> skip
		fi;
		if
		:: !wk_requeue ->	/* FOLLOW (detect only): [8]..[13], [7] and [11]
				 * move nothing, so no wake-up at [9] either */
			atomic {
				spin_unlock(pi_lock[wk_task]);		/* [8] */
				if					/* [9] */
				:: owner[wk_lock] == NIL ->
					spin_unlock(wait_lock[wk_lock]);
					wk_stop = true
				:: else -> wk_task = owner[wk_lock]	/* [10] */
				fi
			}
			if
			:: wk_stop -> break
			:: else -> skip
			fi;
			spin_lock(pi_lock[wk_task]);			/* [10] */
			atomic {					/* [12] */
				wk_next_lock = (pi_blocked_on[wk_task] -> w_lock[wk_task] : NIL);
				wk_top_waiter = plist_first(wait_list[wk_lock]);
				spin_unlock(pi_lock[wk_task]);
				spin_unlock(wait_lock[wk_lock])	/* [13] */
			}
			if
			:: wk_next_lock == NIL -> break
			:: else -> skip	/* back to [0] */
			fi
		:: else ->
			atomic {					/* [7] */
				pi_requeue_waiter(wk_lock, wk_waiter, prio[wk_task], wk_prtop);
				printf("walk [7] T%d requeued on L%d at %d\n", wk_waiter, wk_lock, w_prio[wk_waiter]);
				spin_unlock(pi_lock[wk_task]);		/* [8] */
				if					/* [9] */
				:: owner[wk_lock] == NIL ->
					/* pending window: wake the new top waiter */
					if
					:: wk_prtop != plist_first(wait_list[wk_lock]) ->
#ifndef MUTANT_WALK_NO_WAKE
						pending[wk_lock] = wait_list[wk_lock].e[0];
						printf("walk [9] wakes T%d\n", pending[wk_lock]);
						wake_up_process(pending[wk_lock])
#else
						skip	/* the new top sleeps on */
#endif
					:: else -> skip
					fi;
					spin_unlock(wait_lock[wk_lock]);
					wk_stop = true
				:: else -> wk_task = owner[wk_lock]	/* [10] */
				fi
			}
			if
			:: wk_stop -> break
			:: else -> skip
			fi;
			spin_lock(pi_lock[wk_task]);			/* [10] */
			atomic {					/* [11] */
				wk_propagate = (wk_waiter == plist_first(wait_list[wk_lock]) ||
						wk_waiter == wk_prtop);
				if
				:: wk_propagate ->
					pi_owner_update(wk_task, wk_lock, wk_prtop);
					rt_mutex_adjust_prio(wk_task);
					printf("walk [11] T%d to %d\n", wk_task, prio[wk_task])
				:: else -> skip
				fi;
				/* [12] */
				wk_next_lock = (pi_blocked_on[wk_task] -> w_lock[wk_task] : NIL);
				wk_top_waiter = plist_first(wait_list[wk_lock]);
				spin_unlock(pi_lock[wk_task]);		/* [13] */
				spin_unlock(wait_lock[wk_lock])
			}
			if
			:: wk_next_lock == NIL -> break
			:: !wk_detect && !wk_propagate -> break
#ifdef MUTANT_WALK_ONE_LINK
			:: else -> break		/* forgets the rest of the chain */
#else
			:: else -> skip			/* back to [0] */
#endif
			fi
		fi
	od;
	/* forget the locals: equal states stay equal */
	atomic {
		walking--;
		wk_task = 0; wk_detect = false; wk_orig_lock = 0; wk_next_lock = 0;
		wk_orig_waiter = 0; wk_top_task = 0; wk_top_waiter = 0;
		wk_waiter = 0; wk_lock = 0; wk_prtop = 0; wk_act = 0;
		wk_requeue = false; wk_propagate = false; wk_stop = false;
		wk_got = false; wk_depth = 0
	}
}

/*
 * task_blocks_on_rt_mutex (rtmutex_pi.c): queue me's waiter on l, boost
 * the owner, walk the chain.  ret gets 0 or EDEADLK.
 * Locking: wait_lock[l] held (dropped and retaken around the walk).
 */
inline task_blocks_on_rt_mutex(l, ret)
{
	atomic { tb_owner = owner[l]; assert(tb_owner != me) }	/* [B1] */
	spin_lock(pi_lock[me]);					/* [B2] */
	atomic {
		w_lock[me] = l;
		w_prio[me] = prio[me];
		tb_top = plist_first(wait_list[l]);
		pi_waiter_enqueue(l, me);
		pi_blocked_on[me] = true;
		spin_unlock(pi_lock[me])
	}
	ret = 0;
	if
	:: tb_owner == NIL -> skip
	:: else ->
		spin_lock(pi_lock[tb_owner]);			/* [B3] */
		atomic {
			if
			:: me == plist_first(wait_list[l]) ->
				pi_owner_update(tb_owner, l, tb_top);
#ifndef MUTANT_NO_BOOST
				rt_mutex_adjust_prio(tb_owner);
#endif
				printf("T%d [B3] boosts T%d to %d\n", me, tb_owner, prio[tb_owner]);
				tb_walk = pi_blocked_on[tb_owner]
			:: else -> tb_walk = DETECT
			fi;
			tb_next = (pi_blocked_on[tb_owner] -> w_lock[tb_owner] : NIL);
			spin_unlock(pi_lock[tb_owner])
		}
		if
		:: tb_walk && tb_next != NIL ->			/* [B4] */
			atomic {
				spin_unlock(wait_lock[l]);
				wk_task = tb_owner; wk_detect = DETECT;
				wk_orig_lock = l; wk_next_lock = tb_next;
				wk_orig_waiter = me; wk_top_task = me
			}
			rt_mutex_adjust_prio_chain();
			ret = wk_ret;
			spin_lock(wait_lock[l])
		:: else -> skip
		fi
	fi;
	atomic { tb_owner = 0; tb_top = 0; tb_walk = false; tb_next = 0 }
}

/*
 * remove_waiter (rtmutex_pi.c): me leaves l's queue without the lock;
 * if it was the top waiter the owner is deboosted and the chain behind
 * it walked.  Locking: wait_lock[l] held (dropped around the walk).
 */
inline remove_waiter(l)
{
	atomic { rw_top = (me == plist_first(wait_list[l])); tb_owner = owner[l] }
	spin_lock(pi_lock[me]);					/* [D1] */
	atomic {
		pi_waiter_dequeue(l, me);
		pi_blocked_on[me] = false;
		spin_unlock(pi_lock[me])
	}
	if
	:: tb_owner == NIL || !rw_top -> skip
	:: else ->
		spin_lock(pi_lock[tb_owner]);			/* [D2] */
		atomic {
			pi_owner_update(tb_owner, l, me);
			rt_mutex_adjust_prio(tb_owner);
			tb_next = (pi_blocked_on[tb_owner] -> w_lock[tb_owner] : NIL);
			spin_unlock(pi_lock[tb_owner])
		}
		if
		:: tb_next != NIL ->				/* [D3] */
			atomic {
				spin_unlock(wait_lock[l]);
				wk_task = tb_owner; wk_detect = false;
				wk_orig_lock = l; wk_next_lock = tb_next;
				wk_orig_waiter = NIL; wk_top_task = me
			}
			rt_mutex_adjust_prio_chain();
			spin_lock(wait_lock[l])
		:: else -> skip
		fi
	fi;
	atomic { rw_top = false; tb_owner = 0; tb_next = 0 }
}

/*
 * sched_setscheduler (kernel/sched/setscheduler.c) then
 * rt_mutex_adjust_pi (rtmutex_pi.c): task t's normal prio becomes p; a
 * blocked t carries the change along its chain.  Runs as its own process
 * (me = NT), at any moment, also in the middle of another walk.
 */
inline sched_setscheduler(t, p)
{
	atomic { busy++; spin_lock(pi_lock[t]) }	/* task_rq_lock */
	atomic {
		normal_prio[t] = p;
		printf("setscheduler: T%d normal prio %d\n", t, p);
		prio[t] = pi_effective_prio(t);
		spin_unlock(pi_lock[t])
	}
	spin_lock(pi_lock[t]);				/* rt_mutex_adjust_pi [A1] */
	atomic {
		if
		:: !pi_blocked_on[t] || w_prio[t] == prio[t] -> tb_walk = false
		:: else -> tb_walk = true; tb_next = w_lock[t]
		fi;
		spin_unlock(pi_lock[t])
	}
	if
	:: tb_walk ->						/* [A2] */
		atomic {
			wk_task = t; wk_detect = false; wk_orig_lock = NIL;
			wk_next_lock = tb_next; wk_orig_waiter = NIL; wk_top_task = t
		}
		rt_mutex_adjust_prio_chain()
	:: else -> skip
	fi;
	atomic { tb_walk = false; tb_next = 0; quiesce() }
}
