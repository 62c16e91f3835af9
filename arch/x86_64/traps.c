/*
 * arch/x86_64/traps.c - what happens on each CPU exception: the oops.
 *
 * trap_dispatch() is the C entry of every vector (trap_entry.asm builds
 * the struct pt_regs).  For exceptions it decides:
 *	NMI		a panic's stop (smp_stop_nmi), else "NMI received"; returns
 *	#BP (int3)	a trap: report "int3 at <sym>", return to the
 *			instruction after the int3
 *	#DB, kernel	a single step: TF cleared in the frame, counted,
 *			returns (do_debug_kernel); any other kernel #DB
 *			is fatal
 *	anything else	a fault or abort: print the oops; when a trap catch
 *			is armed (trap_catch.h) longjmp to it, otherwise
 *			panic("Fatal exception")
 * The oops names the vector, decodes the error code (#PF: present,
 * write, user, fetch), gives CR2 for #PF/#DF, all registers with RIP
 * symbolised, and a symbolised backtrace from the interrupted RBP.  A
 * fault address in a kernel stack's guard page (kstack_guard_hit(), in
 * kernel/mm/kstack.c, declared in arch.h's contract) is
 * reported as "kernel stack overflow".
 * Spec: Intel SDM Vol. 3A 6.15 (exception classes), 4.7 (#PF error code).
 * Linux counterpart: arch/x86/kernel/traps.c, arch/x86/mm/fault.c
 * (show_fault_oops), arch/x86/kernel/dumpstack.c (__die, show_regs).
 * From user mode (ring 3) an exception is no oops: it is the signal Linux
 * would send, to the faulting thread (force_sig_fault, kernel/user):
 * a handler may catch it; uncaught, one line names the process, the
 * exception, RIP and the address, and the process dies of it.
 * A kernel-mode #PF or #GP at a user-access instruction is fixed up
 * through the exception table (extable.c): -EFAULT, not an oops.
 * rtk leaves out die notifiers and oops-and-continue.
 */
#include "arch/x86_64/traps.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/stacktrace.h"
#include "arch/x86_64/trap_catch.h"
#include "arch/x86_64/extable.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/smap.h"
#include "kernel/ksyms.h"
#include "kernel/percpu.h"	/* NR_CPUS, raw_smp_processor_id */
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/bug.h"
#include "lib/compiler.h"
#include "lib/vsnprintf.h"
#include "kernel/user/uapi_signal.h"

unsigned long nmi_last_regs[NR_CPUS];
unsigned long debug_last_regs[NR_CPUS];
u64 debug_last_gs_base;

static u64 vector_count[IDT_ENTRIES];

static const struct {
	const char *name;
	const char *mnemonic;
} exception_names[FIRST_EXTERNAL_VECTOR] = {
	[X86_TRAP_DE] = { "divide error", "#DE" },
	[X86_TRAP_DB] = { "debug", "#DB" },
	[X86_TRAP_NMI] = { "non-maskable interrupt", "NMI" },
	[X86_TRAP_BP] = { "breakpoint", "#BP" },
	[X86_TRAP_OF] = { "overflow", "#OF" },
	[X86_TRAP_BR] = { "bound range exceeded", "#BR" },
	[X86_TRAP_UD] = { "invalid opcode", "#UD" },
	[X86_TRAP_NM] = { "device not available", "#NM" },
	[X86_TRAP_DF] = { "double fault", "#DF" },
	[X86_TRAP_OLD_MF] = { "coprocessor segment overrun", "" },
	[X86_TRAP_TS] = { "invalid TSS", "#TS" },
	[X86_TRAP_NP] = { "segment not present", "#NP" },
	[X86_TRAP_SS] = { "stack segment fault", "#SS" },
	[X86_TRAP_GP] = { "general protection fault", "#GP" },
	[X86_TRAP_PF] = { "page fault", "#PF" },
	[X86_TRAP_MF] = { "x87 floating-point error", "#MF" },
	[X86_TRAP_AC] = { "alignment check", "#AC" },
	[X86_TRAP_MC] = { "machine check", "#MC" },
	[X86_TRAP_XF] = { "SIMD floating-point exception", "#XM" },
	[X86_TRAP_VE] = { "virtualization exception", "#VE" },
	[X86_TRAP_CP] = { "control protection", "#CP" },
	[X86_TRAP_VC] = { "VMM communication", "#VC" },
};

