/*
 * user/tests/t_fork.c - fork, the process tree and wait4 as Linux has
 * them (issue 30 items 1 and 3; kernel/user/fork.c, process_tree.c,
 * wait.c, kernel/mm/dup_mmap.c).  What must be seen:
 *   1. statuses: a child's exit code (0, 1, 3, 255) is status code << 8;
 *      a child killed by SIGKILL or SIGTERM (default action) has the
 *      signal number as status, no core bit; wait4 returns the pid;
 *   2. WNOHANG: 0 while the child lives (it blocks on a pipe), then the
 *      pid once it has ended; -ECHILD with no child, for a pid that is
 *      not a child (ourselves), after the last one is reaped;
 *      wait4(-1) and wait4(0) take any child;
 *   3. memory: the child's writes to the data segment, the stack, brk
 *      and an anonymous mmap are its own (the parent's values stay),
 *      and the parent's writes after the fork are not seen by the
 *      child; a PROT_NONE reservation stays one in the child (mprotect
 *      there succeeds); a MAP_SHARED file mapping is one file: the
 *      child's write is seen by the parent; a read-only private file
 *      mapping has the same bytes;
 *   4. fds: inherited, the offset shared (the child's write moves the
 *      parent's offset), a close in the child leaves the parent's fd;
 *   5. clone flags as glibc's fork passes them: CLONE_CHILD_SETTID
 *      writes the child's tid into the child's memory only,
 *      CLONE_PARENT_SETTID the parent's; a bad child_tidptr or
 *      parent_tidptr is ignored (the fork succeeds, as Linux); bad
 *      flags (CLONE_SIGHAND without CLONE_VM) -EINVAL; a child with exit
 *      signal 0 is seen only by __WCLONE/__WALL (Linux's clone(2)
 *      accepts any low byte: a signal > 64 is never sent);
 *   6. getppid in the child is the parent's pid; an orphaned
 *      grandchild's parent changes away from its dead parent (rtk: to
 *      0, no pid 1 yet; Linux: init or a subreaper) and it is reaped by
 *      nobody (the ktest's snapshot sees its memory back);
 *   7. the FPU/SSE state: a double kept in xmm registers across the
 *      fork is intact in both;
 *   8. bad input: wait4 with bad options -EINVAL, a bad status pointer
 *      -EFAULT (the child is reaped all the same: the next wait4 is
 *      -ECHILD), a bad rusage pointer -EFAULT, rusage zeroed;
 *   9. a small fork bomb (rtk only: Linux exempts root from the limit):
 *      RLIMIT_NPROC lowered to BOMB_LIMIT, fork until -EAGAIN (the
 *      tree's threads are charged to it), every child reaped.  `t_fork bomb` only forks until refused (the system's
 *      USER_THREADS_MAX or this tree's default limit), holds its
 *      children until the ktest (tests/kernel/test_user_fork.c) kills
 *      one of them, then lets the others go and reaps them all.
 * Exit status: the number of failed checks.  It runs unchanged on a
 * Linux host (where 6's new parent is not 0).
 */
#include "user/lib/ulib.h"

static int failures, checks;
/* started by rtk's kernel (getppid 0), not by a Linux shell: the checks
 * of rtk's own choices run only there */
static bool on_rtk;

static void check(const char *what, long got, long expected)
{
	checks++;
	if (got != expected) {
		failures++;
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

/* reap - wait4(pid) and the status; -errno from wait4 as the status */
static int reap(int pid)
{
	int status = -1;
	int ret = wait4(pid, &status, 0, NULL);

	return ret > 0 && (pid <= 0 || ret == pid) ? status : ret;
}

static void exit_statuses(void)
{
	static const int codes[] = { 0, 1, 3, 255 };
	int pid;

	for (unsigned int i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		pid = fork();
		if (pid == 0)
			exit_group(codes[i]);
		check("fork > 0", pid > 0, 1);
		check("exit code status", reap(pid), codes[i] << 8);
	}
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGKILL);
		exit_group(100);
	}
	check("killed by SIGKILL", reap(pid), SIGKILL);
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGTERM);
		exit_group(100);
	}
	check("killed by SIGTERM", reap(pid), SIGTERM);
	pid = fork();
	if (pid == 0)
		for (;;)
			sched_yield();
	check("kill a child", kill(pid, SIGKILL), 0);
	check("the killed child", reap(pid), SIGKILL);
}

