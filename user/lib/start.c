/*
 * user/lib/start.c - the C half of program start-up and exit: read the
 * initial stack crt0.S hands over, set up the main thread's thread
 * pointer (user/lib/pthread.c), call main, exit with its status.
 *
 * Linux counterpart: glibc's __libc_start_main (rtk runs no
 * constructors, has no environment API and ignores the auxiliary vector).
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

const char *program_name = "?";

/*
 * __libc_start - sp points at argc, then argv[], NULL, envp[], NULL, auxv
 * (the layout is drawn in crt0.S).  Context: the main thread, first C code.
 */
__noreturn void __libc_start(long *sp);
__noreturn void __libc_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	const char *slash;

	if (argc > 0 && argv[0]) {
		slash = strrchr(argv[0], '/');
		program_name = slash ? slash + 1 : argv[0];
	}
	pthread_init_main();
	exit(main(argc, argv));
}

__noreturn void exit(int status)
{
	exit_group(status);
}
