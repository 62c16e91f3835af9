/*
 * kernel/console.c - the console list (where printk's text goes) and the
 * input queue (where the shell's bytes come from).
 *
 * Output: drivers register a struct console (COM1 always, VGA text when
 * booted in text mode); console_emit() hands every line to each of them.
 * Input: a single-producer/single-consumer byte ring.  The producer is
 * whoever receives bytes (the COM1 receive interrupt, or console_getc()
 * itself polling the UART while interrupts are not yet routed); the
 * consumer is the shell.  Linux counterpart: kernel/printk/printk.c
 * (struct console), drivers/tty (the input side, much simplified).
 *
 * Input never drops a byte (a pitest script is pasted whole): a full
 * ring refuses the byte, the producer leaves it in the UART and stalls
 * (console_input_stall: the driver turns its receive interrupt off, the
 * UART's FIFO fills and the far end is held back by flow control), and
 * the consumer, once a quarter of the ring is free again, calls the
 * producer's resume hook (the tty layer's throttle/unthrottle).  The
 * stall flag is a Dekker pair: the producer sets it then re-checks for
 * room, the consumer frees room then reads it, each with a full barrier
 * between, so at least one of them sees the other and the producer is
 * never left stalled over an empty ring.
 *
 * A second producer, the PS/2 keyboard (drivers/i8042.c), feeds the same
 * ring.  input_lock makes each insertion atomic, and the keyboard never
 * takes the ring's last free slot (console_input_char_spare(c, 1)),
 * because the serial handler checks for room *before* it takes a byte
 * out of the UART and cannot give it back:
 *
 *   CPU0 irq/4-ttyS0                 CPU1 irq/1-i8042
 *   console_input_full()? no (1 free)
 *                                    console_input_char_spare(c, 1):
 *                                      room 1 <= spare 1: refused, the
 *                                      keyboard keeps c and stalls
 *   c = uart_getc()
 *   console_input_char(c): fits
 *
 * Without the spare slot CPU1 would fill the last slot between CPU0's
 * check and its insertion, and CPU0's byte, already out of the FIFO,
 * would be lost.  The keyboard's resume hook (resume_extra) is called
 * beside the serial line's.
 */
#include "kernel/console.h"
#include "kernel/printk.h"
#include "kernel/sched/wait.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "lib/errno.h"
#include "kernel/sched/preempt.h"
#include "kernel/irqflags.h"
#include "kernel/locking/raw_spinlock.h"
#include "arch/x86_64/arch.h"

static LIST_HEAD(consoles);
int console_level = -1;

#define INPUT_RING 4096	/* a whole pasted pitest script fits */

static u8 input_ring[INPUT_RING];
static unsigned int input_head;	/* written by the producer only */
static unsigned int input_tail;	/* written by a consumer, under
				 * input_consumer_lock */
static unsigned long input_refused;
static bool input_irq_driven;	/* a receive interrupt feeds the ring */
static bool input_stalled;	/* producer stopped on a full ring */
static void (*input_resume)(void);	/* producer's hook to start again */
static void (*input_resume_extra)(void);	/* the second producer's */
/* Orders the producers' insertions (head updates); never held long. */
static DEFINE_RAW_SPINLOCK(input_lock);
/* Orders the consumers' removals (tail updates): the kernel shell and a
 * program reading /dev/console (kernel/fs/tty_console.c) may both read,
 * e.g. after `run prog &`; each byte goes to one of them. */
static DEFINE_RAW_SPINLOCK(input_consumer_lock);
/* The reader sleeps here once input is irq-driven (a tty read's wait). */
static DECLARE_WAIT_QUEUE_HEAD(input_wait);

static unsigned int input_room(void)
{
	return INPUT_RING - (READ_ONCE(input_head) -
			     __atomic_load_n(&input_tail, __ATOMIC_ACQUIRE));
}

/*
 * console_input_stall - the producer found the ring full.  Returns true
 * if it must stop receiving (its resume hook will be called once room
 * is back), false if the consumer made room meanwhile.
 * Context: the producer (irq handler), under the producer's own lock.
 */
