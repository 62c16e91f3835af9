/*
 * user/lib/clone.S - __clone_thread, the clone(2) call that starts a
 * thread on a new stack.  It must be assembly: after the SYSCALL the
 * child runs on the new stack, where no C frame of the caller exists.
 *
 *	long __clone_thread(unsigned long flags, void *stack_top,
 *			    u32 *parent_tid, u32 *child_tid,
 *			    unsigned long tls, int (*fn)(void *), void *arg);
 *
 * [1] store fn and arg at the top of the child's stack; [2] clone with
 * Linux's x86_64 argument order (flags, newsp, parent_tid, child_tid,
 * tls; the 4th argument travels in r10); [3] parent: return the child's
 * TID or -errno; [4] child (rax == 0, rsp == the new stack): pop fn and
 * arg, call fn(arg) with a zero frame pointer, and end the thread with
 * exit(fn's value) - never exit_group, which would end the process.
 * Linux counterpart: glibc sysdeps/unix/sysv/linux/x86_64/clone.S.
 */
	.text
	.globl	__clone_thread
	.type	__clone_thread, @function
__clone_thread:
	andq	$-16, %rsi		/* [1] ABI stack alignment */
	subq	$16, %rsi
	movq	%r9, 0(%rsi)		/* fn */
	movq	8(%rsp), %rax
	movq	%rax, 8(%rsi)		/* arg (7th argument, on our stack) */
	movq	%rcx, %r10		/* [2] child_tid */
	movl	$56, %eax		/* __NR_clone */
	syscall
	testq	%rax, %rax
	jz	1f
	ret				/* [3] parent */
1:	xorl	%ebp, %ebp		/* [4] child */
	popq	%rax			/* fn */
	popq	%rdi			/* arg */
	call	*%rax
	movl	%eax, %edi
	movl	$60, %eax		/* __NR_exit */
	syscall
	hlt				/* not reached */
	.size	__clone_thread, . - __clone_thread

	.section .note.GNU-stack, "", @progbits
