/*
 * kernel/fs/tty_console.c - /dev/console for programs: its write goes to
 * the kernel console, its read is a small line discipline over the
 * console's input ring (kernel/console.c), its ioctls are Linux's termios
 * calls.  What busybox's shell, `read` and cat need from a terminal.
 *
 * console_read(), one reader at a time (tty.read_lock):
 *   [1] canonical mode (ICANON, the default): bytes are collected into a
 *       line until NL (CR becomes NL under ICRNL) or VEOF; VERASE and
 *       VKILL edit the line, ECHO/ECHOE echo it (control characters as
 *       ^X under ECHOCTL); VINTR under ISIG sends SIGINT (see the note)
 *       and drops the line; VEOF on an empty line is end of file (0);
 *   [2] non-canonical mode: at least one byte (VMIN > 0) or what is
 *       waiting (VMIN == 0 and VTIME == 0: maybe 0 bytes); more waiting
 *       bytes are taken up to count, echoed under ECHO.  VTIME's timer
 *       is not kept (a read with VMIN 0 and VTIME > 0 waits for a byte);
 *   [3] the line (or the bytes) copied out; a line longer than the
 *       read stays for the next reads, as Linux's n_tty.
 * A signal before a byte makes the read -ERESTARTSYS (SA_RESTART
 * restarts it); O_NONBLOCK with nothing ready is -EAGAIN.
 * ioctl: TCGETS, TCSETS, TCSETSW, TCSETSF (the last drops unread input
 * of the line), TIOCGWINSZ 80x25; others -ENOTTY (no job control:
 * busybox's shell says "can't access tty; job control turned off", as on
 * a Linux serial console without a controlling tty).
 * The termios is the console's, kept across opens as Linux keeps a
 * tty's: a program that leaves raw mode on hands it to the next one.
 * rtk has no process groups: VINTR's SIGINT goes to the reading process
 * (Linux: the terminal's foreground process group).
 * The kernel shell reads the same input ring with console_getc(); while
 * a program started with `run` in the foreground reads, the shell waits
 * for it; after `run prog &` each byte goes to whichever reads first.
 * Linux counterpart: drivers/tty/n_tty.c (n_tty_receive_char,
 * canon_copy_from_read_buf, n_tty_read), drivers/tty/tty_io.c
 * (tty_std_termios), drivers/tty/tty_ioctl.c (set_termios).
 */
#include "kernel/fs/tty_console.h"
#include "kernel/fs/file.h"
#include "kernel/fs/poll.h"
#include "kernel/console.h"
#include "kernel/printk.h"
#include "kernel/user/process.h"
#include "kernel/user/uaccess.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Linux's tty_std_termios (drivers/tty/tty_io.c) and INIT_C_CC. */
#define TERMIOS_IFLAG (ICRNL | IXON)
#define TERMIOS_OFLAG (OPOST | ONLCR)
#define TERMIOS_CFLAG (0000017 | 0000060 | 0000200 | 0002000)
			/* B38400 | CS8 | CREAD | HUPCL */
#define TERMIOS_LFLAG (ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | \
		       ECHOKE | IEXTEN)
static const u8 init_c_cc[NCCS] = "\003\034\177\025\004\0\1\0\021\023\032\0"
				  "\022\017\027\026\0";

#define CONSOLE_ROWS 25
#define CONSOLE_COLS 80
/* Linux's N_TTY_BUF_SIZE is 4096; a console line of a course machine is
 * far shorter.  A canonical line stops growing at TTY_LINE_MAX - 1. */
#define TTY_LINE_MAX 512
/* Bytes the console copies per write: on the stack, a line at once. */
#define CONSOLE_CHUNK 256

static struct {
	spinlock_t lock;		/* protects termios */
	struct termios termios;
	struct rt_mutex read_lock;	/* one reader; protects the rest */
	char line[TTY_LINE_MAX];
	size_t len;			/* bytes in line */
	size_t ready;			/* of them, a finished line's */
	size_t off;			/* of those, read already */
	bool eof;			/* VEOF ended an empty line */
} tty;

