/*
 * user/tests/t_socket.c - socketpair(AF_UNIX, SOCK_STREAM) and poll as
 * Linux has them (issue 29 item 3; kernel/fs/af_unix.c, pipe_ring.c,
 * poll.c), the calls Debian's `hackbench -T` makes.  What must be seen:
 *   1. a pair is two fds, S_IFSOCK, O_RDWR; lseek and pread64 -ESPIPE;
 *      SOCK_CLOEXEC sets FD_CLOEXEC on both, SOCK_NONBLOCK O_NONBLOCK;
 *   2. a read returns what is there (partial reads), in both directions,
 *      in order across writes;
 *   3. O_NONBLOCK (SOCK_NONBLOCK or F_SETFL): an empty read -EAGAIN, a
 *      write into a full ring -EAGAIN after the bytes that fitted;
 *   4. full_ring_blocks_writer: a blocking write of WRITE_BIG bytes,
 *      several times any ring's size (rtk's 64 KiB, Linux's ~208 KiB
 *      send buffer), must sleep while full and be woken by the reader
 *      thread draining it; every byte arrives, in order;
 *   5. EOF and EPIPE: the peer closed, read drains then returns 0, write
 *      -EPIPE (rtk has no SIGPIPE yet: on Linux this would kill us);
 *   6. poll: timeout 0 answers at once (POLLOUT ready, POLLIN not);
 *      a positive timeout expires after at least its time; timeout -1
 *      sleeps until another thread writes (poll_blocks_until_write);
 *      POLLHUP | POLLIN once the peer is closed; POLLNVAL for a closed
 *      fd, revents 0 for fd -1; with several fds only the ready one
 *      counts; a regular file and /dev/null are always ready; ppoll's
 *      timespec and sigsetsize checks;
 *   7. bad input: -EFAULT for NULL, unmapped and kernel sv pointers and
 *      for a bad pollfd array, -EINVAL for nfds above RLIMIT_NOFILE and
 *      unknown type flags, -EAFNOSUPPORT, -EOPNOTSUPP (AF_INET),
 *      -EPROTONOSUPPORT, -ESOCKTNOSUPPORT, -EINVAL (type >= SOCK_MAX);
 *      no fd is left behind by a refused call;
 *   8. stress, hackbench's pattern in small: 4 senders each write 400
 *      100-byte messages to each of 4 receivers' sockets (several
 *      writers on one socket); every thread first waits at hackbench's
 *      start barrier, poll([{wakefd, POLLIN}], 1, -1), until the main
 *      thread writes one byte; each sender and receiver counts exactly
 *      its bytes.  `t_socket hackbench GROUPS LOOPS` runs only this, at
 *      hackbench -T's size (20 + 20 threads a group), and prints its time.
 * tests/kernel/test_user_socket.c runs it and checks the kernel's memory
 * is back after it exits.  It runs unchanged on a Linux host too, with
 * SIGPIPE ignored (`trap '' PIPE`; Linux's write -EPIPE also raises it):
 * every check passes there, which is how the expected values were
 * checked.  Exit status: the number of failed checks.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

static int failures, checks;

static void check(const char *what, long got, long expected)
{
	__atomic_fetch_add(&checks, 1, __ATOMIC_RELAXED);
	if (got != expected) {
		__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

static char buf[8192];

static s64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* the lowest free fd, to see that nothing was left open */
static int lowest_free_fd(void)
{
	int fd = dup(0);

	close(fd);
	return fd;
}

