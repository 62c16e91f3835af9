# Story: the boost follows the top waiter and drops when a waiter is
# signalled away.  T0 (SCHED_OTHER) holds L0; T1 (FIFO 80) and then T2
# (FIFO 81, interruptible) block on it: T0 reads 80, then 81.  T2 is
# signalled: its lock call returns -EINTR (-4) and T0 drops to 80, T1
# still waits; T0 unlocks, T1 gets L0 and T0 is back at -21.
# Format (Linux rt-mutex tester): C: command, T: test once, W: wait.
#   K: opcode: thread (0-7): argument (lock 0-7, prio, nice, number)
# Prio scale: SCHED_FIFO p reads p, SCHED_OTHER nice n reads -21-n.

C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedother:		0:	0
C: schedfifo:		1:	80
C: schedfifo:		2:	81

C: lock:		0:	0
W: locked:		0:	0

C: locknowait:		1:	0
W: blocked:		1:	0
T: prioeq:		0:	80

C: lockintnowait:	2:	0
W: blocked:		2:	0
T: prioeq:		0:	81

C: signal:		2:	0
W: unlocked:		2:	0
W: opcodeeq:		2:	-4
T: prioeq:		0:	80
T: locked:		0:	0
T: blocked:		1:	0

C: unlock:		0:	0
W: locked:		1:	0
W: unlocked:		0:	0
T: priolt:		0:	1
T: prioeq:		0:	-21

C: unlock:		1:	0
W: unlocked:		1:	0
