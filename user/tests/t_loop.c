/*
 * user/tests/t_loop.c [CPU [FIFO-PRIO]] - a runaway: spins forever in
 * user mode without a system call, pinned to CPU (if given) and at
 * SCHED_FIFO FIFO-PRIO (if given).  Only the tick's preemption at the
 * return to user lets anything else run on that CPU, and only a kill
 * ends it.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

int main(int argc, char **argv)
{
	volatile unsigned long n = 0;
	long cpu, prio;

	if (argc > 1 && (kstrtol(argv[1], 10, &cpu) || pin_self_to_cpu((int)cpu)))
		return 2;
	if (argc > 2 && (kstrtol(argv[2], 10, &prio) || set_self_fifo((int)prio)))
		return 3;
	for (;;)
		n++;
}
