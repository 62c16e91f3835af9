/*
 * user/tests/t_segs.c - each thread keeps its own %ds %es %fs %gs
 * selectors across context switches, as on Linux x86_64 (issue 28 item
 * 5; arch/x86_64/user_thread.c).
 *
 * Scenario (one process, two threads pinned to the same CPU, the main
 * thread waiting in pthread_join): thread "data" loads all four with
 * the user data selector (the value of its own %ss: 0x33 on rtk, 0x2b on
 * Linux), thread "null" loads 0 into all four; both then yield ROUNDS
 * times and after each yield read the four back.  Expected: each sees
 * only its own values, and the two really took turns (the other
 * thread's counter moved across a yield at least MIN_TURNS times).
 * Before the fix the kernel switched no selector, so each thread saw
 * whatever the other had loaded last.
 * Loading %fs replaces the FS base (the thread pointer, pthread.h) with
 * the descriptor's 0: between the load and the end of the loop nothing
 * here touches TLS; afterwards %fs = 0 and arch_prctl(ARCH_SET_FS) put
 * the thread pointer back (Linux's ARCH_SET_FS also leaves %fs = 0).
 * The exit code is the number of failed checks; each prints a FAIL line.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

#define ROUNDS		2000
/* Turns required: with two runnable threads on one CPU every yield
 * should switch; 10 only proves switches happened at all, whatever else
 * shares the CPU. */
#define MIN_TURNS	10

struct seg_thread {
	const char *name;
	unsigned long sel;	/* what it loads */
	long rounds;		/* its progress, read by the other */
	long wrong;		/* rounds where any selector differed */
	unsigned long seen[4];	/* the first wrong values: ds es fs gs */
	long turns;		/* yields across which the other moved */
	struct seg_thread *other;
};

static pthread_barrier_t start;
static int cpu;

static inline unsigned long read_ss(void)
{
	unsigned long v;

	__asm__ volatile("movl %%ss, %k0" : "=r"(v));
	return v & 0xffff;
}

static inline void load_segs(unsigned long sel)
{
	__asm__ volatile("movl %k0, %%ds\n\t"
			 "movl %k0, %%es\n\t"
			 "movl %k0, %%fs\n\t"
			 "movl %k0, %%gs"
			 : : "r"(sel) : "memory");
}

static inline void read_segs(unsigned long v[4])
{
	unsigned int ds, es, fs, gs;

	__asm__ volatile("movl %%ds, %0\n\t"
			 "movl %%es, %1\n\t"
			 "movl %%fs, %2\n\t"
			 "movl %%gs, %3"
			 : "=r"(ds), "=r"(es), "=r"(fs), "=r"(gs));
	v[0] = ds & 0xffff;
	v[1] = es & 0xffff;
	v[2] = fs & 0xffff;
	v[3] = gs & 0xffff;
}

static void *seg_worker(void *arg)
{
	struct seg_thread *me = arg;
	unsigned long self = (unsigned long)pthread_self();
	unsigned long v[4];

	pin_self_to_cpu(cpu);
	pthread_barrier_wait(&start);
	load_segs(me->sel);
	for (long i = 0; i < ROUNDS; i++) {
		long theirs = __atomic_load_n(&me->other->rounds,
					      __ATOMIC_RELAXED);

		sched_yield();
		read_segs(v);
		if (v[0] != me->sel || v[1] != me->sel || v[2] != me->sel ||
		    v[3] != me->sel) {
			if (!me->wrong)
				for (int k = 0; k < 4; k++)
					me->seen[k] = v[k];
			me->wrong++;
		}
		if (__atomic_load_n(&me->other->rounds, __ATOMIC_RELAXED) !=
		    theirs)
			me->turns++;
		__atomic_store_n(&me->rounds, i + 1, __ATOMIC_RELAXED);
	}
	load_segs(0);
	arch_prctl(ARCH_SET_FS, self);	/* TLS back before any libc use */
	return NULL;
}

int main(int argc, char **argv)
{
	struct seg_thread th[2] = {
		{ .name = "data", .sel = read_ss() },
		{ .name = "null", .sel = 0 },
	};
	pthread_t tid[2];
	int failures = 0;

	th[0].other = &th[1];
	th[1].other = &th[0];
	cpu = nth_cpu_allowed(0);
	pthread_barrier_init(&start, NULL, 2);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&tid[i], NULL, seg_worker, &th[i])) {
			printf("FAIL pthread_create\n");
			return 1;
		}
	for (int i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	for (int i = 0; i < 2; i++) {
		struct seg_thread *s = &th[i];

		if (s->wrong) {
			failures++;
			printf("FAIL thread %s (loaded %#lx): %ld of %d rounds saw "
			       "another thread's selectors, first ds %#lx es "
			       "%#lx fs %#lx gs %#lx\n", s->name, s->sel,
			       s->wrong, ROUNDS, s->seen[0], s->seen[1],
			       s->seen[2], s->seen[3]);
		}
		if (s->turns < MIN_TURNS) {
			failures++;
			printf("FAIL thread %s: only %ld turns (of %d yields) "
			       "with the other thread\n", s->name, s->turns,
			       ROUNDS);
		}
	}
	printf("t_segs: ss %#lx, turns %ld/%ld, %d failed\n", th[0].sel,
	       th[0].turns, th[1].turns, failures);
	return failures;
}
