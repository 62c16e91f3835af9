/*
 * arch/x86_64/arch.h - the machine contract: everything the portable
 * kernel (kernel/, lib/) may ask of the machine, and nothing more, as one
 * list (9front's pc/fns.h is the model).
 *
 * As in 9front's port/ vs pc/ split, the portable code calls arch_*()
 * functions and never touches hardware (make check-arch).  A port to
 * another machine implements this header.  Each arch_*() is declared
 * below, grouped by mechanism, and defined in the arch/x86_64 file the
 * group names.  The few that must be inline live beside their machine
 * code, in the headers included here, and are listed in this table so
 * that the whole contract reads in one place:
 *
 *	interrupt flag (irqflags_hw.h)	arch_local_irq_disable/enable/save/
 *					restore, arch_local_save_flags,
 *					arch_irqs_disabled(_flags)
 *	per-CPU data (percpu_hw.h)	arch_this_cpu_read/write/add,
 *					arch_percpu_get_base
 *	lines (irq_chip.h)		arch_irq_is_percpu
 *	firmware (acpi.h)		arch_acpi_info
 *	the switch (switch.h)		arch_switched_frame_pointer
 *	idle and halt (below)		arch_wait_for_interrupt, arch_idle,
 *					arch_cpu_relax, arch_halt_forever,
 *					arch_frame_pointer
 *
 * The last section is the other direction: the few portable-kernel
 * functions the machine code calls (an AP's entry into the scheduler,
 * the stack-overflow check of the fault handler).
 */
#ifndef ARCH_X86_64_ARCH_H
#define ARCH_X86_64_ARCH_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "arch/x86_64/irqflags_hw.h"	/* arch_local_irq_*, ARCH_IRQ_ENABLED */
#include "arch/x86_64/mmu.h"	/* arch_map_page, MAP_WRITE, ... */
#include "arch/x86_64/acpi.h"	/* acpi_init: firmware tables */
#include "arch/x86_64/percpu_hw.h"	/* GS-based per-CPU accessors */
#include "arch/x86_64/ipi.h"	/* arch_send_reschedule, ... */
#include "arch/x86_64/smpboot.h"	/* smp_boot_cpus */
#include "arch/x86_64/irq_chip.h"	/* arch_irq_mask, ... (request_irq) */
#include "arch/x86_64/tsc.h"	/* arch_cycles, arch_clock_cycles, ... */
#include "arch/x86_64/stacktrace.h"	/* arch_show_backtrace (oops, panic) */
#include "arch/x86_64/switch.h"	/* arch_context_switch, stack set-up */
#include "arch/x86_64/user_mode.h"	/* user page tables, uaccess, entry */
#include "arch/x86_64/idt.h"	/* irq_vector_handler_t */

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))

/* Virtual layout (see boot/entry.asm and kernel/mm). */
#define KERNEL_VMA 0xFFFFFFFF80000000UL /* kernel image, -mcmodel=kernel */
#define DIRECT_MAP_BASE 0xFFFF800000000000UL /* all RAM, phys + base */
#define BOOT_MAP_END (4ULL << 30) /* what boot/entry.asm's direct map covers */

static inline void *phys_to_virt(u64 phys)
{
	return (void *)(uintptr_t)(phys + DIRECT_MAP_BASE);
}

/* virt_to_phys - for direct-map and kernel-image addresses only. */
static inline u64 virt_to_phys(const void *virt)
{
	uintptr_t v = (uintptr_t)virt;

	if (v >= KERNEL_VMA)
		return v - KERNEL_VMA;
	return v - DIRECT_MAP_BASE;
}

/* ---- boot information, filled from Multiboot1/2 by bootinfo.c ---- */

#define BOOT_MMAP_MAX 128

enum boot_mem_type {
	BOOT_MEM_USABLE = 1,
	BOOT_MEM_RESERVED = 2,
	BOOT_MEM_ACPI_RECLAIM = 3,
	BOOT_MEM_ACPI_NVS = 4,
	BOOT_MEM_BAD = 5,
};

struct boot_mem_region {
	u64 base;	/* physical start */
	u64 len;	/* bytes */
	u32 type;	/* enum boot_mem_type */
};

