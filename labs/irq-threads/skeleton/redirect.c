/*
 * [2] Exercise: hand the interrupt to the line's thread.
 * FALLBACK (the non-rt behaviour): run the line's handlers right here,
 * in hard-irq context with interrupts off, as generic_handle_irq's [3]
 * does.  Everything works, but every handler is again a non-preemptible
 * section: under rt its latency adds to everyone's, and a FIFO 90 task
 * cannot preempt it (`test irqthreads`, `irqs` still lists the thread
 * but `trace` never shows it run).
 * Write: make the thread owe a run (IRQS_RUNTHREAD, which do_irqd's
 * irq_thread_wait consumes) and wake desc->thread.  A level-triggered
 * line (desc->level) would fire again at once: mask it first
 * (arch_irq_mask, IRQS_MASKED); do_irqd's [6] unmasks it.
 */
{
	irqreturn_t ret;

	desc->status |= IRQS_INPROGRESS;
	raw_spin_unlock(&desc->lock);
	ret = handle_irq_event(desc);
	raw_spin_lock(&desc->lock);
	desc->status &= ~IRQS_INPROGRESS;
	note_unhandled(desc, ret);
}
