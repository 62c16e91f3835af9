/*
 * arch/x86_64/user_thread.c - a user thread's machine state: its first
 * registers, its FS base (TLS), its data segment selectors and GS base,
 * and its FPU/SSE registers, switched with the thread.
 *
 * Selectors: ring 3 may load %ds %es %fs %gs with any selector it can
 * name (the user data and code descriptors, or null), and the kernel
 * never loads them itself after boot, so without a switch one thread's
 * values would show up in the next thread on the CPU.  Each is saved at
 * switch-out and loaded at switch-in, as Linux's __switch_to does
 * (save_fsgs, loadsegment, load_gs_index).  A selector load also sets
 * the segment's base from the descriptor, hence the order: %fs, then
 * MSR_FS_BASE; %gs, then the user GS base.  %gs is loaded between two
 * SWAPGS (load_gs_index below), since the live GS base is the kernel's
 * per-CPU area.  Every saved value came out of the CPU in ring 3 and
 * the GDT never changes, so loading it again in ring 0 cannot fault.
 *
 * FPU policy: eager FXSAVE/FXRSTOR of user threads at every switch.
 *  - Eager, not lazy (CR0.TS and a #NM trap at the first FPU use after a
 *    switch): the lazy scheme puts an extra trap, with its own latency,
 *    into the first floating-point instruction of a realtime loop after
 *    every switch, and it leaks the previous owner's registers under
 *    speculation (LazyFP, CVE-2018-3665; Linux went eager-only in 4.14).
 *  - FXSAVE, not XSAVE: rtk's user programs are built for the x86-64
 *    baseline (x87 + SSE2, user/user.mk), which is exactly FXSAVE's 512
 *    bytes; XSAVE would add AVX and later state that nothing here uses.
 *  - The kernel never touches the FPU: it is built with -mno-sse
 *    -mno-mmx (Makefile), so a user thread's registers stay live while it
 *    is in the kernel, and only a switch between two threads must move
 *    them.  Kernel threads are not saved or restored at all.
 * Why the kernel keeps its hands off (docs/user.md): kernel FPU use needs
 * preemption off for as long as the FPU is borrowed (the user state is
 * saved once and the registers are not switched), which is exactly the
 * kind of long non-preemptible section PREEMPT_RT removes (article, the
 * "Latency-reduction measures" section: the MMX/SSE point).
 * Spec: Intel SDM Vol. 1 10.5 (FXSAVE area), 13 (state management);
 * Vol. 3A 2.5 (CR0.MP/EM/TS, CR4.OSFXSR/OSXMMEXCPT).
 * Linux counterpart: arch/x86/kernel/fpu/core.c, fpu/init.c (fpstate
 * init values), process_64.c (__switch_to, save_fsgs, loadsegment,
 * x86_fsgsbase_load; start_thread), entry_64.S native_load_gs_index.
 */
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/syscall.h"
#include "kernel/percpu.h"
#include "lib/bug.h"
#include "lib/string.h"

/* FXSAVE image offsets (SDM Vol. 1 Table 10-2) and reset values. */
#define FXSAVE_FCW	0	/* x87 control word */
#define FXSAVE_MXCSR	24
#define FCW_DEFAULT	0x037F	/* all x87 exceptions masked, 64-bit */
#define MXCSR_DEFAULT	0x1F80	/* all SSE exceptions masked */

DECLARE_PER_CPU(unsigned long, cpu_entry_rsp0);

void fpu_init_cpu(void)
{
	u64 cr0 = read_cr0();

	BUG_ON(read_rflags() & X86_EFLAGS_IF);
	cr0 &= ~(X86_CR0_EM | X86_CR0_TS);
	cr0 |= X86_CR0_MP | X86_CR0_NE;
	__asm__ volatile("mov %0, %%cr0" : : "r"(cr0) : "memory");
	write_cr4(read_cr4() | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT);
	__asm__ volatile("fninit" ::: "memory");
}

