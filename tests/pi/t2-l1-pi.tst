# Story: one RT waiter boosts a normal owner.  T0 (SCHED_OTHER nice 0,
# reads -21) holds L0; T1 (SCHED_FIFO 80) blocks on it: T0 runs at 80
# until it unlocks, then drops back at once while its normal prio never
# changed.
# Format (Linux rt-mutex tester): C: command, T: test once, W: wait.
#   K: opcode: thread (0-7): argument (lock 0-7, prio, nice, number)
# Prio scale: SCHED_FIFO p reads p, SCHED_OTHER nice n reads -21-n.

C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedother:		0:	0
C: schedfifo:		1:	80
T: prioeq:		0:	-21

C: locknowait:		0:	0
W: locked:		0:	0

C: locknowait:		1:	0
W: blocked:		1:	0
T: prioeq:		0:	80
T: nprioeq:		0:	-21

C: unlock:		0:	0
W: locked:		1:	0
W: unlocked:		0:	0
T: prioeq:		0:	-21
T: priolt:		0:	1

C: unlock:		1:	0
W: unlocked:		1:	0
