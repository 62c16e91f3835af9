/*
 * arch/x86_64/idt.c - the IDT (256 interrupt gates) and the table of
 * handlers for vectors 32..255.
 *
 * Every gate is an interrupt gate (type 0xE), so IF is clear on entry to
 * every handler, exceptions included: a handler runs until it returns
 * without being interrupted on its own CPU, as Linux does.  NMI, #DF,
 * #MC and #DB carry an IST index so they always start on a known good
 * stack (arch/x86_64/gdt.h; #DB because it can hit the first instruction
 * of the SYSCALL entry, on the user's RSP: trap_entry.asm); the rest run
 * on the interrupted stack (the
 * per-CPU interrupt stack comes with the interrupt core, issue 3).
 * Linux counterpart: arch/x86/kernel/idt.c (idt_setup_traps, set_intr_gate),
 * arch/x86/kernel/irq.c (the vector_irq table behind common_interrupt).
 */
#include "arch/x86_64/idt.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/traps.h"
#include "kernel/printk.h"
#include "lib/bug.h"
#include "lib/compiler.h"
#include "lib/errno.h"

/* 64-bit gate descriptor, Intel SDM Vol. 3A Figure 6-8. */
struct idt_gate {
	u16 offset_low;
	u16 selector;
	u8 ist;			/* bits 0..2: IST index, 0 = no switch */
	u8 type_attr;		/* P, DPL, type */
	u16 offset_mid;
	u32 offset_high;
	u32 reserved;
} __packed;

struct idt_ptr {
	u16 limit;
	u64 base;
} __packed;

#define GATE_INTERRUPT 0x8E	/* P=1, DPL=0, type 0xE: 64-bit interrupt gate */
#define GATE_DPL3 0x60		/* DPL=3: INT n from ring 3 allowed */

/* Written once by idt_init() before any CPU loads it, then read-only. */
static struct idt_gate idt[IDT_ENTRIES] __aligned(16);

/* Handlers for vectors 32..255 (slots 0..31 stay NULL); read in hardirq
 * context with READ_ONCE, written with WRITE_ONCE/cmpxchg. */
static irq_vector_handler_t vector_handler[IDT_ENTRIES];

static u64 unexpected_count;
static u64 unexpected_per_vector[IDT_ENTRIES];

/* The entry stubs, TRAP_STUB_SIZE bytes apart (trap_entry.asm). */
extern const u8 trap_stubs[];

static void set_gate(int vector, unsigned long handler, int ist)
{
	struct idt_gate *g = &idt[vector];

	g->offset_low = handler & 0xFFFF;
	g->selector = GDT_KERNEL_CS;
	g->ist = ist & 7;
	g->type_attr = GATE_INTERRUPT;
	g->offset_mid = (handler >> 16) & 0xFFFF;
	g->offset_high = handler >> 32;
	g->reserved = 0;
}

void idt_load(void)
{
	struct idt_ptr ptr = {
		.limit = sizeof(idt) - 1,
		.base = (u64)(uintptr_t)idt,
	};

	__asm__ volatile("lidt %0" : : "m"(ptr) : "memory");
}

/*
 * idt_init - see idt.h.
 * Context: boot CPU, interrupts off, once.
 */
void idt_init(void)
{
	BUG_ON(read_rflags() & X86_EFLAGS_IF);
	BUILD_BUG_ON(sizeof(struct idt_gate) != 16);

	for (int v = 0; v < IDT_ENTRIES; v++)
		set_gate(v, (unsigned long)trap_stubs + v * TRAP_STUB_SIZE, 0);
	idt[X86_TRAP_DF].ist = IST_DOUBLE_FAULT;
	idt[X86_TRAP_NMI].ist = IST_NMI;
	idt[X86_TRAP_MC].ist = IST_MACHINE_CHECK;
	idt[X86_TRAP_DB].ist = IST_DEBUG;
	/* int3 and into from ring 3 reach their handlers (#BP: SIGTRAP),
	 * as in Linux; every other vector is #GP for an INT n from ring 3
	 * (SDM Vol. 3A 6.12.1.1) */
	idt[X86_TRAP_BP].type_attr |= GATE_DPL3;
	idt[X86_TRAP_OF].type_attr |= GATE_DPL3;
	idt_load();
}

