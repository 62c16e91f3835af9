# Story: a two-lock chain boosts transitively and deboosts step by step.
# T0 (SCHED_OTHER) holds L0; T1 (SCHED_OTHER) holds L1 and waits for L0;
# T2 (FIFO 80) waits for L1: T1 and, through it, T0 read 80.  T0 unlocks
# L0: T0 drops to -21, T1 stays at 80 (it still holds L1 with T2
# waiting); T1 unlocks L1: T1 drops, T2 gets L1.
# Format (Linux rt-mutex tester): C: command, T: test once, W: wait.
#   K: opcode: thread (0-7): argument (lock 0-7, prio, nice, number)
# Prio scale: SCHED_FIFO p reads p, SCHED_OTHER nice n reads -21-n.

C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedother:		0:	0
C: schedother:		1:	0
C: schedfifo:		2:	80

C: locknowait:		0:	0
W: locked:		0:	0
C: locknowait:		1:	1
W: locked:		1:	1
C: locknowait:		1:	0
W: blocked:		1:	0
T: prioeq:		0:	-21

C: locknowait:		2:	1
W: blocked:		2:	1
T: prioeq:		1:	80
T: prioeq:		0:	80

C: unlock:		0:	0
W: locked:		1:	0
W: unlocked:		0:	0
T: prioeq:		0:	-21
T: prioeq:		1:	80

C: unlock:		1:	0
T: prioeq:		1:	80
C: unlock:		1:	1
W: locked:		2:	1
W: unlocked:		1:	1
T: prioeq:		1:	-21

C: unlock:		2:	1
W: unlocked:		2:	1
