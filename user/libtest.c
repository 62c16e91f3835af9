/*
 * user/libtest.c - the user library checks itself: formatting, threads
 * (create, join, results, distinct TIDs), both mutex protocols under
 * contention (a counter incremented by N threads must end at N * loops),
 * the PI futex word's encoding (owner TID while held, 0 after), trylock
 * and the barrier's rounds.  Prints one "ok"/"not ok" line per check
 * and exits 1 if any failed.  No timing: it synchronises by joins and
 * barriers only, so it runs on rtk and on a busy Linux host alike.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

#define NTHREADS 4
#define LOOPS 20000
#define ROUNDS 50

static int failures, checks;

static void check(bool cond, const char *what, long expected, long seen)
{
	checks++;
	if (cond) {
		printf("ok %d - %s\n", checks, what);
		return;
	}
	failures++;
	printf("not ok %d - %s: expected %ld, saw %ld\n", checks, what,
	       expected, seen);
}

static pthread_mutex_t lock;
static long counter;
static int lock_errors, last_lock_error;

static void *count_fn(void *arg)
{
	int ret;

	for (int i = 0; i < LOOPS; i++) {
		ret = pthread_mutex_lock(&lock);
		counter++;
		ret = ret ? ret : pthread_mutex_unlock(&lock);
		if (ret) {	/* e.g. -ENOSYS from a kernel without futex */
			__atomic_add_fetch(&lock_errors, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&last_lock_error, ret, __ATOMIC_RELAXED);
		}
	}
	return (void *)(long)pthread_self_tid();
}

static void check_mutex(int protocol, const char *name)
{
	pthread_mutexattr_t ma;
	pthread_t t[NTHREADS];
	void *tid[NTHREADS];
	char what[80];
	int i, ret, distinct = 1;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, protocol);
	pthread_mutex_init(&lock, &ma);
	counter = 0;
	lock_errors = 0;
	for (i = 0; i < NTHREADS; i++) {
		ret = pthread_create(&t[i], NULL, count_fn, NULL);
		snprintf(what, sizeof(what), "%s: pthread_create %d", name, i);
		check(ret == 0, what, 0, ret);
		if (ret)
			exit(1);
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], &tid[i]);
	snprintf(what, sizeof(what), "%s: %d threads x %d increments",
		 name, NTHREADS, LOOPS);
	check(counter == (long)NTHREADS * LOOPS, what,
	      (long)NTHREADS * LOOPS, counter);
	snprintf(what, sizeof(what), "%s: lock and unlock return 0 (last "
		 "error %s)", name, strerror_name(last_lock_error));
	check(lock_errors == 0, what, 0, lock_errors);
	for (i = 1; i < NTHREADS; i++)
		if (tid[i] == tid[0] || (long)tid[i] == getpid())
			distinct = 0;
	snprintf(what, sizeof(what), "%s: threads have their own TIDs", name);
	check(distinct, what, 1, distinct);
}

static void check_pi_word(void)
{
	pthread_mutexattr_t ma;
	pthread_mutex_t m;
	int ret;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&m, &ma);
	pthread_mutex_lock(&m);
	check(m.word == (u32)gettid(), "PI word holds the owner's TID",
	      gettid(), m.word);
	ret = pthread_mutex_trylock(&m);
	check(ret == -EBUSY, "PI trylock of a held mutex is -EBUSY", -EBUSY,
	      ret);
	ret = pthread_mutex_lock(&m);
	check(ret == -EDEADLK, "PI relock by the owner is -EDEADLK",
	      -EDEADLK, ret);
	pthread_mutex_unlock(&m);
	check(m.word == 0, "PI word is 0 after unlock", 0, m.word);
	ret = (int)futex(&m.word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
	check(ret == -EPERM, "FUTEX_UNLOCK_PI of a free PI futex is -EPERM",
	      -EPERM, ret);
}

static pthread_barrier_t barrier;
static int round_seen[NTHREADS];
static int serials;

static void *barrier_fn(void *arg)
{
	long id = (long)arg;

	for (int r = 0; r < ROUNDS; r++) {
		/* every thread is in round r before anyone enters r + 1 */
		__atomic_store_n(&round_seen[id], r, __ATOMIC_RELAXED);
		if (pthread_barrier_wait(&barrier) ==
		    PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
		for (int k = 0; k < NTHREADS; k++)
			if (__atomic_load_n(&round_seen[k], __ATOMIC_RELAXED) < r)
				return (void *)1L;
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

static void check_barrier(void)
{
	pthread_t t[NTHREADS];
	void *bad;
	long nbad = 0;
	int i;

	pthread_barrier_init(&barrier, NULL, NTHREADS);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, barrier_fn, (void *)(long)i);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], &bad);
		nbad += (long)bad;
	}
	check(nbad == 0, "barrier: nobody leaves a round early", 0, nbad);
	check(serials == ROUNDS, "barrier: one serial thread per round",
	      ROUNDS, serials);
}

int main(int argc, char **argv)
{
	char buf[32];
	int len;

	len = snprintf(buf, sizeof(buf), "%d %s %05u %lx", -42, "ab", 7u,
		       0xbeefUL);
	check(!strcmp(buf, "-42 ab 00007 beef"), "snprintf formats", 17, len);
	check(pthread_self_tid() == gettid(), "main thread's TID without a syscall",
	      gettid(), pthread_self_tid());
	check_mutex(PTHREAD_PRIO_NONE, "plain mutex");
	check_mutex(PTHREAD_PRIO_INHERIT, "PI mutex");
	check_pi_word();
	check_barrier();
	printf("# libtest: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
