/*
 * arch/x86_64/extable.c - the exception table: the instructions allowed
 * to fault on a user address (uaccess.asm) and where each resumes.  A
 * kernel-mode #PF or #GP at a listed RIP is not an oops: trap_dispatch
 * moves RIP to the fixup and returns, and the uaccess function returns
 * -EFAULT (or the bytes it did not copy).
 * Linux counterpart: arch/x86/mm/extable.c (fixup_exception),
 * kernel/extable.c (search_exception_tables; Linux sorts the table and
 * bisects, rtk's has five entries and is searched linearly).
 */
#include "arch/x86_64/extable.h"
#include "lib/compiler.h"

struct exception_table_entry {
	u64 insn;	/* address of the instruction that may fault */
	u64 fixup;	/* where to resume */
};

/* linker.ld: the __ex_table sections of every object, in .rodata */
extern const struct exception_table_entry __ex_table_start[], __ex_table_end[];

static u64 nr_fixups;

bool fixup_exception(struct pt_regs *regs)
{
	for (const struct exception_table_entry *e = __ex_table_start;
	     e < __ex_table_end; e++) {
		if (e->insn == regs->rip) {
			regs->rip = e->fixup;
			__atomic_fetch_add(&nr_fixups, 1, __ATOMIC_RELAXED);
			return true;
		}
	}
	return false;
}

unsigned long arch_uaccess_fixups(void)
{
	return __atomic_load_n(&nr_fixups, __ATOMIC_RELAXED);
}