struct boot_module {
	u64 start, end;	/* physical [start, end) */
};

struct boot_info {
	const char *loader;		/* "multiboot1" or "multiboot2" */
	char cmdline[512];		/* copied: the original may be reused */
	int nr_mmap;
	struct boot_mem_region mmap[BOOT_MMAP_MAX];
	int nr_modules;
	struct boot_module modules[8];
	u64 info_phys, info_len;	/* the loader's info block (reserved) */
	u64 rsdp_phys;			/* 0: not given, scan the BIOS areas */
	bool rsdp_copied;		/* rsdp[] holds a copy from an MB2 tag */
	u8 rsdp[64];
	bool has_framebuffer;
	u64 fb_addr;
	u32 fb_width, fb_height, fb_pitch;
	u8 fb_bpp, fb_type;		/* fb_type 1: RGB, 2: EGA text mode */
	/* fb_type 1 only: bit position and width of each colour field */
	u8 fb_red_pos, fb_red_size, fb_green_pos, fb_green_size;
	u8 fb_blue_pos, fb_blue_size;
};

extern struct boot_info boot_info;

/* arch_boot_parse - fill boot_info from the loader's magic and info block.
 * Returns 0 or -EINVAL for an unknown loader. */
int arch_boot_parse(u32 magic, u64 info_phys);

/* ---- setjmp/longjmp (ktest: a failing assertion ends only its test) */

struct arch_jmp_buf {
	unsigned long rbx, rbp, r12, r13, r14, r15, rsp, rip;
};

int arch_setjmp(struct arch_jmp_buf *buf) __attribute__((returns_twice));
void arch_longjmp(struct arch_jmp_buf *buf, int val) __noreturn;

/* ---- CPU set-up ---- */

/* arch_cpu_init - load the boot CPU's own GDT, TSS (IST stacks for NMI,
 * #DF, #MC) and the IDT, so exceptions print an oops from then on.
 * Context: boot CPU, once, interrupts off (arch/x86_64/cpu_init.c). */
void arch_cpu_init(void);

/* ---- interrupts and time (arch/x86_64/irq.c, clocksource.c,
 * lapic_timer.c) ---- */

/* arch_irq_init - interrupt controllers up: 8259 remapped and masked,
 * this CPU's local APIC, the IOAPICs (all masked), the LAPIC timer
 * calibrated, COM1's receive interrupt routed.  Interrupts stay off.
 * Context: boot CPU, once, after mm_init and percpu_init_bsp. */
void arch_irq_init(void);

/* arch_irq_vector_name - what a vector carries, for `irqs`. */
const char *arch_irq_vector_name(int vector);

/* arch_time_init - calibrate the cycle counter (TSC) against the best
 * reference (HPET, ACPI PM timer, PIT), print which; returns its Hz, 0
 * if no reference worked.  Context: boot CPU, once, after acpi_init. */
u64 arch_time_init(void);

/* arch_timer_init_cpu - set up this CPU's one-shot timer (unarmed).
 * Context: each CPU, interrupts off (kernel/time/tick.c). */
void arch_timer_init_cpu(void);

/* arch_timer_set_oneshot - one timer interrupt on this CPU at ktime
 * deadline_ns (at once if past); replaces any earlier setting.
 * Context: interrupts off. */
void arch_timer_set_oneshot(u64 deadline_ns);

/* arch_wait_for_interrupt - idle this CPU until the next interrupt (HLT
 * with interrupts on); just a PAUSE when interrupts are off, since HLT
 * would then never return. */
static inline void arch_wait_for_interrupt(void)
{
	if (arch_irqs_disabled())
		cpu_relax();
	else
		halt();
}

/*
 * arch_idle - with interrupts off on entry: enable them and halt until
 * the next interrupt, as one step.  STI's one-instruction shadow keeps
 * an interrupt from landing between STI and HLT (its wakeup would be
 * consumed and the CPU would sleep on); interrupts are on at return.
 * No irqs-on hook runs (the caller closes its irqs-off timing first).
 * Context: the idle task, interrupts off.
 */
