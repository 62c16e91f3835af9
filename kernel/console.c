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
 */
#include "kernel/console.h"
#include "kernel/printk.h"
#include "arch/x86_64/arch.h"

static LIST_HEAD(consoles);

#define INPUT_RING 256	/* a pasted pitest script line fits many times */

static u8 input_ring[INPUT_RING];
static unsigned int input_head;	/* written by the producer only */
static unsigned int input_tail;	/* written by the consumer only */
static unsigned long input_dropped;
static bool input_irq_driven;	/* a receive interrupt feeds the ring */

/*
 * console_set_input_irq - from now on an interrupt handler is the only
 * producer: stop polling (two producers would break the ring) and let
 * console_getc() halt between bytes.  Context: boot, interrupts off.
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
 * console_input_char - append c to the input ring; drop it if full.
 * Context: any (hardirq, irq thread or the polling reader).
 * Locking: single producer; the release store of input_head pairs with
 * the acquire load in console_trygetc().
 */
void console_input_char(int c)
{
	unsigned int head = input_head;

	if (head - __atomic_load_n(&input_tail, __ATOMIC_ACQUIRE) >= INPUT_RING) {
		input_dropped++;
		return;
	}
	input_ring[head % INPUT_RING] = (u8)c;
	__atomic_store_n(&input_head, head + 1, __ATOMIC_RELEASE);
}

static void poll_consoles(void)
{
	struct console *con;
	int c;

	list_for_each_entry(con, &consoles, node) {
		if (!con->poll_char)
			continue;
		while ((c = con->poll_char()) >= 0)
			console_input_char(c);
	}
}

int console_trygetc(void)
{
	unsigned int tail = input_tail;
	int c;

	if (__atomic_load_n(&input_head, __ATOMIC_ACQUIRE) == tail &&
	    !READ_ONCE(input_irq_driven))
		poll_consoles();
	if (__atomic_load_n(&input_head, __ATOMIC_ACQUIRE) == tail)
		return -1;
	c = input_ring[tail % INPUT_RING];
	__atomic_store_n(&input_tail, tail + 1, __ATOMIC_RELEASE);
	return c;
}

/*
 * console_getc - wait for the next input byte.
 * Context: task.  Busy-polls with PAUSE: this is the boot-time reader,
 * used until interrupts are routed; kernel/shell switches to a sleeping
 * wait once the scheduler and the COM1 interrupt are up.
 */
int console_getc(void)
{
	int c;

	while ((c = console_trygetc()) < 0) {
		/* A byte landing between the check and HLT waits for the
		 * next interrupt: at most one tick (1 ms at HZ=1000). */
		if (READ_ONCE(input_irq_driven))
			arch_wait_for_interrupt();
		else
			arch_cpu_relax();
	}
	return c;
}
