/*
 * drivers/lpptest.h - LPPTEST: the guest side of an interrupt-latency
 * test driven from outside the machine (article, "PREEMPT_RT
 * configuration options": LPPTEST, a driver and a user program that
 * measure interrupt latency with an external stimulus).  See lpptest.c.
 */
#ifndef DRIVERS_LPPTEST_H
#define DRIVERS_LPPTEST_H

#include "lib/types.h"

#define COM2_PORT 0x2F8
#define COM2_IRQ 3
#define LPT1_PORT 0x378		/* legacy parallel port (probed only) */
#define LPT1_IRQ 7

/* A stimulus byte has bit 7 clear; its answer is the same byte with bit
 * 7 set (the host tool checks it), and an answer read back is never
 * answered again (no echo loop through a looped-back line). */
#define LPPTEST_ANSWER_BIT 0x80

enum lpptest_mode {
	LPPTEST_HARDIRQ,	/* SA_NODELAY: hard-irq context, every model */
	LPPTEST_THREAD,		/* the line's thread irq/3-lpptest (rt only;
				 * hard-irq under the other models) */
};

struct lpptest_stats {
	unsigned long stimuli;		/* bytes with bit 7 clear received */
	unsigned long answered;		/* answers written to the THR */
	unsigned long tx_busy;		/* answers dropped: THR not empty */
	unsigned long answers_seen;	/* bit-7 bytes received (loopback) */
	u8 last_answer;			/* the last byte written */
	bool last_in_hardirq;		/* context of the last answer */
};

/* lpptest_init - find COM2, request IRQ 3 in the lpptest.mode= mode.
 * Context: boot, task, after irq_init(); may sleep. */
void lpptest_init(void);

/* lpptest_present - COM2 found and its line requested. */
bool lpptest_present(void);
/* lpptest_parport_present - a parallel port answers at LPT1_PORT. */
bool lpptest_parport_present(void);

enum lpptest_mode lpptest_get_mode(void);
const char *lpptest_mode_name(enum lpptest_mode mode);

/* lpptest_set_mode - free the line and request it again in mode.
 * 0, -ENODEV (no COM2) or request_irq()'s error.  Context: task. */
int lpptest_set_mode(enum lpptest_mode mode);

/* lpptest_read_stats - a copy of the counters.  Context: any. */
void lpptest_read_stats(struct lpptest_stats *st);

/*
 * lpptest_loopback_inject - self-test stimulus: put c into COM2's
 * receive FIFO through the chip's loopback mode, as if the far end had
 * sent it; the receive interrupt follows when loopback ends.  0,
 * -ENODEV, -ETIMEDOUT (the byte never arrived).
 * Context: task.  Locking: irqs off inside.
 */
int lpptest_loopback_inject(u8 c);

#endif /* DRIVERS_LPPTEST_H */
