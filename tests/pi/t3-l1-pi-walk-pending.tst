# Story: a chain walk requeues a waiter in front of the woken top waiter
# while the lock is pending (free, bit set, waiters queued): the walk's
# step [9] must wake the new top waiter (kernel/locking/rtmutex_pi.c,
# pi_walk_end_at_free_lock draws the race).
# T0 (SCHED_OTHER) holds L0; T1 (FIFO 80) and T2 (FIFO 70) wait, T1
# first.  T0 unlocks: T1 is woken and stops before its retry
# (blockedwake).  T2 is raised to FIFO 85: rt_mutex_adjust_pi walks from
# T2, requeues it before T1 ([7]) and, L0 having no owner, wakes T2
# ([9]): T2 reaches blockedwake too.  Without that wake-up T2 stays
# "blocked" and the W: line below times out.  T1 goes on first, is not
# the top waiter any more ([T2]) and blocks again; T2 takes L0, then T1.
# Format (Linux rt-mutex tester): C: command, T: test once, W: wait.
#   K: opcode: thread (0-7): argument (lock 0-7, prio, nice, number)
# Prio scale: SCHED_FIFO p reads p, SCHED_OTHER nice n reads -21-n.

C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedother:		0:	0
C: schedfifo:		1:	80
C: schedfifo:		2:	70

C: lock:		0:	0
W: locked:		0:	0

C: lock:		1:	0
W: blocked:		1:	0
C: lock:		2:	0
W: blocked:		2:	0
T: prioeq:		0:	80

# T0 unlocks: T1, the top waiter, is woken and stops; L0 is pending
C: unlock:		0:	0
W: blockedwake:		1:	0
W: unlocked:		0:	0
T: blocked:		2:	0

# T2 raised above T1 while L0 is pending: the walk wakes T2
C: schedfifo:		2:	85
W: blockedwake:		2:	0

# T1 retries first: not the top waiter, blocks again
C: lockcont:		1:	0
W: blocked:		1:	0
C: lockcont:		2:	0
W: locked:		2:	0
T: blocked:		1:	0

C: unlock:		2:	0
W: unlocked:		2:	0
W: blockedwake:		1:	0
C: lockcont:		1:	0
W: locked:		1:	0
C: unlock:		1:	0
W: unlocked:		1:	0