static void fpu_init_state(struct arch_thread *t)
{
	u16 fcw = FCW_DEFAULT;
	u32 mxcsr = MXCSR_DEFAULT;

	memset(t->fxsave, 0, sizeof(t->fxsave));
	memcpy(&t->fxsave[FXSAVE_FCW], &fcw, sizeof(fcw));
	memcpy(&t->fxsave[FXSAVE_MXCSR], &mxcsr, sizeof(mxcsr));
}

static void fpu_save(struct arch_thread *t)
{
	__asm__ volatile("fxsave64 %0" : "=m"(t->fxsave));
}

static void fpu_restore(const struct arch_thread *t)
{
	__asm__ volatile("fxrstor64 %0" : : "m"(t->fxsave));
}

/* read_segments - the live %ds..%gs and user GS base into t: while a
 * user thread is in the kernel they are still its own.
 * Context: t's thread is current (clone) or being switched out, irqs
 * off or in its own system call. */
static void read_segments(struct arch_thread *t)
{
	__asm__ volatile("movw %%ds, %0" : "=m"(t->ds));
	__asm__ volatile("movw %%es, %0" : "=m"(t->es));
	__asm__ volatile("movw %%fs, %0" : "=m"(t->fsindex));
	__asm__ volatile("movw %%gs, %0" : "=m"(t->gsindex));
	t->gs_base = rdmsr(MSR_KERNEL_GS_BASE);
}

/*
 * load_gs_index - %gs = sel, keeping the kernel's GS base: SWAPGS puts
 * the user's base live, the load replaces it with sel's descriptor base
 * (the caller then writes the saved one), SWAPGS gives the kernel its
 * own back.  An NMI, #MC or #DB between the two finds a non-negative GS
 * base and swaps for itself (paranoid, trap_entry.asm).
 * Context: irqs off.  Linux counterpart: native_load_gs_index().
 */
static void load_gs_index(u16 sel)
{
	BUG_ON(!arch_irqs_disabled());
	__asm__ volatile("swapgs\n\t"
			 "movw %0, %%gs\n\t"
			 "swapgs"
			 : : "r"(sel) : "memory");
}

/*
 * load_segments - t's selectors and bases into the CPU.  %ds, %es and
 * %gs only when they differ from the live ones (a switch between two
 * threads that never touched them loads nothing, as Linux skips equal
 * ones); %fs always, as its base follows.
 * Context: the context switch or the first entry, irqs off.
 */
static void load_segments(const struct arch_thread *t)
{
	u16 ds, es, gs;

	BUG_ON(!arch_irqs_disabled());
	__asm__ volatile("movw %%ds, %0\n\t"
			 "movw %%es, %1\n\t"
			 "movw %%gs, %2"
			 : "=r"(ds), "=r"(es), "=r"(gs));
	if (ds != t->ds)
		__asm__ volatile("movw %0, %%ds" : : "r"(t->ds) : "memory");
	if (es != t->es)
		__asm__ volatile("movw %0, %%es" : : "r"(t->es) : "memory");
	__asm__ volatile("movw %0, %%fs" : : "r"(t->fsindex) : "memory");
	wrmsr(MSR_FS_BASE, t->fs_base);
	if (gs != t->gsindex)
		load_gs_index(t->gsindex);
	wrmsr(MSR_KERNEL_GS_BASE, t->gs_base);
}

unsigned long arch_elf_hwcap(void)
{
	struct cpuid_regs r;

	cpuid(1, &r);
	return r.edx;
}

void arch_thread_init_exec(struct arch_thread *t, unsigned long pc,
			   unsigned long sp)
{
	memset(&t->entry, 0, sizeof(t->entry));
	t->entry.rip = pc;
	t->entry.rsp = sp;
	t->entry.cs = GDT_USER_CS | 3;
	t->entry.ss = GDT_USER_DS | 3;
	t->entry.rflags = X86_EFLAGS_IF | 0x2;	/* bit 1 always reads 1 */
	t->fs_base = 0;
	t->gs_base = 0;
	t->ds = t->es = t->fsindex = t->gsindex = 0;	/* Linux's start_thread */
	fpu_init_state(t);
}

