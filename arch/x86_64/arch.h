/*
 * arch/x86_64/arch.h - the machine contract: everything the portable
 * kernel (kernel/, lib/) may ask of the machine, and nothing more.
 *
 * As in 9front's port/ vs pc/ split, the portable code calls arch_*()
 * functions and never touches hardware.  A port to another machine
 * implements this header.  Each arch_*() is defined in the arch/x86_64
 * file named after the mechanism (bootinfo.c, setjmp.asm, ...).  The
 * last section is the other direction: the few portable-kernel
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