static inline void arch_idle(void)
{
	__asm__ volatile("sti; hlt" ::: "memory");
}

/* ---- misc ---- */

static inline void arch_cpu_relax(void)
{
	cpu_relax();
}

/* arch_halt_forever - stop this CPU for good, interrupts off. */
static inline __noreturn void arch_halt_forever(void)
{
	for (;;) {
		arch_local_irq_disable();
		halt();
	}
}

/* arch_frame_pointer - this function's caller's frame, for backtraces. */
#define arch_frame_pointer() ((unsigned long)__builtin_frame_address(0))

/* arch_poweroff / arch_reboot - never return; try every method known. */
void arch_poweroff(void) __noreturn;
void arch_reboot(void) __noreturn;

/* ---- the context switch (switch.asm) ---- */

/*
 * arch_context_switch - save the callee-saved registers and rbp on this
 * stack, store RSP in *prev_sp_slot, continue on next_sp.  Returns (on
 * the incoming task, when it is switched back to later or starts) the
 * prev argument given by the switch that resumed it.
 * Context: the scheduler, interrupts off, run-queue lock held.
 */
void *arch_context_switch(unsigned long *prev_sp_slot, unsigned long next_sp,
			  void *prev);

/*
 * arch_task_stack_init - prepare a new task's stack so the first
 * arch_context_switch to the returned RSP runs, on that stack,
 * schedule_tail(prev); ret = entry(arg); task_exit(ret).
 * Context: any; only writes the new stack.
 */
unsigned long arch_task_stack_init(void *stack_top, int (*entry)(void *arg),
				   void *arg);

/* ---- running on another stack (stack_switch.asm) ---- */

/* arch_call_on_stack - call fn(arg) with RSP at stack_top (rounded down
 * to 16 bytes), then return on the caller's stack.
 * Context: any; interrupts taken meanwhile run on the new stack. */
void arch_call_on_stack(void *stack_top, void (*fn)(void *arg), void *arg);

/* ---- kernel page tables (mmu.c) ---- */

/* arch_mmu_init - build and load the kernel page tables (see above);
 * after it the boot identity map is gone.  Context: boot CPU, once,
 * after pmm_init. */
void arch_mmu_init(void);

/*
 * arch_map_page - map the 4 KiB page at virt (kernel half, outside the
 * direct map) to phys with MAP_* flags.  Returns 0, -EEXIST when virt is
 * already mapped, -EINVAL for a bad address, -ENOMEM when a page table
 * could not be allocated.
 * Context: any; never sleeps.
 */
int arch_map_page(unsigned long virt, u64 phys, unsigned int flags);

/* arch_unmap_range - the same for the n pages from virt, with a single
 * shootdown; returns how many were mapped (and are now unmapped), or
 * -EINVAL.  Context: as arch_unmap_page(). */
int arch_unmap_range(unsigned long virt, unsigned int n);

/* arch_query_page - is virt mapped?  0 with *phys (of virt itself) and
 * *flags (MAP_*) filled in, or -ENOENT.  Either pointer may be NULL. */
int arch_query_page(unsigned long virt, u64 *phys, unsigned int *flags);

/* arch_mmu_count_wx - kernel-half pages both writable and executable
 * (W^X: 0 whenever the CPU has NX).  Walks every table: for tests. */
unsigned long arch_mmu_count_wx(void);

/* arch_mmu_has_nx - does the CPU enforce no-execute (EFER.NXE)? */
bool arch_mmu_has_nx(void);

/* ---- user page tables (mmu_user.c).  The caller holds the mm's lock. */

/* arch_pgd_alloc - a new PML4 sharing the kernel half; 0 when out of
 * memory.  Context: task. */
u64 arch_pgd_alloc(void);
/* arch_pgd_free - free pgd and its user-half tables (not the pages they
 * map: arch_user_unmap_all first).  Nobody may run on it any more. */
void arch_pgd_free(u64 pgd);
/* arch_map_user_page - map phys at user address virt with MAP_WRITE /
 * MAP_EXEC (never both: -EACCES).  0, -EINVAL, -EEXIST or -ENOMEM. */