const char *trap_vector_name(int vector)
{
	if (vector >= FIRST_EXTERNAL_VECTOR)
		return "interrupt";
	if (vector < 0 || !exception_names[vector].name)
		return "reserved exception";
	return exception_names[vector].name;
}

const char *trap_vector_mnemonic(int vector)
{
	if (vector < 0 || vector >= FIRST_EXTERNAL_VECTOR ||
	    !exception_names[vector].mnemonic)
		return "";
	return exception_names[vector].mnemonic;
}

u64 trap_count(int vector)
{
	if (vector < 0 || vector >= IDT_ENTRIES)
		return 0;
	return __atomic_load_n(&vector_count[vector], __ATOMIC_RELAXED);
}

/*
 * show_regs - see traps.h.  Same layout as arch_show_current_regs() (the
 * panic path), plus the trap frame's segment selectors.
 */
void show_regs(const struct pt_regs *regs)
{
	const struct {
		const char *name;
		u64 val;
	} gpr[] = {
		{ "RAX", regs->rax }, { "RBX", regs->rbx }, { "RCX", regs->rcx },
		{ "RDX", regs->rdx }, { "RSI", regs->rsi }, { "RDI", regs->rdi },
		{ "RBP", regs->rbp }, { "R08", regs->r8 },  { "R09", regs->r9 },
		{ "R10", regs->r10 }, { "R11", regs->r11 }, { "R12", regs->r12 },
		{ "R13", regs->r13 }, { "R14", regs->r14 }, { "R15", regs->r15 },
	};
	char sym[96];

	ksym_snprint(sym, sizeof(sym), regs->rip);
	printk(KERN_EMERG "RIP: %04lx:%016lx %s\n", (unsigned long)regs->cs,
	       (unsigned long)regs->rip, sym);
	printk(KERN_EMERG "RSP: %04lx:%016lx RFLAGS: %016lx\n",
	       (unsigned long)regs->ss, (unsigned long)regs->rsp,
	       (unsigned long)regs->rflags);
	for (size_t i = 0; i < ARRAY_SIZE(gpr); i += 3)	/* three a line */
		printk(KERN_EMERG "%s: %016lx %s: %016lx %s: %016lx\n",
		       gpr[i].name, (unsigned long)gpr[i].val,
		       gpr[i + 1].name, (unsigned long)gpr[i + 1].val,
		       gpr[i + 2].name, (unsigned long)gpr[i + 2].val);
	printk(KERN_EMERG "CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n",
	       (unsigned long)read_cr0(), (unsigned long)read_cr2(),
	       (unsigned long)read_cr3(), (unsigned long)read_cr4());
}

/* decode_error_code - the bracketed part of the oops' first line. */
static void decode_error_code(char *buf, size_t len, int vector, u64 code)
{
	buf[0] = '\0';
	if (vector == X86_TRAP_PF) {
		scnprintf(buf, len, " [%s %s %s%s%s%s]",
			  code & X86_PF_PROT ? "protection" : "not-present",
			  code & X86_PF_WRITE ? "write" : "read",
			  code & X86_PF_USER ? "user" : "kernel",
			  code & X86_PF_INSTR ? " instruction-fetch" : "",
			  code & X86_PF_RSVD ? " reserved-bit" : "",
			  code & X86_PF_PK ? " protection-key" : "");
		return;
	}
	/* Selector error code (Intel SDM Vol. 3A 6.13): bit 0 EXT (external
	 * event), bit 1 IDT, bit 2 TI (LDT, when not IDT), bits 3.. index. */
	if ((vector == X86_TRAP_GP || vector == X86_TRAP_TS ||
	     vector == X86_TRAP_NP || vector == X86_TRAP_SS) && code)
		scnprintf(buf, len, " [%s index %lu%s]",
			  code & 2 ? "IDT" : code & 4 ? "LDT" : "GDT",
			  (unsigned long)(code >> 3),
			  code & 1 ? " external" : "");
}

/*
 * show_oops - print the full report for an exception.
 * Context: exception, interrupts off.
 */
static void show_oops(const struct pt_regs *regs, u64 cr2)
{
	int v = (int)regs->vector;
	char decoded[96];

	decode_error_code(decoded, sizeof(decoded), v, regs->error_code);
	printk(KERN_EMERG "Oops: %s (%s) error_code=0x%lx%s\n",
	       trap_vector_name(v), trap_vector_mnemonic(v),
	       (unsigned long)regs->error_code, decoded);
	if (v == X86_TRAP_PF || v == X86_TRAP_DF)
		printk(KERN_EMERG "CR2: %016lx\n", (unsigned long)cr2);
	if ((v == X86_TRAP_PF || v == X86_TRAP_DF) && kstack_guard_hit(cr2))
		printk(KERN_EMERG "kernel stack overflow (guard page hit at %#lx)\n",
		       (unsigned long)cr2);
	show_regs(regs);
	arch_show_backtrace(regs->rbp);
	printk(KERN_EMERG "---[ end trace ]---\n");
}

