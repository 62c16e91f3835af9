# Story: an ABBA deadlock the script leaves behind.  T0 holds L0, T1
# holds L1; then T0 locks L1 and T1 locks L0.  rt_mutex_lock's deadlock
# detection prints the cycle and keeps both waiting (a plain lock cannot
# fail, as in Linux's tester), so both read "blocked" and the script
# passes; the cleanup after it then has each thread release what it holds
# from inside its lock call, and the next script starts clean.
# Format (Linux rt-mutex tester): C: command, T: test once, W: wait.
#   K: opcode: thread (0-7): argument (lock 0-7, prio, nice, number)
# Prio scale: SCHED_FIFO p reads p, SCHED_OTHER nice n reads -21-n.

C: resetevent:		0:	0
W: opcodeeq:		0:	0
C: schedother:		0:	0
C: schedother:		1:	0

C: lock:		0:	0
C: lock:		1:	1
W: locked:		0:	0
W: locked:		1:	1

C: lock:		0:	1
C: lock:		1:	0
W: blocked:		0:	1
W: blocked:		1:	0
T: opcodeeq:		0:	lock
T: opcodeeq:		1:	lock
