/*
 * user/tests/t_bomb.c - a thread bomb: makes threads until the kernel
 * refuses one, prints how many and the error, then waits to be killed
 * with every thread alive.  Its threads sleep in FUTEX_WAIT, so the bomb
 * holds kernel stacks without taking CPU time.  tests/kernel/test_user_limits.c
 * runs two at once and checks that the kernel still creates its own
 * threads while they live (kernel/user/rlimit.c's reserve).
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

static u32 never;	/* stays 0: FUTEX_WAIT on it sleeps until the kill */

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		futex(&never, FUTEX_WAIT, 0, NULL, NULL, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t th;
	long ret;
	int n = 0;

	(void)argc;
	(void)argv;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 16 * 1024);
	while (!(ret = pthread_create(&th, &attr, sleeper, NULL)))
		n++;
	printf("t_bomb: %d threads, then %ld\n", n, ret);
	sleeper(NULL);
	return 0;
}
