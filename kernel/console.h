/*
 * kernel/console.h - output devices for printk and the character input
 * queue the shell reads.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include "lib/types.h"
#include "lib/list.h"

struct console {
	const char *name;
	void (*write)(const char *s, size_t len);	/* any context, polled */
	int (*poll_char)(void);	/* a waiting input byte or -1; may be NULL */
	struct list_head node;	/* in the console list, under console_lock */
};

/* console_level - the log level (LOGLEVEL_*) of the text being written,
 * -1 for the shell's output (console_write); a console that colours by
 * level reads it in write().  Locking: console lock (written by printk
 * and console_write just before they call console_emit). */
extern int console_level;

/* register_console - add an output device; it gets every later line. */
void register_console(struct console *con);
/* unregister_console - remove an output device (the printk test's). */
void unregister_console(struct console *con);
/* console_emit - write to every registered console.
 * Locking: caller holds the console lock (kernel/printk.c). */
void console_emit(const char *s, size_t len);

/* console_input_char - queue one received byte (from an interrupt
 * handler or a poller); false if the ring is full (byte not taken).
 * Context: any. */
bool console_input_char(int c);
/* console_input_char_spare - the same, refused unless more than spare
 * slots are free (a second producer, kernel/console.c).  Context: any. */
bool console_input_char_spare(int c, unsigned int spare);
/* Producer flow control, see kernel/console.c: stall on a full ring,
 * resumed through the hook once a quarter of it is free. */
bool console_input_stall(void);
bool console_input_stall_spare(unsigned int spare);
void console_set_input_resume_extra(void (*fn)(void));
void console_input_resumed(void);
bool console_input_is_stalled(void);
bool console_input_full(void);
void (*console_set_input_resume(void (*fn)(void)))(void);
unsigned long console_input_refused(void);
/* console_getc - next input byte, waiting for one.  Context: task. */
int console_getc(void);
/* console_getc_interruptible - the same, or -ERESTARTSYS when current
 * is signalled first (a program's read, kernel/fs/tty_console.c).
 * Context: task. */
int console_getc_interruptible(void);
/* console_input_pending - a byte is waiting in the input ring. */
bool console_input_pending(void);
/* console_input_wq - where readers sleep for input (poll_wait).
 * The queue lives as long as the kernel. */
struct wait_queue_head;
struct wait_queue_head *console_input_wq(void);
/* console_trygetc - next input byte or -1. */
int console_trygetc(void);
/* console_set_input_irq - a receive interrupt feeds the input ring now:
 * stop polling, halt while waiting.  Context: boot. */
void console_set_input_irq(bool on);

#endif /* KERNEL_CONSOLE_H */
