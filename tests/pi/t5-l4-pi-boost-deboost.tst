# Story: a four-lock chain boosts transitively and deboosts step by step.
#	T0 (OTHER) holds L0
#	T1 (FIFO 81) holds L1, waits for L0	-> T0 81
#	T2 (FIFO 82) holds L2, waits for L1	-> T1, T0 82
#	T3 (FIFO 83) holds L3, waits for L2	-> T2, T1, T0 83
#	T4 (FIFO 84) waits for L3 (interruptible) -> T3..T0 84
# T4 is signalled away: everyone back to 83.  Then the chain unwinds
# from the bottom: each unlock drops the unlocker to what it still holds.
# Format (Linux rt-mutex tester): C: command, T: test once, W: wait.
#   K: opcode: thread (0-7): argument (lock 0-7, prio, nice, number)
# Prio scale: SCHED_FIFO p reads p, SCHED_OTHER nice n reads -21-n.

C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedother:		0:	0
C: schedfifo:		1:	81
C: schedfifo:		2:	82
C: schedfifo:		3:	83
C: schedfifo:		4:	84

C: locknowait:		0:	0
W: locked:		0:	0
C: locknowait:		1:	1
W: locked:		1:	1
C: locknowait:		2:	2
W: locked:		2:	2
C: locknowait:		3:	3
W: locked:		3:	3

C: locknowait:		1:	0
W: blocked:		1:	0
T: prioeq:		0:	81

C: locknowait:		2:	1
W: blocked:		2:	1
T: prioeq:		1:	82
T: prioeq:		0:	82

C: locknowait:		3:	2
W: blocked:		3:	2
T: prioeq:		2:	83
T: prioeq:		1:	83
T: prioeq:		0:	83

C: lockintnowait:	4:	3
W: blocked:		4:	3
T: prioeq:		3:	84
T: prioeq:		2:	84
T: prioeq:		1:	84
T: prioeq:		0:	84

C: signal:		4:	0
W: unlocked:		4:	3
W: opcodeeq:		4:	-4
T: prioeq:		3:	83
T: prioeq:		2:	83
T: prioeq:		1:	83
T: prioeq:		0:	83

# unwind: T0 gives L0 to T1
C: unlock:		0:	0
W: locked:		1:	0
W: unlocked:		0:	0
T: prioeq:		0:	-21
T: prioeq:		1:	83
C: unlock:		1:	0
W: unlocked:		1:	0
T: prioeq:		1:	83

# T1 gives L1 to T2
C: unlock:		1:	1
W: locked:		2:	1
W: unlocked:		1:	1
T: prioeq:		1:	81
T: prioeq:		2:	83
C: unlock:		2:	1
W: unlocked:		2:	1

# T2 gives L2 to T3
C: unlock:		2:	2
W: locked:		3:	2
W: unlocked:		2:	2
T: prioeq:		2:	82
T: prioeq:		3:	83
C: unlock:		3:	2
C: unlock:		3:	3
W: unlocked:		3:	3
T: prioeq:		3:	83
