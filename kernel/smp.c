/*
 * kernel/smp.c - the online-CPU bookkeeping shared by the boot code, the
 * scheduler and the shell (see kernel/smp.h).
 */
#include "kernel/smp.h"

cpumask_t cpu_online_mask;
int nr_cpu_ids = 1;
