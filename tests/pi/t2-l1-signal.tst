# Story: a signal ends an interruptible wait.  T0 and T1 are SCHED_OTHER;
# T1 waits for L0 with lockintnowait and is signalled: -EINTR (-4),
# L0 stays with T0.
# Format (Linux rt-mutex tester): C: command, T: test once, W: wait.
#   K: opcode: thread (0-7): argument (lock 0-7, prio, nice, number)
# Prio scale: SCHED_FIFO p reads p, SCHED_OTHER nice n reads -21-n.

C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedother:		0:	0
C: schedother:		1:	0

C: locknowait:		0:	0
W: locked:		0:	0
C: lockintnowait:	1:	0
W: blocked:		1:	0

C: signal:		1:	0
W: unlocked:		1:	0
T: opcodeeq:		1:	-4
T: locked:		0:	0

C: unlock:		0:	0
W: unlocked:		0:	0