bool console_input_stall(void)
{
	return console_input_stall_spare(0);
}

/*
 * console_input_stall_spare - the same for a producer that leaves spare
 * slots free (the keyboard, see the top of this file): stalled unless
 * more than spare slots are free.
 * Context: the producer, under the producer's own lock.
 */
bool console_input_stall_spare(unsigned int spare)
{
	WRITE_ONCE(input_stalled, true);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* pairs with the pop's */
	if (input_room() > spare) {
		WRITE_ONCE(input_stalled, false);
		return false;
	}
	return true;
}

/* console_input_resumed - the producer's resume hook ran: clear the
 * stall.  Context: the resume hook, under the producer's lock. */
void console_input_resumed(void)
{
	WRITE_ONCE(input_stalled, false);
}

bool console_input_full(void)
{
	return input_room() == 0;
}

bool console_input_is_stalled(void)
{
	return READ_ONCE(input_stalled);
}

/* console_set_input_resume - register the producer's resume hook;
 * returns the previous one (the serial test swaps it).  Context: boot,
 * or a test with the producer idle. */
void (*console_set_input_resume(void (*fn)(void)))(void)
{
	void (*old)(void) = input_resume;

	WRITE_ONCE(input_resume, fn);
	return old;
}

/* console_set_input_resume_extra - the second producer's resume hook
 * (the keyboard's).  Context: boot. */
void console_set_input_resume_extra(void (*fn)(void))
{
	WRITE_ONCE(input_resume_extra, fn);
}

/*
 * console_set_input_irq - from now on an interrupt handler is the only
 * producer: stop polling (two producers would break the ring) and let
 * console_getc() sleep between bytes.  Context: boot, interrupts off.
 */
void console_set_input_irq(bool on)
{
	WRITE_ONCE(input_irq_driven, on);
}

/*
 * register_console - add con to the output list.
 * Context: any task.  Locking: takes the console lock, so a line being
 * printed on another CPU is never torn by the list changing under it.
 */
void register_console(struct console *con)
{
	unsigned long flags = console_lock_irqsave();

	list_add_tail(&con->node, &consoles);
	console_unlock_irqrestore(flags);
}

/*
 * unregister_console - remove con; it gets no further output.
 * Context: any task.  Locking: takes the console lock.
 */
void unregister_console(struct console *con)
{
	unsigned long flags = console_lock_irqsave();

	list_del_init(&con->node);
	console_unlock_irqrestore(flags);
}

void console_emit(const char *s, size_t len)
{
	struct console *con;

	list_for_each_entry(con, &consoles, node)
		con->write(s, len);
}

/*
 * console_input_char - append c to the input ring; false (and c not
 * taken) if the ring is full: the caller keeps the byte and stalls.
 * Context: any (hardirq, irq thread or the polling reader).
 * Locking: single producer; the release store of input_head pairs with
 * the acquire load in console_trygetc().
 */
bool console_input_char(int c)
{
	return console_input_char_spare(c, 0);
}

/*
 * console_input_char_spare - console_input_char() that refuses c unless
 * more than spare slots are free (see the diagram at the top).
 * Context: any.  Locking: takes input_lock (raw, interrupts off) around
 * the insertion.
 */
bool console_input_char_spare(int c, unsigned int spare)
{
	unsigned long flags;
	unsigned int head;

	raw_spin_lock_irqsave(&input_lock, flags);
	if (input_room() <= spare) {
		input_refused++;
		raw_spin_unlock_irqrestore(&input_lock, flags);
		return false;
	}
	head = input_head;
	input_ring[head % INPUT_RING] = (u8)c;
	__atomic_store_n(&input_head, head + 1, __ATOMIC_RELEASE);
	raw_spin_unlock_irqrestore(&input_lock, flags);
	/* Every byte wakes: a wake-up on an empty queue is one raw lock
	 * pair, and a conditional one would need its own Dekker pair with
	 * the reader's check.  The queue's lock is raw, so this is safe
	 * from the hard-irq handler (none/voluntary/desktop) as from the
	 * irq thread (rt). */
	wake_up(&input_wait);
	return true;
}