void __init tty_console_init(void)
{
	spin_lock_init(&tty.lock);
	rt_mutex_init(&tty.read_lock);
	tty.termios.c_iflag = TERMIOS_IFLAG;
	tty.termios.c_oflag = TERMIOS_OFLAG;
	tty.termios.c_cflag = TERMIOS_CFLAG;
	tty.termios.c_lflag = TERMIOS_LFLAG;
	memcpy(tty.termios.c_cc, init_c_cc, sizeof(tty.termios.c_cc));
}

static void get_termios(struct termios *t)
{
	spin_lock(&tty.lock);
	*t = tty.termios;
	spin_unlock(&tty.lock);
}

/* echo_char - c as the terminal shows it: ^X for a control character
 * under ECHOCTL (but TAB and NL), else itself. */
static void echo_char(const struct termios *t, char c)
{
	char ctl[2] = { '^', (char)(c ^ 0100) };

	if (!(t->c_lflag & ECHO))
		return;
	if ((t->c_lflag & ECHOCTL) && (u8)c < ' ' && c != '\t' && c != '\n')
		console_write(ctl, 2);
	else
		console_write(&c, 1);
}

/* erase_chars - rub out n echoed characters ("\b \b" under ECHOE). */
static void erase_chars(const struct termios *t, size_t n)
{
	if (!(t->c_lflag & ECHO) || !(t->c_lflag & ECHOE))
		return;
	while (n--)
		console_write("\b \b", 3);
}

/*
 * canon_fill - [1]: collect a line into tty.line.  0 when one is ready
 * (or VEOF on an empty line), -ERESTARTSYS, -EAGAIN (nonblock and no
 * byte waiting).
 * Context: task, sleeps.  Locking: tty.read_lock held.
 */
static int canon_fill(bool nonblock)
{
	struct termios t;
	int c;

	WARN_ON(rt_mutex_owner(&tty.read_lock) != current);
	while (!tty.ready && !tty.eof) {
		if (nonblock && !console_input_pending())
			return -EAGAIN;
		c = console_getc_interruptible();
		if (c < 0)
			return c;
		get_termios(&t);
		if (c == '\r' && (t.c_iflag & IGNCR))
			continue;
		if (c == '\r' && (t.c_iflag & ICRNL))
			c = '\n';
		if ((t.c_lflag & ISIG) && c == t.c_cc[VINTR]) {
			echo_char(&t, (char)c);
			echo_char(&t, '\n');
			tty.len = 0;
			kill_process(current_process(), SIGINT);
			continue;	/* the next getc sees the signal */
		}
		if (c == t.c_cc[VERASE] || c == '\b') {
			if (tty.len) {
				tty.len--;
				erase_chars(&t, 1);
			}
		} else if (c == t.c_cc[VKILL]) {
			erase_chars(&t, tty.len);
			tty.len = 0;
		} else if (c == t.c_cc[VEOF]) {
			tty.ready = tty.len;
			tty.eof = tty.len == 0;
		} else if (c == '\n') {
			tty.line[tty.len++] = '\n';	/* room kept for it */
			tty.ready = tty.len;
			echo_char(&t, '\n');
		} else if (tty.len < TTY_LINE_MAX - 1) {
			tty.line[tty.len++] = (char)c;
			echo_char(&t, (char)c);
		}
	}
	return 0;
}

/*
 * raw_fill - [2]: append waiting bytes to tty.line, waiting for the
 * first unless VMIN and VTIME are 0 or nonblock.  0, -ERESTARTSYS or
 * -EAGAIN.  Context: task, sleeps.  Locking: tty.read_lock held.
 */
static int raw_fill(size_t count, bool nonblock)
{
	struct termios t;
	bool wait;
	int c;

	WARN_ON(rt_mutex_owner(&tty.read_lock) != current);
	get_termios(&t);
	wait = !nonblock && (t.c_cc[VMIN] || t.c_cc[VTIME]);
	while (tty.len < count && tty.len < TTY_LINE_MAX) {
		if (tty.len || !wait) {
			c = console_trygetc();
			if (c < 0)
				break;
		} else {
			c = console_getc_interruptible();
			if (c < 0)
				return c;
		}
		if (c == '\r' && (t.c_iflag & ICRNL))
			c = '\n';
		tty.line[tty.len++] = (char)c;
		echo_char(&t, (char)c);
	}
	if (!tty.len && nonblock)
		return -EAGAIN;
	tty.ready = tty.len;
	return 0;
}