int arch_map_user_page(u64 pgd, unsigned long virt, u64 phys,
		       unsigned int flags);
/* arch_unmap_user_page - clear virt's entry; the page it mapped in *phys
 * (the caller flushes with arch_flush_user_range, then frees it).
 * -ENOENT when nothing was mapped. */
int arch_unmap_user_page(u64 pgd, unsigned long virt, u64 *phys);
/* arch_user_unmap_all - unmap everything in the user half and free the
 * pages that are the mapping's own (not MAP_PAGE_BORROWED ones); returns
 * how many it freed.  Only when no thread runs in it any more
 * (exit_mmap). */
unsigned long arch_user_unmap_all(u64 pgd);
/* arch_user_next_mapped - the lowest mapped page in [start, end), or end:
 * skips whole absent tables, so a sparse 128 TiB range costs a few steps
 * (munmap of a huge range, MAP_FIXED over one). */
unsigned long arch_user_next_mapped(u64 pgd, unsigned long start,
				   unsigned long end);
/* arch_protect_user_page - give virt's present entry the MAP_* flags
 * (MAP_WRITE, MAP_EXEC, MAP_PAGE_*), same page; the
 * caller flushes.  0, -EINVAL, -EACCES (W+X), -ENOENT (not mapped). */
int arch_protect_user_page(u64 pgd, unsigned long virt, unsigned int flags);
/* arch_query_user_page - is virt mapped?  0 with *phys, *flags (all the
 * MAP_* flags above), or -ENOENT. */
int arch_query_user_page(u64 pgd, unsigned long virt, u64 *phys,
			 unsigned int *flags);
/* arch_flush_user_range - drop [start, end) from every CPU's TLB.
 * Context: task, not hardirq. */
void arch_flush_user_range(unsigned long start, unsigned long end);
/* arch_switch_mm - run on pgd from now on (CR3 load when it differs).
 * Context: the context switch, interrupts off. */
void arch_switch_mm(u64 pgd);

/* ---- user memory access (uaccess.asm).  The address range is checked
 * by the caller (kernel/user/uaccess.h access_ok); a page fault in here
 * is fixed up through the exception table (extable.c) and reported. */

/* arch_copy_from_user / arch_copy_to_user - return the bytes NOT copied
 * (0 = all), as Linux's raw_copy_*_user. */
unsigned long arch_copy_from_user(void *to, const void __user *from,
				  unsigned long n);
unsigned long arch_copy_to_user(void __user *to, const void *from,
				unsigned long n);
/* arch_get_user_u32 / arch_put_user_u32 - 0 or -EFAULT. */
int arch_get_user_u32(u32 *val, const u32 __user *uaddr);
int arch_put_user_u32(u32 val, u32 __user *uaddr);
/*
 * arch_futex_atomic_cmpxchg_inatomic - atomically: if *uaddr == oldval
 * store newval; the value found goes to *uval either way.  0 or -EFAULT.
 * Never sleeps (may run with preemption off).  Part of the futex code's
 * contract (kernel/futex/, see kernel/user/uaccess.h).
 * Linux counterpart: futex_atomic_cmpxchg_inatomic().
 */
int arch_futex_atomic_cmpxchg_inatomic(u32 *uval, u32 __user *uaddr,
				       u32 oldval, u32 newval);
/* arch_uaccess_fixups - faults fixed up so far (for tests). */
unsigned long arch_uaccess_fixups(void);

/* arch_thread_init_exec - first entry at pc with stack sp, all other
 * registers 0, FPU in its reset state (FCW 0x37f, MXCSR 0x1f80). */
void arch_thread_init_exec(struct arch_thread *t, unsigned long pc,
			   unsigned long sp);
/* arch_thread_exec - execve's registers for current's own thread t: as
 * arch_thread_init_exec, and made live on this CPU at once (FPU, FS/GS
 * bases, selectors), so that a switch before the way out to ring 3
 * saves these and not the old program's.  Context: t is current's,
 * task. */
void arch_thread_exec(struct arch_thread *t, unsigned long pc,
		      unsigned long sp);
