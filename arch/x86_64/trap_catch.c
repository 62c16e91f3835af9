/*
 * arch/x86_64/trap_catch.c - the catch stack behind trap_try() (see
 * trap_catch.h for the contract and an example).
 *
 * One catch stack per CPU (a per-CPU pointer to the innermost catch): a
 * catch is armed and hit on the same CPU, so two CPUs can each run a
 * test that expects a fault at once.  The arming code must not migrate
 * while armed (a bound thread, or preemption off): the catch belongs to
 * the CPU, not to the task.
 * Linux counterpart: none directly; fixup_exception() in
 * arch/x86/mm/extable.c is the closest (it resumes at a fixup address).
 */
#include "arch/x86_64/trap_catch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "kernel/ksyms.h"
#include "kernel/percpu.h"
#include "lib/bug.h"
#include "lib/string.h"

/* Innermost armed catch of each CPU; touched only by that CPU, with its
 * own exception handler as the only other reader. */
static DEFINE_PER_CPU(struct trap_catch *, catch_top);

/*
 * trap_catch_arm - see trap_catch.h.
 * Context: any.  Locking: none (this CPU only); the barrier keeps the
 * compiler from sinking the publication below the code it protects.
 */
void trap_catch_arm(struct trap_catch *c)
{
	BUG_ON(!c);
	BUG_ON(c == this_cpu_read(catch_top));	/* armed twice, no disarm */
	c->vector = -1;
	c->error_code = 0;
	c->cr2 = 0;
	c->rip = 0;
	c->sym[0] = '\0';
	c->prev = this_cpu_read(catch_top);
	barrier();
	this_cpu_write(catch_top, c);
	barrier();
}

/*
 * trap_catch_disarm - see trap_catch.h.
 * Context: the arming function.  BUG if c is not the innermost catch: a
 * stale catch would longjmp into a dead frame later.
 */
void trap_catch_disarm(struct trap_catch *c)
{
	BUG_ON(this_cpu_read(catch_top) != c);
	barrier();
	this_cpu_write(catch_top, c->prev);
	barrier();
}

bool trap_catch_armed(void)
{
	return this_cpu_read(catch_top) != NULL;
}

/*
 * trap_catch_exception - see trap_catch.h.
 * Context: exception handler, interrupts off, possibly on an IST stack.
 * Steps:
 *  [1] take the innermost catch, return false if there is none;
 *  [2] record what happened, symbol of RIP included;
 *  [3] pop the catch (so the handler's report is "already disarmed");
 *  [4] give the code that armed it what IRETQ would have restored: the
 *      kernel SS (an IST switch loads a null SS, Intel SDM Vol. 3A
 *      6.14.4) and its interrupt flag (the gate cleared IF);
 *  [5] longjmp: RSP/RBP/RIP as at trap_try() time, in the arming frame.
 */
bool trap_catch_exception(const struct pt_regs *regs, u64 cr2)
{
	struct trap_catch *c = this_cpu_read(catch_top);	/* [1] */
	const char *name;

	if (!c)
		return false;
	c->vector = (int)regs->vector;			/* [2] */
	c->error_code = regs->error_code;
	c->cr2 = cr2;
	c->rip = regs->rip;
	name = ksym_lookup(regs->rip, NULL, NULL);
	strscpy(c->sym, name ? name : "", sizeof(c->sym));
	this_cpu_write(catch_top, c->prev);		/* [3] */
	__asm__ volatile("movl %0, %%ss" : : "r"(GDT_KERNEL_DS));	/* [4] */
	if (regs->rflags & X86_EFLAGS_IF)
		__asm__ volatile("sti" ::: "memory");
	arch_longjmp(&c->jb, 1);			/* [5] */
}
