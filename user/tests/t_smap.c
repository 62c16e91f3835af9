/*
 * user/tests/t_smap.c - an attacker sets RFLAGS.AC, the key SMAP uses
 * to let the kernel at user pages (issue 28 item 5; arch/x86_64/smap.h),
 * and then enters the kernel every way it can: system calls with bad
 * pointers, and a spin long enough for timer interrupts to arrive in
 * ring 3 with AC set.  Expected:
 *   1. every bad pointer is still -EFAULT (kernel address, unmapped
 *      user address, non-canonical) and a good one still works: the
 *      kernel's own STAC/CLAC window, not the user's AC, decides;
 *   2. AC is still set when each call returns (the user's flags are
 *      the user's, as on Linux: SYSRET/IRET restore them);
 *   3. the kernel never ran C with AC set: test_user.c reads
 *      entry_ac_seen() before and after (SFMASK clears AC for SYSCALL,
 *      ASM_CLAC at trap_common's top for interrupts and exceptions).
 * While AC is set nothing here makes a misaligned access: with CR0.AM
 * (Linux sets it) that would be #AC, SIGBUS.  The results are kept in
 * aligned longs and printed after AC is cleared.
 * The exit code is the number of failed checks; each prints a FAIL line.
 */
#include "user/lib/ulib.h"

#define KERNEL_TEXT	0xffffffff80100000UL	/* linker.ld's load address */
#define KERNEL_DIRECT	0xffff800000100000UL	/* the direct map */
#define UNMAPPED_USER	0x1000UL		/* below the program */
#define NONCANONICAL	0x0000800000000000UL
/* The spin with AC set: long enough for several timer interrupts (the
 * tick is 1-10 ms under every model, kernel/time/tick.c) to land in
 * ring 3; a slow host only makes it take more of them. */
#define SPIN_NS		30000000L

#define X86_EFLAGS_AC	(1UL << 18)

enum { C_WRITE_KTEXT, C_WRITE_KDIRECT, C_WRITE_UNMAPPED, C_WRITE_NONCANON,
       C_CLOCK_KTEXT, C_NANOSLEEP_KDIRECT, C_FUTEX_KDIRECT, C_WRITE_GOOD,
       C_NR };

static const struct {
	const char *what;
	long expected;
} calls[C_NR] = {
	[C_WRITE_KTEXT] = { "write(kernel text)", -EFAULT },
	[C_WRITE_KDIRECT] = { "write(direct map)", -EFAULT },
	[C_WRITE_UNMAPPED] = { "write(unmapped user page)", -EFAULT },
	[C_WRITE_NONCANON] = { "write(non-canonical)", -EFAULT },
	[C_CLOCK_KTEXT] = { "clock_gettime(kernel text)", -EFAULT },
	[C_NANOSLEEP_KDIRECT] = { "nanosleep(direct map)", -EFAULT },
	[C_FUTEX_KDIRECT] = { "futex(direct map)", -EFAULT },
	[C_WRITE_GOOD] = { "write(a good buffer)", 3 },
};

static long got[C_NR];
static unsigned long ac_after[C_NR];
static unsigned long ac_after_spin;
static const char good[] __aligned(8) = "ok\n";

static inline unsigned long flags_read(void)
{
	unsigned long f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

static inline void ac_set(void)
{
	__asm__ volatile("pushfq; orq %0, (%%rsp); popfq"
			 : : "i"(X86_EFLAGS_AC) : "memory", "cc");
}

static inline void ac_clear(void)
{
	__asm__ volatile("pushfq; andq %0, (%%rsp); popfq"
			 : : "i"(~X86_EFLAGS_AC) : "memory", "cc");
}

static long call(int i)
{
	switch (i) {
	case C_WRITE_KTEXT:
		return write(1, (const void *)KERNEL_TEXT, 16);
	case C_WRITE_KDIRECT:
		return write(1, (const void *)KERNEL_DIRECT, 16);
	case C_WRITE_UNMAPPED:
		return write(1, (const void *)UNMAPPED_USER, 16);
	case C_WRITE_NONCANON:
		return write(1, (const void *)NONCANONICAL, 16);
	case C_CLOCK_KTEXT:
		return clock_gettime(CLOCK_MONOTONIC,
				     (struct timespec *)KERNEL_TEXT);
	case C_NANOSLEEP_KDIRECT:
		return nanosleep((const struct timespec *)KERNEL_DIRECT, NULL);
	case C_FUTEX_KDIRECT:
		return futex((u32 *)KERNEL_DIRECT, FUTEX_WAIT, 0, NULL, NULL, 0);
	default:
		return write(1, good, 3);
	}
}

int main(int argc, char **argv)
{
	struct timespec t0, t;
	int failures = 0;
	long spins = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ac_set();
	for (int i = 0; i < C_NR; i++) {			/* [1] */
		got[i] = call(i);
		ac_after[i] = flags_read() & X86_EFLAGS_AC;	/* [2] */
	}
	do {							/* [3] */
		for (volatile int n = 0; n < 100000; n++)
			;
		spins++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec <
		 SPIN_NS);
	ac_after_spin = flags_read() & X86_EFLAGS_AC;
	ac_clear();

	for (int i = 0; i < C_NR; i++) {
		if (got[i] != calls[i].expected) {
			failures++;
			printf("FAIL %s with AC set: expected %ld, got %ld\n",
			       calls[i].what, calls[i].expected, got[i]);
		}
		if (!ac_after[i]) {
			failures++;
			printf("FAIL %s: AC clear on return to user\n",
			       calls[i].what);
		}
	}
	if (!ac_after_spin) {
		failures++;
		printf("FAIL AC clear after the spin\n");
	}
	printf("t_smap: %d calls and %ld spins with AC set, %d failed\n", C_NR,
	       spins, failures);
	return failures;
}
