/*
 * kernel/smp.h - which CPUs exist and are online, and the cross-CPU
 * calls: the portable face of SMP (the machine side is
 * arch/x86_64/smpboot.c for bring-up and arch/x86_64/ipi.c for IPIs).
 *
 *	smp_call_function_single(cpu, func, info, wait)	func(info) on cpu
 *	smp_call_function_many(mask, func, info, wait)	... on mask's CPUs
 *							but this one
 *	smp_call_function(func, info, wait)		... on all others
 *	on_each_cpu(func, info, wait)			... on all, here too
 *	smp_send_reschedule(cpu), smp_send_reschedule_allbutself()
 * func runs in hard-interrupt context on the target (interrupts off): it
 * must be short and must not sleep or take sleeping locks.
 * Linux counterpart: include/linux/smp.h, kernel/smp.c; the article
 * (section "SMP") names smp_send_reschedule_allbutself().
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "lib/types.h"
#include "lib/bitmap.h"
#include "kernel/percpu.h" /* NR_CPUS, smp_processor_id() */

typedef struct {
	u64 bits;
} cpumask_t;

/* cpu_online_mask - bit n set once CPU n runs its idle loop.  Written by
 * the booting CPU, read anywhere (atomic 64-bit accesses). */
extern cpumask_t cpu_online_mask;
extern int nr_cpu_ids; /* CPUs found (possible), online or not */

static inline int num_online_cpus(void)
{
	/* hweight_long, not __builtin_popcountll: without -mpopcnt gcc
	 * calls libgcc's __popcountdi2, which a freestanding kernel lacks. */
	return hweight_long(
		__atomic_load_n(&cpu_online_mask.bits, __ATOMIC_RELAXED));
}

static inline bool cpu_online(int cpu)
{
	return (__atomic_load_n(&cpu_online_mask.bits, __ATOMIC_RELAXED) >>
		cpu) &
	       1;
}

/* nth_online_cpu - the (n mod online)-th online CPU: round-robin
 * placement of load and measuring threads. */
static inline int nth_online_cpu(int n)
{
	int online = num_online_cpus(), cpu;

	n %= online > 0 ? online : 1;
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu) && n-- == 0)
			return cpu;
	return 0;
}

static inline void set_cpu_online(int cpu, bool online)
{
	if (online)
		__atomic_fetch_or(&cpu_online_mask.bits, 1ULL << cpu,
				  __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(&cpu_online_mask.bits, ~(1ULL << cpu),
				   __ATOMIC_SEQ_CST);
}

static inline bool cpumask_test_cpu(int cpu, const cpumask_t *mask)
{
	return (__atomic_load_n(&mask->bits, __ATOMIC_RELAXED) >> cpu) & 1;
}

static inline void cpumask_set_cpu(int cpu, cpumask_t *mask)
{
	mask->bits |= 1ULL << cpu;
}

/* IPI kinds, for the per-CPU counts the handlers keep. */
enum ipi_type {
	IPI_RESCHEDULE,
	IPI_CALL_FUNC,	      /* smp_call_function_many() and friends */
	IPI_CALL_FUNC_SINGLE, /* smp_call_function_single() */
	IPI_STOP,	      /* panic's NMI */
	NR_IPI_TYPES,
};

/* ipi_received[type] - IPIs of each kind this CPU has handled.  Written
 * by the CPU itself (this_cpu_inc, hardirq/NMI), read by anyone. */
DECLARE_PER_CPU(u64[NR_IPI_TYPES], ipi_received);

/* ipi_type_name - "RES", "CAL", ... (like /proc/interrupts). */
const char *ipi_type_name(enum ipi_type type);

typedef void (*smp_call_func_t)(void *info);

/*
 * smp_call_function_single - run func(info) on CPU cpu: at once, with
 * interrupts off, when cpu is this CPU; else through a call-function
 * IPI.  With wait, return after func has returned there.
 * Returns 0 or -ENXIO when cpu is not online.
 * Context: task or boot, not hardirq.  May wait with interrupts on or
 * off, but two CPUs waiting for each other with interrupts off
 * deadlock, so a caller with interrupts off must be the only one.
 * Locking: takes the caller's call slot for cpu (spins while a previous
 * asynchronous call through it is still pending).
 */
int smp_call_function_single(int cpu, smp_call_func_t func, void *info,
			     bool wait);
/* smp_call_self_window - test-only race window (kernel/debug/race_window.h):
 * smp_call_function_single() found cpu to be this CPU and is about to run
 * func here (tests/kernel/test_smp_call_races.c). */
struct race_window;
extern struct race_window smp_call_self_window;

/* smp_call_function_many - func(info) on every online CPU in mask except
 * this one; with wait, return after all have finished.
 * Context and locking: as smp_call_function_single(). */
void smp_call_function_many(const cpumask_t *mask, smp_call_func_t func,
			    void *info, bool wait);

/* smp_call_function - func(info) on every other online CPU. */
void smp_call_function(smp_call_func_t func, void *info, bool wait);

/* on_each_cpu - func(info) on every online CPU, this one included (with
 * interrupts off here, as on the others). */
void on_each_cpu(smp_call_func_t func, void *info, bool wait);

/*
 * smp_send_reschedule - ask cpu to look at its run queue (a reschedule
 * IPI; the handler calls scheduler_ipi(), kernel/sched/sched.h).  Does
 * not wait.
 * Context: any, including hardirq with interrupts off.
 */
void smp_send_reschedule(int cpu);
/* smp_send_reschedule_allbutself - the same to every other online CPU. */
void smp_send_reschedule_allbutself(void);

/* Called by the arch IPI handlers (arch/x86_64/ipi.c) after their EOI.
 * Context: hardirq on the target, interrupts off. */
void generic_smp_call_function_interrupt(enum ipi_type type);
void generic_smp_reschedule_interrupt(void);

/* smp_init - install the IPI handlers, start the APs, report
 * "smp: N CPUs online".  Context: boot CPU, once, after the local APIC
 * is up. */
void smp_init(void);

#define for_each_online_cpu(cpu)                  \
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++) \
		if (cpu_online(cpu))

#endif /* KERNEL_SMP_H */