/* console_input_refused - how often a full ring refused a byte (each
 * such byte stayed in the UART: a count of stalls, not of losses). */
unsigned long console_input_refused(void)
{
	return READ_ONCE(input_refused);
}

static void poll_consoles(void)
{
	struct console *con;
	int c;

	list_for_each_entry(con, &consoles, node) {
		if (!con->poll_char)
			continue;
		/* Poll only while there is room: a polled byte cannot be
		 * handed back to the UART. */
		while (input_room() && (c = con->poll_char()) >= 0)
			console_input_char(c);
	}
}

int console_trygetc(void)
{
	unsigned long flags;
	unsigned int tail;
	int c;

	if (__atomic_load_n(&input_head, __ATOMIC_ACQUIRE) ==
		    READ_ONCE(input_tail) &&
	    !READ_ONCE(input_irq_driven))
		poll_consoles();
	raw_spin_lock_irqsave(&input_consumer_lock, flags);
	tail = input_tail;
	if (__atomic_load_n(&input_head, __ATOMIC_ACQUIRE) == tail) {
		raw_spin_unlock_irqrestore(&input_consumer_lock, flags);
		return -1;
	}
	c = input_ring[tail % INPUT_RING];
	__atomic_store_n(&input_tail, tail + 1, __ATOMIC_RELEASE);
	raw_spin_unlock_irqrestore(&input_consumer_lock, flags);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* pairs with stall's */
	if (READ_ONCE(input_stalled) && input_room() >= INPUT_RING / 4) {
		void (*extra)(void) = READ_ONCE(input_resume_extra);

		if (input_resume)
			input_resume();
		if (extra)
			extra();
	}
	return c;
}

static bool input_waiting(void)
{
	return __atomic_load_n(&input_head, __ATOMIC_ACQUIRE) !=
	       READ_ONCE(input_tail);
}

bool console_input_pending(void)
{
	return input_waiting();
}

wait_queue_head_t *console_input_wq(void)
{
	return &input_wait;
}

/*
 * console_getc_interruptible - console_getc for a program's read: the
 * byte, or -ERESTARTSYS when a signal comes first (the read then
 * returns to deliver it, and restarts under SA_RESTART).
 * Context: task, sleeps (input is irq-driven once programs run).
 */
int console_getc_interruptible(void)
{
	struct wait_queue_entry we = { .task = NULL };
	int c;

	might_sleep();
	while ((c = console_trygetc()) < 0) {
		if (!READ_ONCE(input_irq_driven)) {
			if (signal_pending(current))
				return -ERESTARTSYS;
			arch_cpu_relax();
			continue;
		}
		prepare_to_wait(&input_wait, &we, TASK_INTERRUPTIBLE);
		if (!input_waiting() && !signal_pending(current))
			schedule();
		finish_wait(&input_wait, &we);
		if (signal_pending(current) && !input_waiting())
			return -ERESTARTSYS;
	}
	return c;
}

/*
 * console_getc - wait for the next input byte.
 * Context: task; sleeps once input is irq-driven.  Before that (boot,
 * the UART polled) it spins with PAUSE, as there is nothing to wake it.
 *
 * The sleep matters beyond power: under none and voluntary a task that
 * halted here in place (as console_getc once did) would hold its CPU
 * while the shell sat at the prompt, and a thread woken on that CPU
 * (watchdog/0, an RT task bound there) would wait for the next key.
 * WAKEUP_TIMING showed it: watchdog/0 woken at boot ran 2.6 s later.
 */
int console_getc(void)
{
	int c;

	while ((c = console_trygetc()) < 0) {
		if (!READ_ONCE(input_irq_driven))
			arch_cpu_relax();
		else if (in_atomic() || irqs_disabled())
			arch_wait_for_interrupt();	/* cannot sleep */
		else
			wait_event(input_wait, input_waiting());
	}
	return c;
}
