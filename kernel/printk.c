/*
 * kernel/printk.c - printk(): levels, timestamps, the log buffer and the
 * console lock.
 *
 * A message may start with a level prefix (KERN_ERR etc., "\001" + digit,
 * as in Linux); it is printed when its level is below console_loglevel
 * (`loglevel=N` on the command line), or always when the kernel is built
 * with PRINTK_IGNORE_LOGLEVEL (the article's debugging option).  Each
 * new line gets a "[seconds.microseconds]" stamp.  Everything, printed
 * or not, goes into a 64 KiB ring that `dmesg` reads.
 *
 * The console lock is a spinning lock with hardware interrupts off: it
 * must work in every context including the oops path, so it is never a
 * sleeping lock, under any preemption model.  During an oops it is taken
 * with a bounded wait (oops_in_progress) so a dead holder cannot mute
 * the report.  Linux counterpart: kernel/printk/printk.c.
 */
#include "kernel/printk.h"
#include "kernel/console.h"
#include "kernel/cmdline.h"
#include "arch/x86_64/arch.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"
#include "lib/errno.h"

#ifdef CONFIG_PRINTK_IGNORE_LOGLEVEL
#define IGNORE_LOGLEVEL 1
#else
#define IGNORE_LOGLEVEL 0
#endif

int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
int oops_in_progress;
bool printk_time = true;

static u64 (*printk_clock)(void);
static bool at_line_start = true;
static int cont_level = LOGLEVEL_DEFAULT;

#define LOG_BUF_SIZE (64 * 1024)
static char log_buf[LOG_BUF_SIZE];
static size_t log_head;		/* total bytes ever written */

/* The console lock: a ticket lock taken with interrupts off (see above). */
static unsigned int console_next_ticket, console_owner_ticket;

unsigned long console_lock_irqsave(void)
{
	unsigned long flags = arch_local_irq_save();
	unsigned int me = __atomic_fetch_add(&console_next_ticket, 1,
					     __ATOMIC_RELAXED);
	unsigned long spins = 0;

	while (__atomic_load_n(&console_owner_ticket, __ATOMIC_ACQUIRE) != me) {
		arch_cpu_relax();
		/* About 0.1-1 s of spinning: far longer than any line takes. */
		if (oops_in_progress && ++spins > 50000000UL) {
			__atomic_store_n(&console_owner_ticket, me,
					 __ATOMIC_RELEASE);
			break;
		}
	}
	return flags;
}

void console_unlock_irqrestore(unsigned long flags)
{
	__atomic_fetch_add(&console_owner_ticket, 1, __ATOMIC_RELEASE);
	arch_local_irq_restore(flags);
}

void printk_set_time_source(u64 (*now_ns)(void))
{
	printk_clock = now_ns;
}

static void log_store(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		log_buf[(log_head + i) % LOG_BUF_SIZE] = s[i];
	log_head += len;
}

/*
 * printk_log_read - copy up to size-1 of the newest log bytes into buf.
 * Context: task.  Locking: takes the console lock.
 */
size_t printk_log_read(char *buf, size_t size)
{
	unsigned long flags;
	size_t n, start;

	if (!size)
		return 0;
	flags = console_lock_irqsave();
	n = log_head < LOG_BUF_SIZE ? log_head : LOG_BUF_SIZE;
	if (n > size - 1)
		n = size - 1;
	start = log_head - n;
	for (size_t i = 0; i < n; i++)
		buf[i] = log_buf[(start + i) % LOG_BUF_SIZE];
	buf[n] = '\0';
	console_unlock_irqrestore(flags);
	return n;
}

/* emit - write text, adding a time stamp after each newline.
 * Locking: console lock held. */
static void emit(const char *text, size_t len, bool print)
{
	char stamp[32];

	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t chunk = nl ? (size_t)(nl - text) + 1 : len;

		if (at_line_start && printk_time) {
			u64 ns = printk_clock ? printk_clock() : 0;
			int n = snprintf(stamp, sizeof(stamp), "[%5llu.%06llu] ",
					 (unsigned long long)(ns / 1000000000ULL),
					 (unsigned long long)(ns % 1000000000ULL / 1000));
			log_store(stamp, n);
			if (print)
				console_emit(stamp, n);
		}
		log_store(text, chunk);
		if (print)
			console_emit(text, chunk);
		at_line_start = nl != NULL;
		text += chunk;
		len -= chunk;
	}
}

/*
 * vprintk - see printk().
 * Context: any; never sleeps.  Locking: takes the console lock (irqs off).
 */
int vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	const char *text = buf;
	int level = LOGLEVEL_DEFAULT, len;
	unsigned long flags;
	bool cont = false;

	len = vscnprintf(buf, sizeof(buf), fmt, ap);
	while (text[0] == KERN_SOH[0] && text[1]) {
		if (text[1] >= '0' && text[1] <= '7')
			level = text[1] - '0';
		else if (text[1] == 'c')
			cont = true;
		text += 2;
		len -= 2;
	}

	flags = console_lock_irqsave();
	if (cont)
		level = cont_level;
	else if (!at_line_start)
		emit("\n", 1, true);	/* an unfinished line: end it */
	cont_level = level;
	console_level = level;
	emit(text, len, IGNORE_LOGLEVEL || level < console_loglevel);
	console_unlock_irqrestore(flags);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

void console_write(const char *s, size_t len)
{
	unsigned long flags = console_lock_irqsave();

	console_level = -1;
	console_emit(s, len);
	console_unlock_irqrestore(flags);
}

int console_printf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_write(buf, n);
	return n;
}

static int __init parse_loglevel(const char *val)
{
	long lvl;

	if (!val || kstrtol(val, 10, &lvl) || lvl < 0 || lvl > 8)
		return -EINVAL;
	console_loglevel = (int)lvl;
	return 0;
}
CMDLINE_PARAM("loglevel", parse_loglevel);

static int __init parse_printk_time(const char *val)
{
	if (!val || (val[0] != '0' && val[0] != '1') || val[1])
		return -EINVAL;
	printk_time = val[0] == '1';
	return 0;
}
CMDLINE_PARAM("printk.time", parse_printk_time);