static void pair_basics(void)
{
	struct stat st;
	int sv[2] = { -1, -1 };

	check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	check("sv[0] lowest fd", sv[0], 3);
	check("sv[1] next fd", sv[1], 4);
	check("fstat(sv[0])", fstat(sv[0], &st), 0);
	check("S_IFSOCK", st.st_mode & S_IFMT, S_IFSOCK);
	check("O_RDWR", fcntl(sv[1], F_GETFL, 0) & O_ACCMODE, O_RDWR);
	check("no O_NONBLOCK", fcntl(sv[1], F_GETFL, 0) & O_NONBLOCK, 0);
	check("no FD_CLOEXEC", fcntl(sv[0], F_GETFD, 0), 0);
	check("lseek -ESPIPE", lseek(sv[0], 0, SEEK_SET), -ESPIPE);
	check("pread64 -ESPIPE", pread64(sv[0], buf, 1, 0), -ESPIPE);
	check("close both", close(sv[0]) | close(sv[1]), 0);
	check("protocol 1", socketpair(AF_UNIX, SOCK_STREAM, AF_UNIX, sv), 0);
	close(sv[0]);
	close(sv[1]);
	check("SOCK_CLOEXEC|SOCK_NONBLOCK",
	      socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			 0, sv), 0);
	check("FD_CLOEXEC sv[0]", fcntl(sv[0], F_GETFD, 0), FD_CLOEXEC);
	check("FD_CLOEXEC sv[1]", fcntl(sv[1], F_GETFD, 0), FD_CLOEXEC);
	check("O_NONBLOCK sv[1]", fcntl(sv[1], F_GETFL, 0) & O_NONBLOCK,
	      O_NONBLOCK);
	close(sv[0]);
	close(sv[1]);
	check("all closed", lowest_free_fd(), 3);
}

static void partial_reads(void)
{
	int sv[2];

	check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	check("write 5", write(sv[0], "hello", 5), 5);
	check("read 100 gets 5", read(sv[1], buf, 100), 5);
	check("bytes", memcmp(buf, "hello", 5), 0);
	check("write 10", write(sv[0], "0123456789", 10), 10);
	check("write 3", write(sv[0], "abc", 3), 3);
	check("read 4", read(sv[1], buf, 4), 4);
	check("read 4 bytes", memcmp(buf, "0123", 4), 0);
	check("read the rest across writes", read(sv[1], buf, 100), 9);
	check("rest bytes", memcmp(buf, "456789abc", 9), 0);
	check("other way: write", write(sv[1], "back", 4), 4);
	check("other way: read", read(sv[0], buf, 100), 4);
	check("other way: bytes", memcmp(buf, "back", 4), 0);
	check("write 0", write(sv[0], buf, 0), 0);
	close(sv[0]);
	close(sv[1]);
}

static void nonblocking(void)
{
	long n, total = 0;
	int sv[2];

	check("socketpair NONBLOCK",
	      socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv), 0);
	check("empty read -EAGAIN", read(sv[0], buf, 1), -EAGAIN);
	while ((n = write(sv[0], buf, sizeof(buf))) > 0)
		total += n;
	check("full: write -EAGAIN", n, -EAGAIN);
	check("full: something was written", total > 0, 1);
	check("full: 1-byte write -EAGAIN", write(sv[0], "x", 1), -EAGAIN);
	n = 0;
	while (read(sv[1], buf, sizeof(buf)) > 0)
		n++;
	check("drained: read -EAGAIN", read(sv[1], buf, 1), -EAGAIN);
	check("room again: write", write(sv[0], "x", 1), 1);
	close(sv[0]);
	close(sv[1]);
	check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	check("F_SETFL O_NONBLOCK", fcntl(sv[1], F_SETFL, O_NONBLOCK), 0);
	check("read -EAGAIN after F_SETFL", read(sv[1], buf, 1), -EAGAIN);
	close(sv[0]);
	close(sv[1]);
}

#define WRITE_BIG (1024 * 1024)
static unsigned char big[WRITE_BIG];

struct drain {
	int fd;
	long got;		/* bytes read */
	long bad;		/* bytes not as written */
};