/*
 * do_fatal_exception - a fault or abort in the kernel.
 * Context: exception, interrupts off.  Returns only by longjmp (a trap
 * catch) or not at all (panic).
 */
static __noreturn void do_fatal_exception(struct pt_regs *regs, u64 cr2)
{
	int was_oops = oops_in_progress;

	if (trap_catch_armed()) {
		printk(KERN_EMERG "-- expected oops begin --\n");
		show_oops(regs, cr2);
		printk(KERN_EMERG "-- expected oops end --\n");
		trap_catch_exception(regs, cr2);	/* does not return */
	}
	oops_in_progress = 1;
	show_oops(regs, cr2);
	oops_in_progress = was_oops;
	panic("Fatal exception");
}

/*
 * do_int3 - #BP is a trap: RIP already points past the one-byte int3, so
 * returning resumes the interrupted code.
 */
static void do_int3(struct pt_regs *regs)
{
	char sym[96];

	ksym_snprint(sym, sizeof(sym), regs->rip - 1);
	printk(KERN_WARNING "int3 at %s (rip %lx), continuing\n", sym,
	       (unsigned long)regs->rip - 1);
	show_regs(regs);
	arch_show_backtrace(regs->rbp);
	printk(KERN_WARNING "---[ end int3 ]---\n");
}

/* do_nmi - a panic's stop (smp_stop_nmi, never returns), or report the
 * NMI and go on.  Context: NMI, on the NMI IST stack, interrupts off. */
static void do_nmi(struct pt_regs *regs)
{
	char sym[96];

	WRITE_ONCE(nmi_last_regs[raw_smp_processor_id()], (unsigned long)regs);
	if (smp_stop_nmi(regs))
		return;
	ksym_snprint(sym, sizeof(sym), regs->rip);
	printk(KERN_WARNING "NMI received at %s, continuing\n", sym);
}

/*
 * do_debug_kernel - a #DB in ring 0, on the #DB IST stack, with the
 * kernel's GS (the paranoid entry made sure).  Nothing in rtk single-
 * steps the kernel (no kprobes, no kgdb), so a single step here is TF
 * leaking in - the CVE-2018-8897 path with a TF instead of a data
 * breakpoint, or a test: clear TF in the interrupted frame so IRETQ
 * resumes normally, record where it ran, say so once.  Linux does the
 * same in exc_debug_kernel (WARN_ON_ONCE(dr6 & DR_STEP), clear TF).
 * Returns false for any other cause (no debug register is ever armed):
 * the caller oopses.
 * Context: #DB, interrupts off, IST stack; must not sleep.
 */
static bool do_debug_kernel(struct pt_regs *regs, unsigned long dr6)
{
	static bool warned;
	char sym[96];

	if (!(dr6 & DR6_BS))
		return false;
	regs->rflags &= ~X86_EFLAGS_TF;
	WRITE_ONCE(debug_last_regs[raw_smp_processor_id()], (unsigned long)regs);
	WRITE_ONCE(debug_last_gs_base, rdmsr(MSR_GS_BASE));
	if (!READ_ONCE(warned)) {
		WRITE_ONCE(warned, true);
		ksym_snprint(sym, sizeof(sym), regs->rip);
		printk(KERN_WARNING "single-step #DB in kernel mode at %s: TF "
		       "cleared (reported once)\n", sym);
	}
	return true;
}

/* user_fault_signal - the signal Linux sends for vector v from ring 3
 * (arch/x86/kernel/traps.c). */
static int user_fault_signal(int v)
{
	switch (v) {
	case X86_TRAP_DE:
	case X86_TRAP_MF:
	case X86_TRAP_XF:
		return SIGFPE;
	case X86_TRAP_UD:
		return SIGILL;
	case X86_TRAP_DB:
	case X86_TRAP_BP:
		return SIGTRAP;
	case X86_TRAP_AC:
		return SIGBUS;
	default:
		return SIGSEGV;
	}
}

/* user_fault_code - si_code and si_addr of that signal, as Linux's
 * handlers fill them (do_trap, do_general_protection, do_user_addr_fault). */
