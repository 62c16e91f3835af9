/*
 * user/hello.c - the first user program: prints a greeting with its
 * arguments, its PID and TID, and exits 0.  It uses write, getpid,
 * gettid and exit_group only.
 */
#include "user/lib/ulib.h"

int main(int argc, char **argv)
{
	int i;

	printf("hello from user space: pid %d tid %d\n", getpid(), gettid());
	for (i = 1; i < argc; i++)
		printf("argv[%d] = %s\n", i, argv[i]);
	return 0;
}