static void *drainer(void *arg)
{
	struct drain *d = arg;
	long n;

	while (d->got < WRITE_BIG) {
		n = read(d->fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		for (long i = 0; i < n; i++)
			d->bad += buf[i] != (char)big[d->got + i];
		d->got += n;
	}
	return NULL;
}

/* full_ring_blocks_writer - scenario: main writes WRITE_BIG bytes in one
 * blocking call; the ring holds a fraction of that, so the write must
 * sleep on a full ring (several times) and only the drainer thread's
 * reads wake it.  Forced by the sizes, not by timing. */
static void full_ring_blocks_writer(void)
{
	struct drain d = { 0 };
	pthread_t th;
	int sv[2];

	for (long i = 0; i < WRITE_BIG; i++)
		big[i] = (unsigned char)(i * 7 % 251);
	check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	d.fd = sv[1];
	check("pthread_create", pthread_create(&th, NULL, drainer, &d), 0);
	check("blocking write of 1 MiB", write(sv[0], big, WRITE_BIG),
	      WRITE_BIG);
	pthread_join(th, NULL);
	check("drainer got every byte", d.got, WRITE_BIG);
	check("drainer: bytes in order", d.bad, 0);
	close(sv[0]);
	close(sv[1]);
}

static void eof_and_epipe(void)
{
	int sv[2];

	check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	check("write before close", write(sv[1], "abc", 3), 3);
	check("close the peer", close(sv[1]), 0);
	check("read drains", read(sv[0], buf, 100), 3);
	check("then EOF", read(sv[0], buf, 100), 0);
	check("EOF again", read(sv[0], buf, 100), 0);
	check("write: -EPIPE", write(sv[0], "x", 1), -EPIPE);
	close(sv[0]);
}

struct poke {
	int fd;
	int go;			/* atomic: main is about to poll */
};

static void *poker(void *arg)
{
	struct poke *p = arg;

	while (!__atomic_load_n(&p->go, __ATOMIC_ACQUIRE))
		sched_yield();
	write(p->fd, "!", 1);
	return NULL;
}

/* poll_blocks_until_write - scenario: main polls sv[0] for POLLIN with
 * timeout -1 (then 60 s); a thread writes one byte to sv[1] once main
 * has set go.  Whether main is already asleep when the byte comes is
 * timing (likely: the thread must first be scheduled and see go); the
 * answer must be the same either way. */
static void poll_blocks_until_write(int timeout)
{
	struct poke p = { 0 };
	struct pollfd pfd;
	pthread_t th;
	int sv[2];
	s64 t0;

	check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	p.fd = sv[1];
	check("pthread_create", pthread_create(&th, NULL, poker, &p), 0);
	pfd.fd = sv[0];
	pfd.events = POLLIN;
	pfd.revents = 0;
	t0 = now_ns();
	__atomic_store_n(&p.go, 1, __ATOMIC_RELEASE);
	check("poll woken by the writer", poll(&pfd, 1, timeout), 1);
	check("revents POLLIN", pfd.revents, POLLIN);
	if (timeout > 0)
		check("woken before the timeout",
		      now_ns() - t0 < (s64)timeout * NSEC_PER_MSEC, 1);
	pthread_join(th, NULL);
	check("the byte", read(sv[0], buf, 10), 1);
	close(sv[0]);
	close(sv[1]);
}

static void poll_cases(void)
{
	struct pollfd pfd[3];
	struct timespec ts;
	int sv[2], sv2[2], fd;
	u64 mask = 0;
	s64 t0;

	check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pfd[0] = (struct pollfd){ .fd = sv[0], .events = POLLIN };
	check("timeout 0, empty: 0", poll(pfd, 1, 0), 0);
	check("timeout 0: revents 0", pfd[0].revents, 0);
	pfd[0].events = POLLIN | POLLOUT;
	check("POLLOUT ready", poll(pfd, 1, 0), 1);
	check("revents POLLOUT", pfd[0].revents, POLLOUT);
	pfd[0].events = POLLIN;
	t0 = now_ns();
	check("timeout 50 ms: 0", poll(pfd, 1, 50), 0);
	check("slept at least 50 ms", now_ns() - t0 >= 50 * NSEC_PER_MSEC, 1);
	check("write 1", write(sv[1], "y", 1), 1);
	check("POLLIN after a write", poll(pfd, 1, -1), 1);
	check("revents POLLIN", pfd[0].revents, POLLIN);
	check("POLLRDNORM too", poll(&(struct pollfd){ .fd = sv[0],
		.events = POLLRDNORM }, 1, 0), 1);
	read(sv[0], buf, 1);

	/* several fds, one ready; a negative fd is skipped */
	check("socketpair 2", socketpair(AF_UNIX, SOCK_STREAM, 0, sv2), 0);
	check("write on pair 2", write(sv2[1], "z", 1), 1);
	pfd[0] = (struct pollfd){ .fd = sv[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = -1, .events = POLLIN };
	pfd[2] = (struct pollfd){ .fd = sv2[0], .events = POLLIN };
	check("3 fds, 1 ready", poll(pfd, 3, -1), 1);
	check("fd 0 not ready", pfd[0].revents, 0);
	check("fd -1 revents 0", pfd[1].revents, 0);
	check("fd 2 POLLIN", pfd[2].revents, POLLIN);
	close(sv2[0]);
	close(sv2[1]);

	/* POLLNVAL for a closed fd, even with events 0 */
	pfd[0] = (struct pollfd){ .fd = sv2[0], .events = 0 };
	check("closed fd counts", poll(pfd, 1, 0), 1);
	check("POLLNVAL", pfd[0].revents, POLLNVAL);

	/* files without a poll operation are always ready */
	fd = open("/dev/null", O_RDWR, 0);
	pfd[0] = (struct pollfd){ .fd = fd, .events = POLLIN | POLLOUT };
	check("/dev/null ready", poll(pfd, 1, -1), 1);
	check("/dev/null IN|OUT", pfd[0].revents, POLLIN | POLLOUT);
	close(fd);
	fd = open("/t_socket.tmp", O_CREAT | O_RDWR, 0644);
	pfd[0] = (struct pollfd){ .fd = fd, .events = POLLIN };
	check("regular file ready", poll(pfd, 1, -1), 1);
	check("regular file POLLIN", pfd[0].revents, POLLIN);
	close(fd);
	unlink("/t_socket.tmp");
	pfd[0] = (struct pollfd){ .fd = 1, .events = POLLOUT };
	check("console POLLOUT", poll(pfd, 1, 0), 1);

	/* POLLHUP once the peer is gone, reported without asking */
	close(sv[1]);
	pfd[0] = (struct pollfd){ .fd = sv[0], .events = POLLIN };
	check("peer closed: ready", poll(pfd, 1, -1), 1);
	check("POLLIN|POLLHUP", pfd[0].revents, POLLIN | POLLHUP);
	pfd[0].events = 0;
	check("POLLHUP with events 0", poll(pfd, 1, 0), 1);
	check("only POLLHUP", pfd[0].revents, POLLHUP);
	pfd[0].events = POLLRDHUP;
	poll(pfd, 1, 0);
	check("POLLRDHUP asked", pfd[0].revents, POLLRDHUP | POLLHUP);

	/* ppoll */
	pfd[0] = (struct pollfd){ .fd = sv[0], .events = POLLOUT };
	ts = (struct timespec){ 0, 0 };
	check("ppoll ts 0", ppoll(pfd, 1, &ts, NULL, 0), 1);
	ts.tv_nsec = NSEC_PER_SEC;
	check("ppoll tv_nsec 1e9", ppoll(pfd, 1, &ts, NULL, 0), -EINVAL);
	ts.tv_nsec = 0;
	check("ppoll sigsetsize 4", ppoll(pfd, 1, &ts, &mask, 4), -EINVAL);
	check("ppoll sigmask, size 8", ppoll(pfd, 1, &ts, &mask, 8), 1);
	check("ppoll NULL ts", ppoll(pfd, 1, NULL, NULL, 0), 1);
	close(sv[0]);
}

static void bad_input(void)
{
	int sv[2];
	struct pollfd pfd = { .fd = 0, .events = POLLIN };

	check("sv NULL", socketpair(AF_UNIX, SOCK_STREAM, 0, NULL), -EFAULT);
	check("sv unmapped", socketpair(AF_UNIX, SOCK_STREAM, 0,
					(int *)0x1000), -EFAULT);
	check("sv kernel", socketpair(AF_UNIX, SOCK_STREAM, 0,
				      (int *)0xffff800000000000UL), -EFAULT);
	check("bad sv wins over bad family", socketpair(99, SOCK_STREAM, 0,
							NULL), -EFAULT);
	check("family 99", socketpair(99, SOCK_STREAM, 0, sv), -EAFNOSUPPORT);
	check("family 0", socketpair(0, SOCK_STREAM, 0, sv), -EAFNOSUPPORT);
	check("AF_INET", socketpair(AF_INET, SOCK_STREAM, 0, sv), -EOPNOTSUPP);
	check("protocol 6", socketpair(AF_UNIX, SOCK_STREAM, 6, sv),
	      -EPROTONOSUPPORT);
	check("type SOCK_RDM", socketpair(AF_UNIX, 4, 0, sv), -ESOCKTNOSUPPORT);
	check("type SOCK_MAX", socketpair(AF_UNIX, 11, 0, sv), -EINVAL);
	check("type flag 0x100", socketpair(AF_UNIX, SOCK_STREAM | 0x100, 0,
					    sv), -EINVAL);
	check("nothing left open", lowest_free_fd(), 3);
	check("poll fds NULL", poll(NULL, 1, 0), -EFAULT);
	check("poll fds kernel", poll((struct pollfd *)0xffff800000000000UL,
				      1, 0), -EFAULT);
	check("poll nfds 0", poll(NULL, 0, 0), 0);
	check("poll nfds > RLIMIT_NOFILE", poll(&pfd, 1u << 20, 0), -EINVAL);
}

/* hackbench -T's shape: per group, senders x receivers threads */
#define STRESS_MAX_GROUPS 4
#define STRESS_MAX_SIDE 20	/* hackbench's 20 senders, 20 receivers */
#define STRESS_MSG 100		/* hackbench's DATASIZE */

struct stress_group {
	int nr;				/* senders, and receivers */
	int loops;			/* messages per sender per receiver */
	int fds[STRESS_MAX_SIDE][2];	/* a receiver's pair: [0] it reads */
	long got[STRESS_MAX_SIDE];	/* bytes each receiver read */
	long sent[STRESS_MAX_SIDE];	/* bytes each sender wrote */
};

struct stress_worker {
	struct stress_group *g;
	int id;
};

static struct stress_group groups[STRESS_MAX_GROUPS];
static struct stress_worker workers[STRESS_MAX_GROUPS][2 * STRESS_MAX_SIDE];
static int wakefd[2];		/* the start barrier: one byte starts all */
static int stress_ready;	/* atomic: threads at the barrier */

static void start_barrier(void)
{
	struct pollfd pfd = { .fd = wakefd[0], .events = POLLIN };

	__atomic_fetch_add(&stress_ready, 1, __ATOMIC_RELEASE);
	check("start barrier poll", poll(&pfd, 1, -1), 1);
}

static void *stress_sender(void *arg)
{
	struct stress_worker *w = arg;
	struct stress_group *g = w->g;
	char msg[STRESS_MSG];

	memset(msg, 'a' + w->id % 26, sizeof(msg));
	start_barrier();
	for (int i = 0; i < g->loops; i++)
		for (int r = 0; r < g->nr; r++)
			if (write(g->fds[r][1], msg, sizeof(msg)) == STRESS_MSG)
				g->sent[w->id] += STRESS_MSG;
	return NULL;
}

static void *stress_receiver(void *arg)
{
	struct stress_worker *w = arg;
	struct stress_group *g = w->g;
	long want = (long)g->nr * g->loops * STRESS_MSG;
	char rbuf[STRESS_MSG];

	start_barrier();
	while (g->got[w->id] < want) {
		long n = read(g->fds[w->id][0], rbuf, sizeof(rbuf));

		if (n <= 0)
			break;
		g->got[w->id] += n;
	}
	return NULL;
}

/* stress - item 8 of the header: nr_groups groups of nr senders and nr
 * receivers, every sender writing loops messages to every receiver of
 * its group; every count is exact.  Returns the run's nanoseconds. */
static s64 stress(int nr_groups, int nr, int loops)
{
	static pthread_t th[STRESS_MAX_GROUPS * 2 * STRESS_MAX_SIDE];
	long want = (long)nr * loops * STRESS_MSG;
	int n = 0;
	s64 t0;

	check("wake socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, wakefd), 0);
	for (int gi = 0; gi < nr_groups; gi++) {
		struct stress_group *g = &groups[gi];

		memset(g, 0, sizeof(*g));
		g->nr = nr;
		g->loops = loops;
		for (int r = 0; r < nr; r++)
			check("stress socketpair",
			      socketpair(AF_UNIX, SOCK_STREAM, 0, g->fds[r]), 0);
		for (int i = 0; i < 2 * nr; i++) {
			struct stress_worker *w = &workers[gi][i];

			w->g = g;
			w->id = i % nr;
			check("stress pthread_create",
			      pthread_create(&th[n++], NULL,
					     i < nr ? stress_receiver
						    : stress_sender, w), 0);
		}
	}
	while (__atomic_load_n(&stress_ready, __ATOMIC_ACQUIRE) < n)
		sched_yield();
	t0 = now_ns();
	check("start", write(wakefd[1], "s", 1), 1);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	t0 = now_ns() - t0;
	for (int gi = 0; gi < nr_groups; gi++) {
		struct stress_group *g = &groups[gi];

		for (int i = 0; i < nr; i++) {
			check("stress: a sender's bytes", g->sent[i], want);
			check("stress: a receiver's bytes", g->got[i], want);
			close(g->fds[i][0]);
			close(g->fds[i][1]);
		}
	}
	close(wakefd[0]);
	close(wakefd[1]);
	__atomic_store_n(&stress_ready, 0, __ATOMIC_RELAXED);
	check("stress: every fd closed", lowest_free_fd(), 3);
	return t0;
}

/* `t_socket hackbench GROUPS LOOPS`: only the stress, at hackbench -T's
 * size (20 senders and 20 receivers a group), with its time. */
static int hackbench(int argc, char **argv)
{
	long nr_groups = 1, loops = 100;
	s64 ns;

	if (argc > 2)
		kstrtol(argv[2], 10, &nr_groups);
	if (argc > 3)
		kstrtol(argv[3], 10, &loops);
	if (nr_groups < 1 || nr_groups > STRESS_MAX_GROUPS || loops < 1)
		die("usage: t_socket hackbench GROUPS(1..%d) LOOPS",
		    STRESS_MAX_GROUPS);
	ns = stress((int)nr_groups, STRESS_MAX_SIDE, (int)loops);
	printf("t_socket hackbench: %ld groups, %ld loops: %ld ms, %d checks, "
	       "%d failed\n", nr_groups, loops, (long)(ns / NSEC_PER_MSEC),
	       checks, failures);
	return failures;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "hackbench"))
		return hackbench(argc, argv);
	pair_basics();
	partial_reads();
	nonblocking();
	full_ring_blocks_writer();
	eof_and_epipe();
	poll_cases();
	poll_blocks_until_write(-1);
	poll_blocks_until_write(60000);
	bad_input();
	stress(1, 4, 400);
	printf("t_socket: %d checks, %d failed\n", checks, failures);
	return failures;
}