static int user_fault_code(const struct pt_regs *regs, u64 cr2,
			   unsigned long *addr)
{
	*addr = regs->rip;
	switch (regs->vector) {
	case X86_TRAP_PF:
		*addr = cr2;
		return regs->error_code & X86_PF_PROT ? SEGV_ACCERR : SEGV_MAPERR;
	case X86_TRAP_DE:
		return FPE_INTDIV;
	case X86_TRAP_MF:
	case X86_TRAP_XF:
		return FPE_FLTINV;
	case X86_TRAP_UD:
		return ILL_ILLOPN;
	case X86_TRAP_DB:
	case X86_TRAP_BP:
		return TRAP_BRKPT;
	case X86_TRAP_AC:
		*addr = 0;
		return BUS_ADRALN;
	default:			/* #GP, #SS, #NP: no address */
		*addr = 0;
		return SI_KERNEL;
	}
}

/*
 * do_user_fault - an exception in ring 3: the signal Linux sends for it,
 * to the faulting thread (force_sig_fault, kernel/user/signal_deliver.c:
 * a caught SIGSEGV runs its handler, an uncaught or blocked one ends the
 * process with a one-line report), the fault recorded for the frame's
 * sigcontext (trapno, err, cr2); then the return to ring 3, which
 * delivers it.  Interrupts go on for the send (it takes sleeping locks).
 * Context: exception from user mode, irqs off, kernel GS, on the task's
 * kernel stack (TSS.RSP0, or moved there: [3a] of trap_entry.asm).
 */
static void do_user_fault(struct pt_regs *regs, u64 cr2)
{
	struct arch_thread *t = current_arch_thread();
	int v = (int)regs->vector;
	unsigned long addr;
	int code = user_fault_code(regs, cr2, &addr);
	char what[160];

	BUG_ON(!t);
	t->trap_nr = (u64)v;
	t->error_code = regs->error_code;
	t->cr2 = cr2;
	scnprintf(what, sizeof(what), "%s %s at rip %#lx%s%#lx error %#lx",
		  trap_vector_mnemonic(v), trap_vector_name(v),
		  (unsigned long)regs->rip,
		  v == X86_TRAP_PF ? " addr " : " rsp ",
		  v == X86_TRAP_PF ? (unsigned long)cr2 : (unsigned long)regs->rsp,
		  (unsigned long)regs->error_code);
	arch_local_irq_enable();
	force_sig_fault(user_fault_signal(v), code, addr, what);
	arch_local_irq_disable();
	exit_to_user_mode_prepare(regs);
}

/*
 * trap_dispatch - see traps.h.
 * Context: called by trap_common only, interrupts off (interrupt gates),
 * on the interrupted stack or the vector's IST stack.
 */
void trap_dispatch(struct pt_regs *regs)
{
	int v = (int)regs->vector;
	u64 cr2 = 0;

	BUILD_BUG_ON(sizeof(struct pt_regs) != PT_REGS_SIZE);
	/* CR2 first: a fault inside the report would overwrite it. */
	if (v == X86_TRAP_PF || v == X86_TRAP_DF)
		cr2 = read_cr2();
	entry_check_ac();
	BUG_ON(read_rflags() & X86_EFLAGS_IF);
	__atomic_fetch_add(&vector_count[v & 0xFF], 1, __ATOMIC_RELAXED);

	if (v >= FIRST_EXTERNAL_VECTOR) {
		arch_handle_irq(regs);	/* irq_enter/exit, IRQ stack */
		if (user_mode(regs))
			exit_to_user_mode_prepare(regs);	/* tick: preempts
								 * user, signals */
		return;
	}
	if (v == X86_TRAP_NMI) {
		do_nmi(regs);
		return;
	}
	if (v == X86_TRAP_DB) {
		unsigned long dr6 = read_dr6();

		write_dr6(DR6_RESERVED);	/* the CPU never clears it */
		if (!user_mode(regs) && do_debug_kernel(regs, dr6))
			return;
	}
	if (user_mode(regs) && v != X86_TRAP_MC) {
		do_user_fault(regs, cr2);
		return;
	}
	if ((v == X86_TRAP_PF || v == X86_TRAP_GP) && fixup_exception(regs))
		return;		/* a user access: the caller gets -EFAULT */
	switch (v) {
	case X86_TRAP_BP:
		do_int3(regs);
		return;
	default:
		do_fatal_exception(regs, cr2);
	}
}
