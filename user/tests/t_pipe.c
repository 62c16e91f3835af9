/*
 * user/tests/t_pipe.c - pipe(2) and pipe2(2) as Linux has them (issue 30
 * item 4; kernel/fs/pipe.c on kernel/fs/pipe_ring.c).  What must be seen:
 *   1. two fds, the read end first: S_IFIFO, O_RDONLY and O_WRONLY;
 *      lseek -ESPIPE; reading the write end or writing the read end
 *      -EBADF; pipe2's O_CLOEXEC (FD_CLOEXEC on both) and O_NONBLOCK,
 *      other flags -EINVAL; a bad pointer -EFAULT with no fd left open;
 *   2. bytes arrive in order, a read returns what is there (partial),
 *      EOF (0) once the last writer closed and the ring is drained;
 *   3. a pipeline through a child: 200 KB written by the child, more
 *      than the ring holds, so its writes block until the parent
 *      reads; every byte counted; and an echo through two pipes;
 *   4. EPIPE: with SIGPIPE ignored a write after the last reader closed
 *      is -EPIPE; with SIGPIPE at its default a child writing so dies
 *      by SIGPIPE (wait status 13); the last reader is the last one in
 *      every process: a child's copy of the read end keeps it open;
 *   5. O_NONBLOCK (pipe2, or F_SETFL later): an empty read -EAGAIN;
 *      4096-byte writes fill exactly 64 KiB, then -EAGAIN; F_SETFL off
 *      makes the fd blocking again (F_GETFL shows it);
 *   6. poll: an empty pipe's write end POLLOUT, its read end nothing
 *      (timeout 0); POLLIN with bytes; a full pipe no POLLOUT; the
 *      writer gone: POLLHUP on the read end (with POLLIN while bytes
 *      remain); the reader gone: POLLERR on the write end; poll(-1)
 *      woken by a child's write;
 *   7. atomic writes: two children each write WRITES records of RECORD
 *      bytes (<= PIPE_BUF) of their own letter into one pipe at once;
 *      every record the parent reads back is one letter, never mixed;
 *   8. no fd left open at the end.
 * Exit status: the number of failed checks.  It runs unchanged on a
 * Linux host, where every check passes too.
 */
#include "user/lib/ulib.h"

static int failures, checks;