/*
 * arch_set_irq_handler - see idt.h.
 * Context: any.  Locking: none; one compare-and-swap per change, so two
 * drivers racing for a vector cannot both win.
 */
int arch_set_irq_handler(int vector, irq_vector_handler_t fn)
{
	irq_vector_handler_t old;

	if (vector < FIRST_EXTERNAL_VECTOR || vector >= IDT_ENTRIES)
		return -EINVAL;
	if (!fn) {
		WRITE_ONCE(vector_handler[vector], NULL);
		return 0;
	}
	old = NULL;
	if (__atomic_compare_exchange_n(&vector_handler[vector], &old, fn,
					false, __ATOMIC_RELEASE,
					__ATOMIC_RELAXED))
		return 0;
	return old == fn ? 0 : -EBUSY;
}

/* Warnings printed per vector before going quiet: a stuck level-
 * triggered line would otherwise flood the console; the count goes on. */
#define UNEXPECTED_WARN_LIMIT 4

/*
 * irq_vector_dispatch - see idt.h.  free_irq() cannot keep an interrupt
 * the local APIC already accepted from arriving after the handler is
 * gone; without a handler nobody else writes its EOI:
 *
 *	CPU0 (ISA destination)		CPU1
 *	interrupts off
 *	IOAPIC delivers RTC vector 0x28:
 *	  IRR					rtc_stop -> free_irq(8):
 *						  mask pin 8 (too late)
 *						  synchronize_irq: not running
 *						  arch_irq_shutdown: no handler
 *	interrupts on: 0x28 taken, ISR set
 *	no handler: "unexpected", (was) no
 *	EOI: PPR class 2 for good, COM1's
 *	0x24 never delivered again
 *
 * tests/kernel/test_irq_free.c forces it through request_irq/free_irq
 * on software lines (two CPUs); test_exceptions.c's
 * test_unexpected_lapic_vector_is_acknowledged on one.  The ISR bit is
 * checked first: a software `int` on an empty vector sets none, and an
 * EOI would end someone else's.
 * Context: hardirq, interrupts off.
 */
void irq_vector_dispatch(struct pt_regs *regs)
{
	int v = (int)regs->vector;
	irq_vector_handler_t fn;
	u64 n;

	BUG_ON(v < FIRST_EXTERNAL_VECTOR || v >= IDT_ENTRIES);
	fn = __atomic_load_n(&vector_handler[v], __ATOMIC_ACQUIRE);
	if (likely(fn)) {
		fn(regs);
		return;
	}
	/* No handler, so nobody else will acknowledge it: an interrupt the
	 * LAPIC delivered (a line freed while one was in flight, as
	 * rtc_stop() racing the RTC) owes its EOI, or its ISR bit blocks
	 * its priority class and all below on this CPU for good
	 * (test_unexpected_lapic_vector_is_acknowledged).  Linux: ack_APIC_irq()
	 * in common_interrupt's "No irq handler for vector" path. */
	if (lapic_vector_in_service((u8)v))
		lapic_eoi();
	__atomic_fetch_add(&unexpected_count, 1, __ATOMIC_RELAXED);
	n = __atomic_add_fetch(&unexpected_per_vector[v], 1, __ATOMIC_RELAXED);
	if (n <= UNEXPECTED_WARN_LIMIT)
		pr_warn("unexpected interrupt vector %d (rip %lx)%s\n", v,
			(unsigned long)regs->rip,
			n == UNEXPECTED_WARN_LIMIT ? ", further ones counted only"
						   : "");
}

u64 irq_unexpected_count(void)
{
	return __atomic_load_n(&unexpected_count, __ATOMIC_RELAXED);
}
