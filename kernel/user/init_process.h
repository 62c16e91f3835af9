/*
 * kernel/user/init_process.h - `init=PATH` on the command line: the
 * first user process, pid 1, started after the initramfs is unpacked
 * (kernel/user/init_process.c).
 */
#ifndef KERNEL_USER_INIT_PROCESS_H
#define KERNEL_USER_INIT_PROCESS_H

/* run_init_process - with init= given, start it as pid 1 and wait for
 * it; return when it could not start or has exited (the kernel shell
 * follows).  Without init=, return at once.  Context: the boot flow
 * ("init", kernel/main.c), sleeps. */
void run_init_process(void);

#endif /* KERNEL_USER_INIT_PROCESS_H */