static void check(const char *what, long got, long expected)
{
	checks++;
	if (got != expected) {
		failures++;
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

static char buf[65536];

static int lowest_free_fd(void)
{
	int fd = dup(0);

	close(fd);
	return fd;
}

static int reap(int pid)
{
	int status = -1;
	int ret = wait4(pid, &status, 0, NULL);

	return ret == pid ? status : ret;
}

static void set_sigpipe(unsigned long handler)
{
	struct kernel_sigaction act = { handler, 0, 0, 0 };

	set_sigaction(SIGPIPE, &act, NULL);
}

static void basics(void)
{
	int fds[2] = { -1, -1 }, lowest = lowest_free_fd();
	struct stat st;

	check("pipe", pipe(fds), 0);
	check("read end is the lowest fd", fds[0], lowest);
	check("write end next", fds[1], lowest + 1);
	check("fstat read end", fstat(fds[0], &st), 0);
	check("S_IFIFO", st.st_mode & S_IFMT, S_IFIFO);
	check("fstat write end", fstat(fds[1], &st), 0);
	check("S_IFIFO (write end)", st.st_mode & S_IFMT, S_IFIFO);
	check("F_GETFL read end", fcntl(fds[0], F_GETFL, 0) & O_ACCMODE,
	      O_RDONLY);
	check("F_GETFL write end", fcntl(fds[1], F_GETFL, 0) & O_ACCMODE,
	      O_WRONLY);
	check("no FD_CLOEXEC", fcntl(fds[0], F_GETFD, 0), 0);
	check("lseek", lseek(fds[0], 0, SEEK_CUR), -ESPIPE);
	check("write the read end", write(fds[0], "x", 1), -EBADF);
	check("read the write end", read(fds[1], buf, 1), -EBADF);
	check("write", write(fds[1], "hello", 5), 5);
	check("partial read", read(fds[0], buf, 3), 3);
	check("the rest", read(fds[0], buf + 3, 100), 2);
	check("in order", memcmp(buf, "hello", 5), 0);
	check("close writer", close(fds[1]), 0);
	check("EOF", read(fds[0], buf, 1), 0);
	close(fds[0]);

	check("pipe2 O_CLOEXEC|O_NONBLOCK", pipe2(fds, O_CLOEXEC | O_NONBLOCK), 0);
	check("FD_CLOEXEC read end", fcntl(fds[0], F_GETFD, 0), FD_CLOEXEC);
	check("FD_CLOEXEC write end", fcntl(fds[1], F_GETFD, 0), FD_CLOEXEC);
	check("O_NONBLOCK", !!(fcntl(fds[0], F_GETFL, 0) & O_NONBLOCK), 1);
	check("empty nonblocking read", read(fds[0], buf, 1), -EAGAIN);
	close(fds[0]);
	close(fds[1]);
	check("pipe2 O_APPEND", pipe2(fds, O_APPEND), -EINVAL);
	check("pipe2 0x1", pipe2(fds, 1), -EINVAL);
	check("pipe bad pointer", pipe((int *)8), -EFAULT);
	check("pipe kernel pointer", pipe((int *)0xffff800000000000UL), -EFAULT);
	check("no fd left by the refusals", lowest_free_fd(), lowest);
}

#define PIPELINE_BYTES (200 * 1024)

static void pipeline(void)
{
	int fds[2], back[2], pid;
	long total = 0, n, sum = 0;

	check("pipe", pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		long left = PIPELINE_BYTES;

		close(fds[0]);
		for (int i = 0; i < (int)sizeof(buf); i++)
			buf[i] = (char)i;
		while (left > 0) {
			long chunk = left > 30000 ? 30000 : left;

			if (write(fds[1], buf, chunk) != chunk)
				exit_group(1);
			left -= chunk;
		}
		exit_group(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf, 7000)) > 0) {
		total += n;
		for (long i = 0; i < n; i++)
			sum += (unsigned char)buf[i];
	}
	check("pipeline: read ends with 0", n, 0);
	check("pipeline: every byte", total, PIPELINE_BYTES);
	check("pipeline: writer's status", reap(pid), 0);
	close(fds[0]);
	(void)sum;

	check("pipe", pipe(fds), 0);
	check("pipe", pipe(back), 0);
	pid = fork();
	if (pid == 0) {
		char c;

		close(fds[1]);
		close(back[0]);
		while (read(fds[0], &c, 1) == 1) {
			c = (char)(c + 1);
			write(back[1], &c, 1);
		}
		exit_group(0);
	}
	close(fds[0]);
	close(back[1]);
	for (char c = 'a'; c < 'f'; c++) {
		char r = 0;

		write(fds[1], &c, 1);
		read(back[0], &r, 1);
		check("echo through a child", r, c + 1);
	}
	close(fds[1]);
	check("echo: EOF when the child is done", read(back[0], buf, 1), 0);
	check("echo child", reap(pid), 0);
	close(back[0]);
}

static void epipe(void)
{
	int fds[2], pid;

	check("pipe", pipe(fds), 0);
	pid = fork();
	if (pid == 0) {		/* holds a copy of the read end, then goes */
		char c;

		close(fds[1]);
		exit_group(read(fds[0], &c, 1) == 1 ? 0 : 1);
	}
	close(fds[0]);
	check("the child's read end keeps the pipe", write(fds[1], "x", 1), 1);
	check("child", reap(pid), 0);
	set_sigpipe(SIG_IGN);
	check("no reader, SIGPIPE ignored: EPIPE", write(fds[1], "x", 1),
	      -EPIPE);
	set_sigpipe(SIG_DFL);
	pid = fork();
	if (pid == 0) {
		write(fds[1], "x", 1);
		exit_group(50);		/* not reached: SIGPIPE kills */
	}
	check("a writer with no reader dies by SIGPIPE", reap(pid), SIGPIPE);
	close(fds[1]);
}

static void nonblocking_and_fill(void)
{
	int fds[2], n = 0;
	long total = 0, ret;

	check("pipe", pipe(fds), 0);
	check("F_SETFL O_NONBLOCK", fcntl(fds[1], F_SETFL, O_NONBLOCK), 0);
	check("F_SETFL O_NONBLOCK (read end)", fcntl(fds[0], F_SETFL, O_NONBLOCK),
	      0);
	check("empty read", read(fds[0], buf, 1), -EAGAIN);
	memset(buf, 'f', 4096);
	while ((ret = write(fds[1], buf, 4096)) == 4096 && ++n < 1000)
		total += ret;
	check("fill ends with -EAGAIN", ret, -EAGAIN);
	check("64 KiB fill", total, 65536);
	check("write 1 byte into a full pipe", write(fds[1], buf, 1), -EAGAIN);
	check("F_SETFL 0", fcntl(fds[0], F_SETFL, 0), 0);
	check("F_GETFL blocking again", fcntl(fds[0], F_GETFL, 0) & O_NONBLOCK, 0);
	total = 0;
	while (total < 65536 && (ret = read(fds[0], buf, sizeof(buf))) > 0)
		total += ret;
	check("drain 64 KiB", total, 65536);
	check("empty again", fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0 &&
	      read(fds[0], buf, 1) == -EAGAIN, 1);
	close(fds[0]);
	close(fds[1]);
}

static int poll1(int fd, short events, int timeout)
{
	struct pollfd p = { fd, events, 0 };
	int ret = poll(&p, 1, timeout);

	return ret < 0 ? ret : p.revents;
}

static void polling(void)
{
	int fds[2], pid;
	long ret;

	check("pipe", pipe(fds), 0);
	check("empty: read end", poll1(fds[0], POLLIN | POLLOUT, 0), 0);
	check("empty: write end", poll1(fds[1], POLLIN | POLLOUT, 0),
	      POLLOUT);
	write(fds[1], "ab", 2);
	check("bytes: POLLIN", poll1(fds[0], POLLIN, 0), POLLIN);
	fcntl(fds[1], F_SETFL, O_NONBLOCK);
	memset(buf, 'p', sizeof(buf));
	while ((ret = write(fds[1], buf, 4096)) > 0)
		;
	check("full: no POLLOUT", poll1(fds[1], POLLOUT, 0), 0);
	close(fds[1]);
	check("writer gone, bytes left: POLLIN|POLLHUP", poll1(fds[0], POLLIN, 0),
	      POLLIN | POLLHUP);
	while (read(fds[0], buf, sizeof(buf)) > 0)
		;
	check("writer gone, drained: POLLHUP", poll1(fds[0], POLLIN, 0),
	      POLLHUP);
	close(fds[0]);

	check("pipe", pipe(fds), 0);
	close(fds[0]);
	check("reader gone: POLLOUT|POLLERR", poll1(fds[1], POLLOUT, 0),
	      POLLOUT | POLLERR);
	close(fds[1]);

	check("pipe", pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		write(fds[1], "w", 1);
		exit_group(0);
	}
	close(fds[1]);
	check("poll(-1) woken by the child's write", poll1(fds[0], POLLIN, -1) &
	      POLLIN, POLLIN);
	check("child", reap(pid), 0);
	close(fds[0]);
}

#define RECORD 100
#define WRITES 2000

static void atomic_writes(void)
{
	int fds[2], pid[2], mixed = 0, counts[2] = { 0, 0 };
	long n, have = 0;
	static char rec[RECORD];

	check("pipe", pipe(fds), 0);
	for (int w = 0; w < 2; w++) {
		pid[w] = fork();
		if (pid[w] == 0) {
			close(fds[0]);
			memset(rec, 'A' + w, RECORD);
			for (int i = 0; i < WRITES; i++)
				if (write(fds[1], rec, RECORD) != RECORD)
					exit_group(1);
			exit_group(0);
		}
	}
	close(fds[1]);
	/* reassemble the stream into records, whatever the read sizes */
	while ((n = read(fds[0], buf + have, 4000)) > 0) {
		long off = 0;

		have += n;
		for (; have - off >= RECORD; off += RECORD) {
			char c = buf[off];
			int same = 1;

			for (int i = 1; i < RECORD; i++)
				same &= buf[off + i] == c;
			if (!same || (c != 'A' && c != 'B'))
				mixed++;
			else
				counts[c - 'A']++;
		}
		memmove(buf, buf + off, have - off);
		have -= off;
	}
	check("no record mixed", mixed, 0);
	check("writer A's records", counts[0], WRITES);
	check("writer B's records", counts[1], WRITES);
	check("nothing left over", have, 0);
	check("writer A", reap(pid[0]), 0);
	check("writer B", reap(pid[1]), 0);
	close(fds[0]);
}

int main(int argc, char **argv)
{
	int lowest = lowest_free_fd();

	basics();
	pipeline();
	epipe();
	nonblocking_and_fill();
	polling();
	atomic_writes();
	check("no fd left open", lowest_free_fd(), lowest);
	printf("t_pipe: %d checks, %d failed\n", checks, failures);
	return failures;
}