/* arch_thread_init_clone - a clone's child: the parent's registers from
 * the system call (regs) and its FPU state, return value 0, stack sp
 * (0: the parent's), FS base tls when set_tls.  Context: the parent. */
void arch_thread_init_clone(struct arch_thread *t, const struct pt_regs *regs,
			    unsigned long sp, bool set_tls, unsigned long tls);
/* arch_thread_switch - save prev's user state (if prev is a user thread)
 * and load next's (if next is).  Eager: every switch, see user_thread.c.
 * Context: the context switch, interrupts off. */
void arch_thread_switch(struct arch_thread *prev, struct arch_thread *next);
/* arch_thread_set_fs / arch_thread_get_fs - arch_prctl(ARCH_SET_FS). */
void arch_thread_set_fs(struct arch_thread *t, unsigned long base);
unsigned long arch_thread_get_fs(const struct arch_thread *t);
/* arch_elf_hwcap - the AT_HWCAP word of a new program's auxv: CPUID.1:EDX,
 * as Linux's x86_64 ELF_HWCAP (boot_cpu_data's first capability word).
 * Context: any. */
unsigned long arch_elf_hwcap(void);
/* arch_thread_enter_user - leave the kernel into user mode with t's
 * first-entry registers (on this task's stack top; the kernel frames of
 * the caller are dropped).  Runs exit_to_user_mode_prepare() first.
 * Context: current's own user thread, task, irqs on. */
__noreturn void arch_thread_enter_user(struct arch_thread *t);
/* arch_set_kernel_stack - the stack a ring 3 -> 0 switch lands on (TSS
 * RSP0 and the SYSCALL entry's stack) for CPU cpu, this CPU.
 * Context: the context switch, interrupts off. */
void arch_set_kernel_stack(int cpu, unsigned long top);

/* ---- inter-processor interrupts (ipi.c) ---- */

/* arch_send_call_function_ipi / _single_ipi - kick cpu to run its
 * call-function queue (CALL_FUNCTION_VECTOR / CALL_FUNCTION_SINGLE_VECTOR).
 * Context: any. */
void arch_send_call_function_ipi(int cpu);
void arch_send_call_function_single_ipi(int cpu);

/* arch_send_reschedule - RESCHEDULE_VECTOR to cpu.  Context: any. */
void arch_send_reschedule(int cpu);

/*
 * arch_smp_init_ipis - install the IPI vector handlers.
 * Context: boot CPU, once, before the first AP starts.
 */
void arch_smp_init_ipis(void);

/*
 * arch_stop_other_cpus - NMI every other online CPU; each prints
 * "CPU n: stopped by panic" and its backtrace and halts with interrupts
 * off for good.  Waits (bounded) for their reports.  An NMI gets through
 * even to a CPU spinning with interrupts off.
 * Context: the panicking CPU, interrupts off.
 */
void arch_stop_other_cpus(void);

/* ---- the interrupt stack (irq.c) ---- */

/* arch_handle_irq - run the handler of regs->vector inside irq_enter()/
 * irq_exit(), counted per CPU, on this CPU's IRQ stack.
 * Context: hardirq, interrupts off; called by trap_dispatch only. */
void arch_handle_irq(struct pt_regs *regs);

/* ---- vectors (idt.c) ---- */

/*
 * arch_set_irq_handler - make fn the handler of vector (32..255); NULL
 * removes it.  The handler runs with interrupts off on the interrupted
 * stack and must acknowledge (EOI) its controller itself.
 * Returns 0, -EINVAL for a vector outside 32..255, -EBUSY when another
 * handler is already installed (remove it first).
 * Context: any; the store is atomic, a racing interrupt sees the old or
 * the new handler.
 */
int arch_set_irq_handler(int vector, irq_vector_handler_t fn);

/* ---- interrupt lines: the IOAPIC, the 8259 and software lines (irq_chip.c) ---- */

