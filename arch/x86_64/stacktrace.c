/*
 * arch/x86_64/stacktrace.c - walk the RBP frame chain and print it with
 * symbols.
 *
 * With -fno-omit-frame-pointer every C function starts "push rbp; mov
 * rbp, rsp", so [rbp] is the caller's rbp and [rbp+8] the return address.
 * The chain ends at rbp == 0 (kernel_entry64, the AP entry and new tasks
 * start with rbp = 0).  A frame is followed only while it points into
 * kernel memory, is 8-byte aligned and moves up the stack, so a corrupt
 * stack ends the trace instead of faulting inside the oops.
 * Linux counterpart: arch/x86/kernel/dumpstack.c, unwind_frame.c.
 */
#include "arch/x86_64/stacktrace.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/irq.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"

#define MAX_FRAMES 32
#define MAX_FRAME_SIZE (64 * 1024)	/* larger than any kernel stack */

static bool frame_plausible(unsigned long rbp, unsigned long prev)
{
	if (rbp < DIRECT_MAP_BASE || (rbp & 7))
		return false;
	/* The one jump down: from the IRQ stack to the interrupted stack. */
	if (prev && irq_stack_contains(prev) && !irq_stack_contains(rbp))
		return true;
	if (prev && (rbp <= prev || rbp - prev > MAX_FRAME_SIZE))
		return false;
	return true;
}

void arch_show_backtrace(unsigned long rbp)
{
	unsigned long prev = 0;
	char sym[96];

	printk(KERN_EMERG "Call Trace:\n");
	for (int i = 0; i < MAX_FRAMES && rbp; i++) {
		unsigned long ret;

		if (!frame_plausible(rbp, prev)) {
			printk(KERN_EMERG "  <frame %lx not on a kernel stack>\n", rbp);
			return;
		}
		ret = ((unsigned long *)rbp)[1];
		if (!ret)
			return;
		ksym_snprint(sym, sizeof(sym), ret);
		printk(KERN_EMERG "  [<%016lx>] %s\n", ret, sym);
		prev = rbp;
		rbp = ((unsigned long *)rbp)[0];
	}
}

/*
 * arch_save_stack_trace - up to max return addresses of the frames above
 * rbp (the caller's callers), for the lock validator's acquisition
 * records; the rest of trace is zeroed.  Returns how many were stored.
 * Context: any; reads only the current stack.
 */
int arch_save_stack_trace(unsigned long rbp, unsigned long *trace, int max)
{
	unsigned long prev = 0;
	int n = 0;

	while (n < max && rbp && frame_plausible(rbp, prev)) {
		unsigned long ret = ((unsigned long *)rbp)[1];

		if (!ret)
			break;
		trace[n++] = ret;
		prev = rbp;
		rbp = ((unsigned long *)rbp)[0];
	}
	for (int i = n; i < max; i++)
		trace[i] = 0;
	return n;
}

void arch_show_current_regs(void)
{
	unsigned long r[16];

	__asm__ volatile("mov %%rax, 0(%0)\n\t"
			 "mov %%rbx, 8(%0)\n\t"
			 "mov %%rcx, 16(%0)\n\t"
			 "mov %%rdx, 24(%0)\n\t"
			 "mov %%rsi, 32(%0)\n\t"
			 "mov %%rdi, 40(%0)\n\t"
			 "mov %%rbp, 48(%0)\n\t"
			 "mov %%rsp, 56(%0)\n\t"
			 "mov %%r8, 64(%0)\n\t"
			 "mov %%r9, 72(%0)\n\t"
			 "mov %%r10, 80(%0)\n\t"
			 "mov %%r11, 88(%0)\n\t"
			 "mov %%r12, 96(%0)\n\t"
			 "mov %%r13, 104(%0)\n\t"
			 "mov %%r14, 112(%0)\n\t"
			 "mov %%r15, 120(%0)\n\t"
			 :
			 : "r"(r)
			 : "memory");
	printk(KERN_EMERG "RAX: %016lx RBX: %016lx RCX: %016lx\n", r[0], r[1], r[2]);
	printk(KERN_EMERG "RDX: %016lx RSI: %016lx RDI: %016lx\n", r[3], r[4], r[5]);
	printk(KERN_EMERG "RBP: %016lx RSP: %016lx R08: %016lx\n", r[6], r[7], r[8]);
	printk(KERN_EMERG "R09: %016lx R10: %016lx R11: %016lx\n", r[9], r[10], r[11]);
	printk(KERN_EMERG "R12: %016lx R13: %016lx R14: %016lx\n", r[12], r[13], r[14]);
	printk(KERN_EMERG "R15: %016lx RFLAGS: %016lx\n", r[15], read_rflags());
	printk(KERN_EMERG "CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n",
	       read_cr0(), read_cr2(), read_cr3(), read_cr4());
}
