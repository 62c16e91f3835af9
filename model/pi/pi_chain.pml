/*
 * model/pi/pi_chain.pml - the priority-ordered queues and the per-link
 * decisions of the chain walk: kernel/locking/pi_chain.c, one inline per
 * C function, same names.  A waiter is named by its task's id (a task
 * waits for one lock at a time, as in C where the waiter lives on the
 * blocked task's stack).
 *
 * A plist is a sorted array: e[0] is the most important entry (lowest
 * prio value), equal prios keep arrival order (FIFO), unused slots are 0
 * so that equal queues are equal states.  These inlines are plain
 * statements: every caller runs them inside an atomic or d_step block
 * while holding the lock the C code holds (wait_lock for a wait_list,
 * the owner's pi_lock for pi_waiters).
 */

typedef plist {
	byte e[NT];		/* waiter ids, most important first */
	byte n;			/* entries in use */
};

/* plist_add: insert w by its key (w_prio, or pw_prio when pi is true)
 * behind every entry of equal key. */
#define plist_key(x, pi)	(pi -> pw_prio[x] : w_prio[x])

inline plist_add(q, w, pi)
{
	q_i = q.n;
	do
	:: q_i > 0 && plist_key(q.e[q_i - 1], pi) > plist_key(w, pi) ->
		q.e[q_i] = q.e[q_i - 1];
		q_i--
	:: else -> break
	od;
	q.e[q_i] = w;
	q.n++;
	q_i = 0
}

/* plist_del: w must be on q (deleting a node that is not on its list
 * corrupts a C plist: here it is a checked property). */
inline plist_del(q, w)
{
	q_i = 0;
	do
	:: q_i < q.n && q.e[q_i] != w -> q_i++
	:: else -> break
	od;
	prop_plist_del_on_list = (q_i < q.n);
	assert(prop_plist_del_on_list);
	do
	:: q_i + 1 < q.n ->
		q.e[q_i] = q.e[q_i + 1];
		q_i++
	:: else -> break
	od;
	q.n--;
	q.e[q.n] = 0;
	q_i = 0
}

/* plist_first: the top entry, NIL if empty (pi_top_waiter,
 * pi_top_pi_waiter). */
#define plist_first(q)	(q.n > 0 -> q.e[0] : NIL)

/* pi_waiter_enqueue / pi_waiter_dequeue (pi_chain.c): waiter into / out
 * of lock l's wait_list at waiter->prio.  Locking: wait_lock[l]. */
inline pi_waiter_enqueue(l, w)
{
	plist_add(wait_list[l], w, false)
}

inline pi_waiter_dequeue(l, w)
{
	plist_del(wait_list[l], w)
}

/* pi_owner_enqueue / pi_owner_dequeue (pi_chain.c): a lock's top waiter
 * into / out of its owner t's pi_waiters; the entry keeps the prio it
 * was queued at (pi_list_entry's prio).  Locking: pi_lock[t]. */
inline pi_owner_enqueue(t, w)
{
	pw_prio[w] = w_prio[w];
	plist_add(pi_waiters[t], w, true)
}

inline pi_owner_dequeue(t, w)
{
	plist_del(pi_waiters[t], w);
	pw_prio[w] = 0
}

/* pi_effective_prio (pi_chain.c) for task t: the better of its
 * normal_prio and the top of its pi_waiters (rt_mutex_getprio). */
#define pi_effective_prio(t) \
	((pi_waiters[t].n > 0 && pw_prio[pi_waiters[t].e[0]] < normal_prio[t]) \
	 -> pw_prio[pi_waiters[t].e[0]] : normal_prio[t])

/* rt_mutex_adjust_prio (rtmutex_pi.c): rt_mutex_setprio is the
 * scheduler's; here it is the store.  Locking: pi_lock[t]. */
inline rt_mutex_adjust_prio(t)
{
	assert(pi_lock[t] == me);
	prio[t] = pi_effective_prio(t)
}

/* pi_requeue_waiter (pi_chain.c), chain-walk step [7]: move w to its
 * new place at p; old_top gets the top from before the move. */
inline pi_requeue_waiter(l, w, p, old_top)
{
	old_top = plist_first(wait_list[l]);
	pi_waiter_dequeue(l, w);
	w_prio[w] = p;
	pi_waiter_enqueue(l, w)
}

/* pi_owner_update (pi_chain.c): lock l's queue changed; old_top leaves
 * owner t's pi_waiters and l's current top enters it. */
inline pi_owner_update(t, l, old_top)
{
	if
	:: old_top != NIL -> pi_owner_dequeue(t, old_top)
	:: else -> skip
	fi;
	if
	:: wait_list[l].n > 0 -> pi_owner_enqueue(t, wait_list[l].e[0])
	:: else -> skip
	fi
}

/* pi_link_action (pi_chain.c), chain-walk step [3]: waiter (NIL: task
 * not blocked), task runs at prio[task] with pi_waiters[task], the walk
 * came through top_waiter (NIL at the first link of a deboost or a
 * setscheduler walk).  act gets PI_LINK_STOP, _REQUEUE or _FOLLOW. */
inline pi_link_action(waiter, task, top_waiter, detect, act)
{
	if
	:: waiter == NIL -> act = PI_LINK_STOP
	:: waiter != NIL && top_waiter != NIL && pi_waiters[task].n == 0 ->
		act = PI_LINK_STOP
	:: else ->
		if
		:: (top_waiter != NIL && top_waiter != pi_waiters[task].e[0]) ||
		   w_prio[waiter] == prio[task] ->
			act = (detect -> PI_LINK_FOLLOW : PI_LINK_STOP)
		:: else -> act = PI_LINK_REQUEUE
		fi
	fi
}
