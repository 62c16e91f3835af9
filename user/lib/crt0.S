/*
 * user/lib/crt0.S - _start, the entry of every user program.
 *
 * The kernel (rtk's ELF loader, or Linux's execve) enters here with the
 * System V x86_64 initial stack (ABI supplement section 3.4.1, the one
 * Linux builds in create_elf_tables()):
 *	rsp ->	argc
 *		argv[0] .. argv[argc - 1], NULL
 *		envp[0] .. NULL
 *		auxv pairs .. AT_NULL
 * and rsp 16-byte aligned.  _start clears rbp (the end of the frame
 * chain for a debugger), hands rsp to __libc_start (user/lib/start.c),
 * which never returns.  Linux counterpart: glibc sysdeps/x86_64/start.S
 * (rtk leaves out rtld_fini, init/fini arrays and the stack-end marker).
 */
	.text
	.globl	_start
	.type	_start, @function
_start:
	xorl	%ebp, %ebp
	movq	%rsp, %rdi		/* arg 0: the initial stack */
	andq	$-16, %rsp		/* the call below pushes 8: ABI alignment */
	call	__libc_start
	hlt				/* not reached: __libc_start exits */
	.size	_start, . - _start

	.section .note.GNU-stack, "", @progbits