/* arch_thread_exec - see arch.h.  Irqs off from the reset to the loads:
 * a switch in between would save the old program's live registers over
 * the reset ones (arch_thread_switch saves whatever is live). */
void arch_thread_exec(struct arch_thread *t, unsigned long pc,
		      unsigned long sp)
{
	unsigned long flags = arch_local_irq_save();

	arch_thread_init_exec(t, pc, sp);
	fpu_restore(t);
	load_segments(t);
	arch_local_irq_restore(flags);
}

/* arch_thread_init_clone - see user_mode.h.  The parent is current and
 * in the kernel: its FPU registers, selectors and GS base are live (the
 * kernel uses none of them), so the child gets copies, as Linux's
 * copy_thread; with CLONE_SETTLS %fs is 0 and the base tls (Linux's
 * x86_fsbase_write_task). */
void arch_thread_init_clone(struct arch_thread *t, const struct pt_regs *regs,
			    unsigned long sp, bool set_tls, unsigned long tls)
{
	t->entry = *regs;
	t->entry.rax = 0;		/* the child's clone() returns 0 */
	if (sp)
		t->entry.rsp = sp;
	t->entry.vector = 0;
	t->entry.error_code = 0;
	read_segments(t);
	t->fs_base = set_tls ? tls : rdmsr(MSR_FS_BASE);
	if (set_tls)
		t->fsindex = 0;
	fpu_save(t);
}

/* arch_thread_switch - see user_mode.h.  Called for every switch; a
 * kernel thread passes NULL and is neither saved nor loaded. */
void arch_thread_switch(struct arch_thread *prev, struct arch_thread *next)
{
	BUG_ON(!arch_irqs_disabled());
	if (prev) {
		fpu_save(prev);
		read_segments(prev);
		prev->fs_base = rdmsr(MSR_FS_BASE);
	}
	if (next) {
		fpu_restore(next);
		load_segments(next);
	}
}

/* arch_thread_set_fs - see arch.h.  As Linux's ARCH_SET_FS, %fs becomes
 * 0 (a selector load afterwards would replace the base again).
 * Context: t is current's, task. */
void arch_thread_set_fs(struct arch_thread *t, unsigned long base)
{
	unsigned long flags;

	flags = arch_local_irq_save();
	t->fs_base = base;
	t->fsindex = 0;
	__asm__ volatile("movw %0, %%fs" : : "r"((u16)0) : "memory");
	wrmsr(MSR_FS_BASE, base);
	arch_local_irq_restore(flags);
}

unsigned long arch_thread_get_fs(const struct arch_thread *t)
{
	return t->fs_base;
}

/*
 * arch_thread_enter_user - see user_mode.h.
 * [1] interrupts off: from here to IRETQ nothing may switch us out with
 *     half a frame built;
 * [2] this thread's FPU, selectors and bases into the CPU (they may have
 *     been set after the switch that brought us here), before [3]: a
 *     signal frame built there saves the live FPU registers, and a
 *     switch inside [3] saves and reloads them;
 * [3] the return-to-user work (a kill, a signal -- delivered into
 *     t->entry --, a reschedule pending now);
 * [4] the frame at the stack top, IRETQ (syscall_entry.asm).
 */
void arch_thread_enter_user(struct arch_thread *t)
{
	arch_local_irq_disable();				/* [1] */
	fpu_restore(t);						/* [2] */
	load_segments(t);
	exit_to_user_mode_prepare(&t->entry);			/* [3] */
	user_enter_regs(&t->entry, this_cpu_read(cpu_entry_rsp0));	/* [4] */
}