static long console_read(struct file *file, char __user *buf, size_t count,
			 loff_t *pos)
{
	bool nonblock = READ_ONCE(file->f_flags) & O_NONBLOCK;
	struct termios t;
	size_t n;
	long ret;

	might_sleep();
	if (!count)
		return 0;
	if (rt_mutex_lock_interruptible(&tty.read_lock))
		return -ERESTARTSYS;
	get_termios(&t);
	if (tty.ready > tty.off || tty.eof)
		ret = 0;	/* a line left by a shorter read first */
	else if (t.c_lflag & ICANON)
		ret = canon_fill(nonblock);				/* [1] */
	else
		ret = raw_fill(count, nonblock);			/* [2] */
	if (ret)
		goto out_unlock;
	n = tty.ready - tty.off;					/* [3] */
	if (n > count)
		n = count;
	if (n && copy_to_user(buf, tty.line + tty.off, n)) {
		ret = -EFAULT;
		goto out_unlock;
	}
	tty.off += n;
	ret = (long)n;
	if (tty.off == tty.ready) {	/* all of it read: the next line */
		memmove(tty.line, tty.line + tty.ready, tty.len - tty.ready);
		tty.len -= tty.ready;
		tty.ready = tty.off = 0;
		tty.eof = false;
	}
out_unlock:
	rt_mutex_unlock(&tty.read_lock);
	return ret;
}

/*
 * console_fwrite - the bytes to the kernel console, CONSOLE_CHUNK at a
 * time: the count, or -EFAULT if none could be copied.
 * Context: task, may sleep.
 */
static long console_fwrite(struct file *file, const char __user *buf,
			   size_t count, loff_t *pos)
{
	char kbuf[CONSOLE_CHUNK];
	size_t done = 0;

	might_sleep();
	while (done < count) {
		size_t chunk = count - done < CONSOLE_CHUNK ? count - done
							    : CONSOLE_CHUNK;
		size_t left = copy_from_user(kbuf, buf + done, chunk);

		console_write(kbuf, chunk - left);
		done += chunk - left;
		if (left)
			return done ? (long)done : -EFAULT;
	}
	return (long)done;
}

/* console_poll - readable when a line (or, raw, a byte) is waiting;
 * always writable.  Context: task. */
static unsigned int console_poll(struct file *file, poll_table *pt)
{
	unsigned int mask = POLLOUT | POLLWRNORM;

	poll_wait(file, console_input_wq(), pt);
	if (READ_ONCE(tty.ready) > READ_ONCE(tty.off) || READ_ONCE(tty.eof) ||
	    console_input_pending())
		mask |= POLLIN | POLLRDNORM;
	return mask;
}

/* console_ioctl - the termios calls of the header.  Context: task. */
static long console_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct termios t;
	struct winsize ws;

	might_sleep();
	switch (cmd) {
	case TCGETS:
		get_termios(&t);
		return copy_to_user((void __user *)arg, &t, sizeof(t)) ?
			       -EFAULT : 0;
	case TCSETS:
	case TCSETSW:	/* output is written synchronously: nothing to drain */
	case TCSETSF:
		if (copy_from_user(&t, (const void __user *)arg, sizeof(t)))
			return -EFAULT;
		if (cmd == TCSETSF &&
		    !rt_mutex_lock_interruptible(&tty.read_lock)) {
			tty.len = tty.ready = tty.off = 0;	/* flush */
			tty.eof = false;
			rt_mutex_unlock(&tty.read_lock);
		}
		spin_lock(&tty.lock);
		tty.termios = t;
		spin_unlock(&tty.lock);
		return 0;
	case TIOCGWINSZ:
		memset(&ws, 0, sizeof(ws));
		ws.ws_row = CONSOLE_ROWS;
		ws.ws_col = CONSOLE_COLS;
		return copy_to_user((void __user *)arg, &ws, sizeof(ws)) ?
			       -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

const struct file_operations console_fops = {
	.read = console_read,
	.write = console_fwrite,
	.ioctl = console_ioctl,
	.poll = console_poll,
};
