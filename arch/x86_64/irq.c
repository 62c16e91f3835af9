/*
 * arch/x86_64/irq.c - external interrupts: controller bring-up
 * (arch_irq_init), the common path every vector 32-255 takes
 * (arch_handle_irq) and the per-CPU interrupt stack.  Device lines
 * (COM1's receive interrupt among them) are requested through
 * request_irq() on the chip of irq_chip.c.
 *
 * An interrupt arriving on a task stack switches to the CPU's own 16 KiB
 * IRQ stack (kernel/mm/kstack.c, with a guard page), so a task stack only
 * needs room for one interrupt frame plus arch_handle_irq, however deep
 * the handler goes.  An interrupt already on the IRQ stack (an exception
 * inside a handler cannot come here; only an interrupt nesting in a
 * handler that re-enabled interrupts) stays on it.  irq_enter() and
 * irq_exit() run on the interrupted stack, so irq_exit() may switch
 * tasks.  The backtrace crosses the switch: arch_call_on_stack leaves a
 * frame on the task stack that the IRQ stack's first frame points at.
 * Linux counterpart: arch/x86/kernel/irq.c (common_interrupt, the
 * per-CPU hardirq_stack_ptr, call_on_irqstack), arch/x86/kernel/irq_64.c,
 * arch/x86/kernel/apic/io_apic.c setup_IO_APIC (ordering).
 */
#include "arch/x86_64/irq.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/irq_vectors.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/lapic_timer.h"
#include "arch/x86_64/pic.h"
#include "arch/x86_64/stack_switch.h"
#include "kernel/irq/irq_enter.h"
#include "kernel/irq/irq_stats.h"
#include "kernel/mm/kstack.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "lib/bug.h"

/* This CPU's IRQ stack top (exclusive); 0 until irq_stack_init_cpu(). */
static DEFINE_PER_CPU(unsigned long, irq_stack_top);

void irq_stack_init_cpu(void)
{
	void *stack;

	BUILD_BUG_ON(IRQ_STACK_SIZE != KSTACK_SIZE);
	if (this_cpu_read(irq_stack_top))
		return;
	stack = kstack_alloc();
	if (!stack)
		panic("irq: no memory for CPU %d's interrupt stack",
		      raw_smp_processor_id());
	this_cpu_write(irq_stack_top, (unsigned long)kstack_top(stack));
}

bool irq_stack_contains(unsigned long addr)
{
	unsigned long top = this_cpu_read(irq_stack_top);

	return top && addr < top && addr >= top - IRQ_STACK_SIZE;
}

static void run_vector_handler(void *regs)
{
	irq_vector_dispatch(regs);
}

/*
 * arch_handle_irq - see irq.h.
 * Context: hardirq, interrupts off, on the interrupted stack.
 */
void arch_handle_irq(struct pt_regs *regs)
{
	unsigned long top = this_cpu_read(irq_stack_top);

	BUG_ON(!arch_irqs_disabled());
	irq_enter();
	irq_stat_inc((unsigned int)regs->vector);
	if (top && !irq_stack_contains((unsigned long)__builtin_frame_address(0)))
		arch_call_on_stack((void *)top, run_vector_handler, regs);
	else
		irq_vector_dispatch(regs);
	irq_exit();
}

/*
 * arch_irq_vector_name - what vector carries, for `irqs` (arch.h): the
 * kind of source only; a device's own name comes from its request_irq
 * (the shell adds the line's handler name).
 * Context: any.
 */
const char *arch_irq_vector_name(int vector)
{
	switch (vector) {
	case LOCAL_TIMER_VECTOR:
		return "LOC  local timer interrupts";
	case RESCHEDULE_VECTOR:
		return "RES  rescheduling interrupts";
	case CALL_FUNCTION_VECTOR:
		return "CAL  function call interrupts";
	case CALL_FUNCTION_SINGLE_VECTOR:
		return "CAL1 single function call interrupts";
	case ERROR_VECTOR:
		return "ERR  APIC error interrupts";
	case SPURIOUS_VECTOR:
		return "SPU  spurious interrupts";
	}
	if (vector >= ISA_IRQ_VECTOR_BASE &&
	    vector < ISA_IRQ_VECTOR_BASE + NR_ISA_IRQS)
		return "IO-APIC  ISA";
	if (vector >= ISA_IRQ_VECTOR_BASE + NR_ISA_IRQS &&
	    vector < ISA_IRQ_VECTOR_BASE + ARCH_NR_DEVICE_IRQS)
		return "SW  software irq line (self-IPI)";
	return "device";
}

/*
 * arch_irq_init - see arch.h.
 * Context: boot CPU, once, interrupts off, after mm_init and percpu.
 */
void __init arch_irq_init(void)
{
	BUG_ON(!arch_irqs_disabled());
	pic_init_masked();	/* before the APIC: no stray vector 8-15 */
	lapic_init();		/* also this CPU's IRQ stack */
	ioapic_init();
	lapic_timer_init();
	irq_chip_init();	/* request_irq's lines; COM1: serial_irq_init */
}