static void nohang_and_echild(void)
{
	int fds[2], pid, status = -1, ret;
	char c;

	check("wait4 no child", wait4(-1, &status, 0, NULL), -ECHILD);
	check("wait4 WNOHANG no child", wait4(-1, &status, WNOHANG, NULL),
	      -ECHILD);
	check("pipe", pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		close(fds[1]);
		exit_group(read(fds[0], &c, 1) == 0 ? 7 : 8);
	}
	close(fds[0]);
	check("WNOHANG while it lives", wait4(pid, &status, WNOHANG, NULL), 0);
	check("WNOHANG -1 while it lives", wait4(-1, &status, WNOHANG, NULL), 0);
	check("wait4 on ourselves", wait4(getpid(), &status, 0, NULL), -ECHILD);
	check("wait4 on pid 99999999", wait4(99999999, &status, 0, NULL),
	      -ECHILD);
	close(fds[1]);			/* the child's read sees EOF */
	do
		ret = wait4(pid, &status, WNOHANG, NULL);
	while (ret == 0 && sched_yield() == 0);
	check("WNOHANG after its exit", ret, pid);
	check("its status", status, 7 << 8);
	check("wait4 after the reap", wait4(pid, &status, 0, NULL), -ECHILD);
	pid = fork();
	if (pid == 0)
		exit_group(9);
	check("wait4(0) takes any", reap(0), 9 << 8);
	pid = fork();
	if (pid == 0)
		exit_group(10);
	check("wait4(-1) takes any", reap(-1), 10 << 8);
	pid = fork();
	if (pid == 0)
		exit_group(11);
	check("__WALL sees it", wait4(pid, &status, __WALL, NULL), pid);
	check("__WALL status", status, 11 << 8);
	pid = fork();
	if (pid == 0)
		exit_group(12);
	check("__WCLONE does not see a SIGCHLD child",
	      wait4(pid, &status, __WCLONE | WNOHANG, NULL), -ECHILD);
	check("then wait4 sees it", reap(pid), 12 << 8);
}

static int data_word = 1;

