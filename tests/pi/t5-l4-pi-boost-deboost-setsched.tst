# Story: changing a blocked task's priority moves the boost along the
# chain.  Four SCHED_OTHER threads form a chain:
#	T0 holds L0; T1 holds L1, waits for L0; T2 holds L2, waits for L1;
#	T3 waits for L2.
# sched_setscheduler on the blocked T3 (FIFO 80, then 85, then OTHER)
# boosts, raises and drops T2, T1 and T0 with it; raising the middle
# task T1 (FIFO 82) boosts only the tasks ahead of it (T0).
# Format (Linux rt-mutex tester): C: command, T: test once, W: wait.
#   K: opcode: thread (0-7): argument (lock 0-7, prio, nice, number)
# Prio scale: SCHED_FIFO p reads p, SCHED_OTHER nice n reads -21-n.

C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedother:		0:	0
C: schedother:		1:	0
C: schedother:		2:	0
C: schedother:		3:	0

C: locknowait:		0:	0
W: locked:		0:	0
C: locknowait:		1:	1
W: locked:		1:	1
C: locknowait:		2:	2
W: locked:		2:	2
C: locknowait:		1:	0
W: blocked:		1:	0
C: locknowait:		2:	1
W: blocked:		2:	1
C: locknowait:		3:	2
W: blocked:		3:	2
T: prioeq:		0:	-21

C: schedfifo:		3:	80
T: prioeq:		3:	80
T: prioeq:		2:	80
T: prioeq:		1:	80
T: prioeq:		0:	80
T: nprioeq:		0:	-21

C: schedfifo:		3:	85
T: prioeq:		2:	85
T: prioeq:		1:	85
T: prioeq:		0:	85

C: schedother:		3:	0
T: prioeq:		2:	-21
T: prioeq:		1:	-21
T: prioeq:		0:	-21

C: schedfifo:		1:	82
T: prioeq:		1:	82
T: prioeq:		0:	82
T: prioeq:		2:	-21
T: nprioeq:		1:	82

# unwind
C: unlock:		0:	0
W: locked:		1:	0
T: prioeq:		0:	-21
C: unlock:		1:	0
C: unlock:		1:	1
W: locked:		2:	1
C: unlock:		2:	1
C: unlock:		2:	2
W: locked:		3:	2
C: unlock:		3:	2
W: unlocked:		3:	2
