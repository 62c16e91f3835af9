/*
 * user/lib/pthread.h - a pthread-like thread API on Linux's clone and
 * futex calls: threads, mutexes (plain futex or priority-inheriting on
 * the PI futex), barriers.
 *
 * Names, signatures and semantics follow POSIX threads as glibc provides
 * them, with two differences: every call returns 0 or a negative errno
 * (POSIX returns the positive errno), and attributes hold only what rtk's
 * programs use (stack size; mutex protocol).  Linux counterpart: glibc's
 * nptl (pthread_create.c, pthread_mutex_lock.c, pthread_barrier_wait.c).
 *
 * Thread pointer: each thread's FS base points at its struct pthread
 * (x86_64 TLS convention: %fs:0 holds the pointer itself), set with
 * CLONE_SETTLS for new threads and arch_prctl(ARCH_SET_FS) for the main
 * thread, so pthread_self() and the mutex fast path read the caller's
 * TID without a system call.  A kernel without arch_prctl still runs the
 * programs: the main thread then asks gettid() (see pthread_self_tid()).
 */
#ifndef USER_LIB_PTHREAD_H
#define USER_LIB_PTHREAD_H

#include "user/lib/linux_abi.h"

#define PTHREAD_STACK_DEFAULT	(64 * 1024)	/* the programs' threads are small */

struct pthread {
	struct pthread *self;		/* %fs:0 (x86_64 TLS convention) */
	/* written by the kernel: TID at clone (CLONE_PARENT_SETTID), 0 at
	 * exit, followed by a FUTEX_WAKE (CLONE_CHILD_CLEARTID): join
	 * waits on it */
	u32 tid;
	void *(*start)(void *arg);	/* the thread function */
	void *arg;
	void *result;			/* start's return value, for join */
	void *map;			/* the mmap'ed stack holding this */
	size_t map_len;
};
typedef struct pthread *pthread_t;

typedef struct {
	size_t stacksize;		/* 0: PTHREAD_STACK_DEFAULT */
} pthread_attr_t;

int pthread_attr_init(pthread_attr_t *attr);
int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size);

/*
 * pthread_create - start fn(arg) in a new thread of this process.
 * Context: any thread.  Returns 0 and the handle in *t, or -ENOMEM
 * (no stack) or clone's error.
 */
int pthread_create(pthread_t *t, const pthread_attr_t *attr,
		   void *(*fn)(void *arg), void *arg);

/* pthread_join - wait until t has exited, free its stack, hand back its
 * return value (if result is not NULL).  Each thread is joined once.
 * Context: any other thread of the process; sleeps in FUTEX_WAIT.
 * -EDEADLK for the caller itself. */
int pthread_join(pthread_t t, void **result);

pthread_t pthread_self(void);
/* pthread_self_tid - the caller's TID (the PI futex word's owner value) */
int pthread_self_tid(void);
/* pthread_tid - t's TID (Linux's pthread_gettid_np) */
int pthread_tid(pthread_t t);

/* Scheduling of a thread by handle: the sched_* calls on its TID. */
int pthread_setschedparam(pthread_t t, int policy,
			  const struct sched_param *param);
int pthread_setaffinity_np(pthread_t t, size_t size, const cpu_set_t *set);
/* pin_self_to_cpu / set_self_fifo - the two calls every RT program makes */
int pin_self_to_cpu(int cpu);
int set_self_fifo(int prio);
/* nr_cpus_allowed - CPUs in the caller's affinity mask (at least 1);
 * nth_cpu_allowed - the n-th of them (n taken modulo their number): how
 * a program spreads threads "one per CPU" on rtk and on a Linux host */
int nr_cpus_allowed(void);
int nth_cpu_allowed(int n);

/* pthread_init_main - set the main thread's thread pointer (start.c). */
void pthread_init_main(void);

/* ---- mutexes (user/lib/pthread_mutex.c) */
#define PTHREAD_PRIO_NONE	0	/* plain futex mutex */
#define PTHREAD_PRIO_INHERIT	1	/* PI futex: the owner is boosted */

typedef struct {
	int protocol;			/* PTHREAD_PRIO_* */
} pthread_mutexattr_t;

typedef struct {
	/*
	 * PTHREAD_PRIO_NONE: 0 free, 1 locked, 2 locked and maybe waiters.
	 * PTHREAD_PRIO_INHERIT: 0 free, else the owner's TID, with
	 * FUTEX_WAITERS set by the kernel while others wait (Linux's PI
	 * futex word, Documentation/locking/pi-futex.rst).
	 */
	u32 word;
	int protocol;			/* PTHREAD_PRIO_* */
} pthread_mutex_t;

#define PTHREAD_MUTEX_INITIALIZER { 0, PTHREAD_PRIO_NONE }

int pthread_mutexattr_init(pthread_mutexattr_t *attr);
int pthread_mutexattr_setprotocol(pthread_mutexattr_t *attr, int protocol);
int pthread_mutexattr_getprotocol(const pthread_mutexattr_t *attr,
				  int *protocol);
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *m);
/*
 * pthread_mutex_lock - Context: a thread; sleeps in the kernel when
 * contended (FUTEX_LOCK_PI boosts the owner; FUTEX_WAIT does not).
 * PI: -EDEADLK if the caller owns m.  Not recursive.
 * pthread_mutex_trylock - never sleeps; -EBUSY if held.
 * pthread_mutex_unlock - Context: the owner.  PI: -EPERM from the kernel
 * if the caller does not own m; plain: -EPERM only if m was free.
 */
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_trylock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);

/* ---- barriers (user/lib/pthread_barrier.c) */
#define PTHREAD_BARRIER_SERIAL_THREAD	(-1)

typedef struct {
	u32 count;			/* threads that must arrive */
	u32 arrived;			/* arrived in this round */
	u32 round;			/* futex word: bumped when all arrived */
} pthread_barrier_t;

int pthread_barrier_init(pthread_barrier_t *b, const void *attr,
			 unsigned int count);
int pthread_barrier_destroy(pthread_barrier_t *b);
/* pthread_barrier_wait - returns PTHREAD_BARRIER_SERIAL_THREAD in the
 * last thread to arrive, 0 in the others.  Context: one of the count
 * threads; sleeps in FUTEX_WAIT until the last one arrives. */
int pthread_barrier_wait(pthread_barrier_t *b);

#endif /* USER_LIB_PTHREAD_H */