static void memory_is_copied(void)
{
	volatile int stack_word = 1;
	unsigned long brk0 = sys_brk(0), brk1;
	int *anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *none = mmap(NULL, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	int *heap, to_child[2], to_parent[2], pid;
	char c = 0;

	check("mmap anon", mmap_failed(anon), 0);
	check("mmap PROT_NONE", mmap_failed(none), 0);
	brk1 = sys_brk(brk0 + 4096);
	check("brk grows", brk1 >= brk0 + 4096, 1);
	heap = (int *)brk0;
	*heap = 1;
	*anon = 1;
	check("pipe", pipe(to_child), 0);
	check("pipe", pipe(to_parent), 0);
	pid = fork();
	if (pid == 0) {
		int bad = 0;

		data_word = 2;
		stack_word = 2;
		*heap = 2;
		*anon = 2;
		bad |= mprotect(none, 4096, PROT_READ | PROT_WRITE) != 0;
		if (!bad)
			none[0] = 1;	/* the reservation is ours too */
		bad |= sys_brk(0) != brk1;
		write(to_parent[1], "w", 1);	/* written: look now */
		bad |= read(to_child[0], &c, 1) != 1;	/* it wrote 3s */
		bad |= data_word != 2 || stack_word != 2 || *heap != 2 ||
		       *anon != 2;
		exit_group(bad ? 1 : 0);
	}
	check("the child wrote", read(to_parent[0], &c, 1), 1);
	check("parent data after the child's write", data_word, 1);
	check("parent stack after the child's write", stack_word, 1);
	check("parent heap after the child's write", *heap, 1);
	check("parent anon after the child's write", *anon, 1);
	data_word = 3;
	stack_word = 3;
	*heap = 3;
	*anon = 3;
	check("tell the child", write(to_child[1], "x", 1), 1);
	check("the child saw only its own writes", reap(pid), 0);
	check("parent's reservation still PROT_NONE: mprotect works",
	      mprotect(none, 8192, PROT_READ), 0);
	check("parent's reservation not written by the child", none[0], 0);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	munmap(none, 8192);
	munmap(anon, 4096);
	sys_brk(brk0);
}

#define MAPFILE "t_fork.map"

static void file_mappings_are_shared(void)
{
	int fd = open(MAPFILE, O_CREAT | O_RDWR | O_TRUNC, 0644), pid;
	char *shared, *priv;

	check("open map file", fd >= 0, 1);
	check("ftruncate", ftruncate(fd, 4096), 0);
	check("write", write(fd, "hello", 5), 5);
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	priv = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	check("mmap shared", mmap_failed(shared), 0);
	check("mmap private", mmap_failed(priv), 0);
	pid = fork();
	if (pid == 0) {
		int bad = memcmp(priv, "hello", 5) != 0;

		memcpy(shared + 100, "child", 5);
		exit_group(bad);
	}
	check("child read the private mapping", reap(pid), 0);
	check("parent sees the child's MAP_SHARED write",
	      memcmp(shared + 100, "child", 5), 0);
	munmap(shared, 4096);
	munmap(priv, 4096);
	close(fd);
	unlink(MAPFILE);
}

#define FDFILE "t_fork.fd"

static void fds_are_inherited(void)
{
	int fd = open(FDFILE, O_CREAT | O_RDWR | O_TRUNC, 0644), pid;
	char buf[8] = { 0 };

	check("open fd file", fd >= 0, 1);
	check("write abc", write(fd, "abc", 3), 3);
	pid = fork();
	if (pid == 0) {
		int bad = write(fd, "XY", 2) != 2;

		close(fd);		/* ours only */
		exit_group(bad);
	}
	check("child wrote through the fd", reap(pid), 0);
	check("the offset is shared", lseek(fd, 0, SEEK_CUR), 5);
	check("the parent's fd is open", lseek(fd, 0, SEEK_SET), 0);
	check("read back", read(fd, buf, sizeof(buf)), 5);
	check("bytes", memcmp(buf, "abcXY", 5), 0);
	close(fd);
	unlink(FDFILE);
}

static int child_tid_word, parent_tid_word;

static void clone_flags(void)
{
	long pid;
	int status;

	child_tid_word = 0;
	pid = clone_process(CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID |
			    SIGCHLD, NULL, &child_tid_word, 0);
	if (pid == 0)
		exit_group(child_tid_word == gettid() ? 0 : 1);
	check("CLONE_CHILD_SETTID: the child's word is its tid", reap(pid), 0);
	check("CLONE_CHILD_SETTID: the parent's word untouched",
	      child_tid_word, 0);
	pid = clone_process(CLONE_PARENT_SETTID | SIGCHLD, &parent_tid_word,
			    NULL, 0);
	if (pid == 0)
		exit_group(0);
	check("CLONE_PARENT_SETTID: the parent's word is the pid",
	      parent_tid_word, pid);
	check("reap", reap(pid), 0);
	pid = clone_process(CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID |
			    SIGCHLD, NULL, (int *)8, 0);
	if (pid == 0)
		exit_group(13);
	check("a bad child_tidptr: fork succeeds", pid > 0, 1);
	check("and the child runs", reap(pid), 13 << 8);
	pid = clone_process(CLONE_PARENT_SETTID | SIGCHLD, (int *)8, NULL, 0);
	if (pid == 0)
		exit_group(14);
	check("a bad parent_tidptr: fork succeeds", pid > 0, 1);
	check("and the child runs", reap(pid), 14 << 8);
	/* exit signal 0: a "clone" child, seen only with __WALL/__WCLONE */
	pid = clone_process(0, NULL, NULL, 0);
	if (pid == 0)
		exit_group(16);
	check("an exit-signal-0 child: not for plain wait4",
	      wait4(pid, &status, WNOHANG, NULL), -ECHILD);
	check("__WCLONE sees it", wait4(pid, &status, __WCLONE, NULL), pid);
	check("its status", status, 16 << 8);
	check("CLONE_SIGHAND without CLONE_VM",
	      clone_process(CLONE_SIGHAND | SIGCHLD, NULL, NULL, 0), -EINVAL);
	pid = vfork();
	if (pid == 0)
		exit_group(15);
	check("vfork", reap(pid), 15 << 8);
	(void)status;
}

static void parents(void)
{
	int me = getpid(), fds[2], pid, gc = 0;
	char c;

	pid = fork();
	if (pid == 0)
		exit_group(getppid() == me ? 0 : 1);
	check("getppid in the child", reap(pid), 0);
	/* the orphan: the child forks a grandchild and exits; the
	 * grandchild waits for its parent to be gone, reports its new
	 * parent through the pipe, and is reaped by nobody we know */
	check("pipe", pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		int child = getpid();

		if (fork() == 0) {
			int ppid;

			close(fds[0]);
			while ((ppid = getppid()) == child)
				sched_yield();
			write(fds[1], ppid == 0 ? "0" : "L", 1);
			exit_group(0);
		}
		exit_group(0);
	}
	close(fds[1]);
	check("the orphan's parent exits", reap(pid), 0);
	check("the grandchild reports", read(fds[0], &c, 1), 1);
	gc = c == '0' || c == 'L';
	check("its new parent is not the dead one", gc, 1);
	check("no second report, EOF when it is gone", read(fds[0], &c, 1), 0);
	close(fds[0]);
	check("it was never our child", wait4(-1, NULL, WNOHANG, NULL), -ECHILD);
}

static void fpu_survives(void)
{
	double x = 1.5;
	int pid;

	/* x lives in an xmm register across the call (no memory barrier
	 * in between makes the compiler spill it: the asm says xmm) */
	asm volatile("" : "+x"(x));
	pid = fork();
	asm volatile("" : "+x"(x));
	x = x * 3.0;
	asm volatile("" : "+x"(x));
	if (pid == 0)
		exit_group(x == 4.5 ? 0 : 1);
	check("the parent's double", x == 4.5, 1);
	check("the child's double", reap(pid), 0);
}

static void bad_input(void)
{
	int pid, status = 0;
	char ru[144];

	check("wait4 bad options", wait4(-1, &status, 0x100, NULL), -EINVAL);
	pid = fork();
	if (pid == 0)
		exit_group(5);
	check("wait4 bad status pointer", wait4(pid, (int *)8, 0, NULL),
	      -EFAULT);
	check("the child was reaped anyway", wait4(pid, &status, 0, NULL),
	      -ECHILD);
	pid = fork();
	if (pid == 0)
		exit_group(6);
	check("wait4 kernel status pointer",
	      wait4(pid, (int *)0xffff800000000000UL, 0, NULL), -EFAULT);
	pid = fork();
	if (pid == 0)
		exit_group(6);
	check("wait4 bad rusage", wait4(pid, &status, 0, (void *)8), -EFAULT);
	check("status written before the rusage fault", status, 6 << 8);
	pid = fork();
	if (pid == 0)
		exit_group(6);
	memset(ru, 0x55, sizeof(ru));
	check("wait4 with rusage", wait4(pid, &status, 0, ru), pid);
	if (on_rtk)	/* rtk keeps no usage: zeros (Linux: the figures) */
		check("rusage zeroed", ru[0] == 0 && ru[8] == 0 && ru[143] == 0,
		      1);
	while (wait4(-1, NULL, 0, NULL) > 0)
		;
}

#define BOMB_LIMIT 24

/* fork_until_refused - children block reading fds[0] until its writer
 * closes; returns how many were made, *err the refusal */
static int fork_until_refused(int fds[2], int max, int *err)
{
	int n = 0, pid;
	char c;

	for (;;) {
		pid = fork();
		if (pid == 0) {
			close(fds[1]);
			exit_group(read(fds[0], &c, 1) == 0 ? 0 : 1);
		}
		if (pid < 0) {
			*err = pid;
			return n;
		}
		if (++n == max) {
			*err = 0;
			return n;
		}
	}
}

static int reap_all(int *bad)
{
	int status, n = 0;

	while (wait4(-1, &status, 0, NULL) > 0) {
		n++;
		if (status != 0 && status != SIGKILL)
			(*bad)++;
	}
	return n;
}

static void small_bomb(void)
{
	struct rlimit64 old, lim = { BOMB_LIMIT, 0 };
	int fds[2], n, err = 0, bad = 0;

	if (!on_rtk)	/* Linux exempts root from RLIMIT_NPROC: no bomb */
		return;
	check("getrlimit", getrlimit(RLIMIT_NPROC, &old), 0);
	lim.rlim_max = old.rlim_max;
	check("setrlimit NPROC", setrlimit(RLIMIT_NPROC, &lim), 0);
	check("pipe", pipe(fds), 0);
	n = fork_until_refused(fds, 100000, &err);
	check("the bomb is refused with -EAGAIN", err, -EAGAIN);
	printf("t_fork: bomb: %d children before -EAGAIN\n", n);
	check("children at the limit (this process counts)", n,
	      BOMB_LIMIT - 1);
	close(fds[0]);
	close(fds[1]);
	check("every child reaped", reap_all(&bad), n);
	check("each exited 0", bad, 0);
	check("setrlimit back", setrlimit(RLIMIT_NPROC, &old), 0);
}

/* big_bomb - `t_fork bomb [unlimited]`: fork until refused at the
 * default limits (or with RLIMIT_NPROC unlimited), hold the children (blocked on the pipe) until the ktest kills one,
 * then let the rest go and reap every one. */
static int big_bomb(bool unlimited)
{
	struct rlimit64 inf = { RLIM64_INFINITY, RLIM64_INFINITY };
	int fds[2], n, err = 0, bad = 0, status = 0, pid;

	if (unlimited)	/* only the system's USER_THREADS_MAX is left */
		check("setrlimit NPROC infinity", setrlimit(RLIMIT_NPROC, &inf),
		      0);
	check("pipe", pipe(fds), 0);
	n = fork_until_refused(fds, 100000, &err);
	printf("t_fork: big bomb: %d children, then %d\n", n, err);
	check("refused with -EAGAIN", err, -EAGAIN);
	pid = wait4(-1, &status, 0, NULL);	/* the ktest's kill */
	check("a child was killed", status, SIGKILL);
	close(fds[0]);
	close(fds[1]);
	check("every child reaped", reap_all(&bad) + (pid > 0), n);
	check("each exited 0", bad, 0);
	printf("t_fork: %d checks, %d failed\n", checks, failures);
	return failures;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "bomb"))
		return big_bomb(argc > 2 && !strcmp(argv[2], "unlimited"));
	on_rtk = getppid() == 0;
	exit_statuses();
	nohang_and_echild();
	memory_is_copied();
	file_mappings_are_shared();
	fds_are_inherited();
	clone_flags();
	parents();
	fpu_survives();
	bad_input();
	small_bomb();
	printf("t_fork: %d checks, %d failed\n", checks, failures);
	return failures;
}
