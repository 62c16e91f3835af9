# Story: a higher-priority arrival steals from the woken top waiter.
# T0 (SCHED_OTHER) holds L0, T1 (FIFO 80) waits with "lock", so when T0
# unlocks, T1 is woken and stops in the wake-up path before taking L0
# (blockedwake); T0 is deboosted already.  T2 (FIFO 81) arrives and
# takes L0; when T1 goes on, it finds L0 owned and blocks again (T2,
# the better one, is not boosted) and gets L0 after T2.
# An equal-priority arrival may not steal: T3 (FIFO 80) must queue.
# Format (Linux rt-mutex tester): C: command, T: test once, W: wait.
#   K: opcode: thread (0-7): argument (lock 0-7, prio, nice, number)
# Prio scale: SCHED_FIFO p reads p, SCHED_OTHER nice n reads -21-n.

C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedother:		0:	0
C: schedfifo:		1:	80
C: schedfifo:		2:	81
C: schedfifo:		3:	80

C: lock:		0:	0
W: locked:		0:	0

C: lock:		1:	0
W: blocked:		1:	0
T: prioeq:		0:	80

C: unlock:		0:	0
W: blockedwake:		1:	0
W: unlocked:		0:	0
T: priolt:		0:	1

# T2 steals the pending lock
C: lock:		2:	0
W: locked:		2:	0
C: lockcont:		1:	0
W: blocked:		1:	0
T: prioeq:		2:	81

# T2 unlocks: T1 woken again, stops; T3 (equal prio) must not steal
C: unlock:		2:	0
W: blockedwake:		1:	0
C: locknowait:		3:	0
W: blocked:		3:	0
T: unlocked:		2:	0
C: lockcont:		1:	0
W: locked:		1:	0
T: blocked:		3:	0

C: unlock:		1:	0
W: unlocked:		1:	0
W: locked:		3:	0
C: unlock:		3:	0
W: unlocked:		3:	0
