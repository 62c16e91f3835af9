# Story: equal priorities do not boost.  T0 and T1 are both SCHED_FIFO
# 80; whoever holds L0 while the other waits stays at 80, and the event
# counter shows the order of the lock state changes.
# Format (Linux rt-mutex tester): C: command, T: test once, W: wait.
#   K: opcode: thread (0-7): argument (lock 0-7, prio, nice, number)
# Prio scale: SCHED_FIFO p reads p, SCHED_OTHER nice n reads -21-n.

C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedfifo:		0:	80
C: schedfifo:		1:	80
T: prioeq:		0:	80
T: nprioeq:		1:	80

# T0 takes L0: events 1 (blocking) and 2 (locked)
C: locknowait:		0:	0
W: locked:		0:	0
T: eventeq:		0:	2

# T1 waits for L0: events 3 and 4 (blocked); no boost
C: locknowait:		1:	0
W: blocked:		1:	0
T: eventeq:		1:	4
T: prioeq:		0:	80

# T0 releases: T1 gets it, T0 keeps 80
C: unlock:		0:	0
W: locked:		1:	0
W: unlocked:		0:	0
T: prioeq:		0:	80
T: eventgt:		1:	4

# The other way round
C: locknowait:		0:	0
W: blocked:		0:	0
T: prioeq:		1:	80
C: unlock:		1:	0
W: locked:		0:	0
T: prioeq:		1:	80
C: unlock:		0:	0
W: unlocked:		0:	0
W: opcodeeq:		0:	0
