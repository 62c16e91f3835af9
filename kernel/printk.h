/*
 * kernel/printk.h - the kernel log: printk() with Linux's level prefixes.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "lib/types.h"
#include "lib/compiler.h"
#include <stdarg.h>

#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c"

#define LOGLEVEL_DEFAULT 4	/* a message without a prefix: KERN_WARNING */
#define CONSOLE_LOGLEVEL_DEFAULT 7 /* print everything but KERN_DEBUG */

/* printk - format and log a message; printed when its level is below
 * console_loglevel (or always, with PRINTK_IGNORE_LOGLEVEL).
 * Context: any, including hardirq and NMI-ish oops paths; never sleeps. */
int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

/* console_printf - unlevelled output to the consoles, no timestamp and no
 * log buffer: the shell's and the KTAP reporter's output channel. */
int console_printf(const char *fmt, ...) __printf(1, 2);
void console_write(const char *s, size_t len);

extern int console_loglevel;
/* oops_in_progress - set while an oops or panic prints: the console lock
 * is then taken with a bounded wait, so a CPU that died holding it does
 * not silence the report. */
extern int oops_in_progress;

/* printk_set_time_source - nanosecond clock for the "[ seconds.micros]"
 * line stamps; until one is set, stamps read 0. */
void printk_set_time_source(u64 (*now_ns)(void));
extern bool printk_time;

/* console_lock_irqsave / console_unlock_irqrestore - the lock that
 * serialises console output and the console list (interrupts off).
 * Context: any. */
unsigned long console_lock_irqsave(void);
void console_unlock_irqrestore(unsigned long flags);

/* printk_log_read - copy the tail of the log buffer (for `dmesg`). */
size_t printk_log_read(char *buf, size_t size);

#define pr_emerg(fmt, ...) printk(KERN_EMERG fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG fmt, ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)

#endif /* KERNEL_PRINTK_H */