/* arch_irq_startup - install the vector entry for irq (it calls
 * generic_handle_irq(irq), kernel/irq/irqdesc.h, or handle_percpu_irq
 * for the per-CPU line) and route an ISA line to the boot CPU, masked.  Returns 0, -EINVAL for a bad irq, -ENODEV when
 * no IOAPIC serves an ISA line, -EBUSY when the vector is taken.
 * Context: task or boot.  Locking: the caller holds the descriptor. */
int arch_irq_startup(unsigned int irq);

/* arch_irq_shutdown - mask irq and remove its vector entry. */
void arch_irq_shutdown(unsigned int irq);

/* arch_irq_mask / arch_irq_unmask - stop / resume delivery of the line.
 * Context: any, never sleeps. */
void arch_irq_mask(unsigned int irq);
void arch_irq_unmask(unsigned int irq);

/* arch_irq_ack - end of interrupt at the local APIC for the vector now
 * in service.  Context: hardirq, interrupts off, once per interrupt. */
void arch_irq_ack(void);

/* arch_irq_is_level - is the line level-triggered (MADT override)? */
bool arch_irq_is_level(unsigned int irq);

/* arch_irq_retrigger - raise irq once more in software (a self-IPI on
 * its vector): the replay of an interrupt that came while disabled, and
 * the tests' way to fire a line.  Context: any. */
void arch_irq_retrigger(unsigned int irq);

/* arch_irq_is_masked - is the line masked at the chip?  ISA lines and
 * ARCH_TEST_LEVEL_IRQ; the other software lines cannot be masked (false).
 * Context: any. */
bool arch_irq_is_masked(unsigned int irq);

/* arch_irq_to_vector - the IDT vector of line irq. */
int arch_irq_to_vector(unsigned int irq);

/* ---- the cycle counter (tsc.c) ---- */

/* arch_slow_delay_us - roughly us microseconds without a calibrated
 * clock (port 0x80 accesses take about 1 us on PC hardware). */
void arch_slow_delay_us(unsigned long us);

/* ---- backtraces (stacktrace.c) ---- */

/* arch_show_backtrace - print "Call Trace:" and one symbolised line per
 * frame, walking the RBP chain from rbp (frame pointers are kept in every
 * rtk build).  Context: any; reads only addresses that look like kernel
 * stack and stops at the first implausible frame. */
void arch_show_backtrace(unsigned long rbp);

/* arch_save_stack_trace - store up to max return addresses walking the
 * frame chain from rbp; returns the count (the rest of trace is 0).
 * Context: any. */
int arch_save_stack_trace(unsigned long rbp, unsigned long *trace, int max);

/* arch_show_current_regs - print this CPU's registers as the caller sees
 * them (for panic(), which has no trap frame). */
void arch_show_current_regs(void);

struct seq_buf;
/* arch_show_cpuinfo - /proc/cpuinfo in Linux's x86 format, one block
 * per online CPU (arch/x86_64/cpuinfo.c).  Context: task. */
void arch_show_cpuinfo(struct seq_buf *m);

/*
 * ---- the contract's other direction: portable-kernel functions the
 * machine code calls.  Each has exactly one definition, in the kernel
 * file named; the arch calls it directly (no weak defaults). ----
 */

/* cpu_startup_entry - an AP's last step of bring-up (smpboot.c
 * ap_start): its boot stack becomes its idle task's, and it idles until
 * there is work.  Defined in kernel/sched/idle.c.
 * Context: the AP, online, interrupts off; never returns. */
void cpu_startup_entry(int cpu) __noreturn;

/* idle_init - cpu's idle task, made its run queue's current task before
 * the AP is started (smpboot.c boot_ap, before the INIT/SIPI): a wake-up
 * may reach the AP's run queue as soon as it is online.  Defined in
 * kernel/sched/idle.c.  Context: boot CPU, once per AP. */
void idle_init(int cpu);

/* kstack_guard_hit - is addr in the unmapped guard page below a live
 * kernel stack?  The #PF/#DF oops (traps.c) then says "kernel stack
 * overflow".  Defined in kernel/mm/kstack.c.
 * Context: any, including #DF on its IST stack: must not fault, sleep or
 * take a lock (reads one bitmap word). */
bool kstack_guard_hit(u64 addr);

#endif /* ARCH_X86_64_ARCH_H */
