/*
 * Exercise: which lines get a thread.
 * FALLBACK: every line does under rt, SA_NODELAY or not, so a handler
 * that asked to stay in hard-irq context (rtc's, a latency probe)
 * waits behind the scheduler.  Write: thread the line only when the
 * model threads handlers (IRQ_FORCED_THREADING) and the first handler
 * did not ask for SA_NODELAY (mainline: IRQF_NO_THREAD).
 */
desc->threaded = IRQ_FORCED_THREADING;
