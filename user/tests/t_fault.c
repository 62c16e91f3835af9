/*
 * user/tests/t_fault.c MODE - do one thing a user program must not be
 * able to hurt the kernel with; the kernel ends the process with a
 * one-line report and the signal Linux would send:
 *	null	write to address 0			SIGSEGV (11)
 *	div0	integer divide by zero			SIGFPE (8)
 *	kernel	jump to a kernel text address		SIGSEGV
 *	kread	read a kernel data address		SIGSEGV
 *	ud	an undefined instruction (ud2)		SIGILL (4)
 *	priv	a privileged instruction (hlt)		SIGSEGV (#GP)
 *	nx	execute the stack			SIGSEGV
 *	stack	recurse into the stack guard page	SIGSEGV
 *	int3	a breakpoint				SIGTRAP (5)
 *	icebp	int1 (0xf1): a #DB, on its IST stack	SIGTRAP
 *	step	RFLAGS.TF set by popf: a single-step #DB	SIGTRAP
 *	stepsys	TF set, then SYSCALL (SFMASK clears TF for	SIGTRAP
 *		the kernel; the trap comes back in ring 3)
 * Any other MODE, or surviving, exits 100.
 */
#include "user/lib/ulib.h"

static volatile long depth_limit = 1L << 40;	/* never reached */

static int recurse(volatile char *p, long depth)
{
	volatile char big[4096];

	big[0] = *p;
	if (depth >= depth_limit)
		return 0;
	return recurse(big, depth + 1) + big[0];
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	volatile int zero = 0;

	if (!strcmp(m, "null"))
		*(volatile int *)0 = 1;
	else if (!strcmp(m, "div0")) {
		/* DIV itself: a C "1 / x" may compile to no division */
		unsigned int q = 1, d = (unsigned int)zero;

		__asm__ volatile("xorl %%edx, %%edx; divl %1"
				 : "+a"(q) : "r"(d) : "rdx");
		printf("%u\n", q);
	}
	else if (!strcmp(m, "kernel"))
		((void (*)(void))0xffffffff80100000UL)();
	else if (!strcmp(m, "kread"))
		printf("%lx\n", *(volatile unsigned long *)0xffff800000100000UL);
	else if (!strcmp(m, "ud"))
		__asm__ volatile("ud2");
	else if (!strcmp(m, "priv"))
		__asm__ volatile("hlt");
	else if (!strcmp(m, "nx")) {
		volatile unsigned char code[16] = { 0xc3 };	/* ret */
		((void (*)(void))code)();
	} else if (!strcmp(m, "stack"))
		recurse(argv[0], 0);
	else if (!strcmp(m, "int3"))
		__asm__ volatile("int3");
	else if (!strcmp(m, "icebp"))
		__asm__ volatile(".byte 0xf1");
	else if (!strcmp(m, "step"))
		__asm__ volatile("pushfq; orq $0x100, (%%rsp); popfq; nop"
				 ::: "memory", "cc");
	else if (!strcmp(m, "stepsys"))
		__asm__ volatile("pushfq; orq $0x100, (%%rsp); popfq\n\t"
				 "movl %0, %%eax; syscall; nop"
				 : : "i"(__NR_getpid)
				 : "rax", "rcx", "r11", "memory", "cc");
	printf("t_fault: %s survived\n", m);
	return 100;
}
