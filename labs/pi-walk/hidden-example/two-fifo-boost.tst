#
# two-fifo-boost: a hidden script (pitest scale: 99 - kernel prio, so
# FIFO N reads N and SCHED_OTHER -21).  Thread 0 (FIFO 10) holds lock
# 0; thread 1 (FIFO 70) blocks on it: thread 0 must run at 70 until it
# unlocks, and at 10 afterwards.
#
C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedfifo:		0:	10
C: schedfifo:		1:	70
T: prioeq:		0:	10
C: locknowait:		0:	0
W: locked:		0:	0
C: locknowait:		1:	0
W: blocked:		1:	0
T: prioeq:		0:	70
T: nprioeq:		0:	10
C: unlock:		0:	0
W: locked:		1:	0
W: unlocked:		0:	0
T: prioeq:		0:	10
C: unlock:		1:	0
W: unlocked:		1:	0
