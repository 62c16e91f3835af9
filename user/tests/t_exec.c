/*
 * user/tests/t_exec.c - execve(2) and execveat(2) from user space, as
 * Linux has them (issue 30 item 2; kernel/user/exec.c, binfmt_script.c).
 * There is no fork yet, so each run ends by exec'ing t_exec_child
 * (user/tests/t_exec_child.c), which checks what it was given against
 * the EXPECT_* variables of its environment and exits with its failure
 * count: the process's exit status is the new image's.  Before that,
 * t_exec exits with its own failure count if a check failed.  Modes
 * (argv[1]):
 *   static    an absolute path: argv (with a space and an empty string),
 *             envp, AT_EXECFN, /proc/self/exe, comm, the pid, the FPU
 *             control words back to their reset values;
 *   relative  "t_exec_child" from the cwd "/";
 *   pie       /t_pie_interp (a PIE with PT_INTERP; user/pie/t_pie.c
 *             checks its own auxv); exit 0 means both images passed;
 *   empty     execveat(fd, "", AT_EMPTY_PATH): the fd's file, named
 *             /dev/fd/N (AT_EXECFN, comm N);
 *   errors    every failing exec returns Linux's errno and this image
 *             goes on (a canary in memory and the fds are checked after
 *             each): -EFAULT (bad path, argv or envp pointer, argv
 *             running into unmapped memory), -ENOENT, -EACCES
 *             (directory, device, no x bit), -ENOEXEC, -ELOOP (symlink
 *             loop, AT_SYMLINK_NOFOLLOW), -ENAMETOOLONG, -E2BIG (one
 *             huge string, many small ones: past Linux's limits too),
 *             -EINVAL (execveat flags),
 *             -ENOTDIR; then a good exec;
 *   fds       an O_CLOEXEC fd is closed in the new image, a plain one
 *             and one whose FD_CLOEXEC was cleared are kept;
 *   signals   a handled signal is SIG_DFL after exec, an ignored one
 *             stays ignored, the blocked mask stays;
 *   threads   three threads; two block in FUTEX_WAIT, a non-leader
 *             execs: the others are killed, the new image has one
 *             thread and the old pid (getpid == gettid);
 *   script    #! scripts: an argument with inner blanks, 5 nested
 *             levels, then the errors: 6 levels -ELOOP, a missing
 *             interpreter -ENOENT, "#!" alone -ENOEXEC.
 * It is written to pass on Linux too (same ABI, files at "/", so as
 * root in a scratch root); the expectations come from Linux 6.1's
 * fs/exec.c and binfmt_script.c, not from a run there yet.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

#define CHILD "/t_exec_child"

static int failures;
static volatile unsigned long canary = 0x5eed5eedUL;

static void check(const char *what, long got, long expected)
{
	if (got != expected) {
		failures++;
		printf("FAIL t_exec %s: expected %ld, got %ld\n", what, expected,
		       got);
	}
}

/* the raw calls: argv and envp as plain pointers, so bad ones can be
 * passed */
static long execve(const char *path, const void *argv, const void *envp)
{
	return sys_call3(__NR_execve, (long)path, (long)argv, (long)envp);
}

static long execveat(int fd, const char *path, const void *argv,
		     const void *envp, int flags)
{
	return sys_call5(__NR_execveat, fd, (long)path, (long)argv, (long)envp,
			 flags);
}

/* expect_fail - exec must fail with err; this image must be intact. */
static void expect_fail(const char *what, long ret, long err)
{
	check(what, ret, err);
	check("canary intact after a failed exec", (long)canary, 0x5eed5eedL);
}

static void put_file(const char *path, const char *text, int mode)
{
	int fd;

	unlink(path);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
	check("create a test file", fd >= 0, 1);
	if (fd < 0)
		return;
	check("write it", write(fd, text, strlen(text)), (long)strlen(text));
	close(fd);
}

static char env_argv[512], env_exe[160], env_comm[64], env_pid[32],
	env_execfn[160], env_open[32], env_closed[32];

/* __exec_child - execveat(dfd, path, argv, flags) with the environment
 * telling the child what to expect: argv `expect` (NULL: argv), exe,
 * (NULL: not checked), comm, AT_EXECFN (NULL: argv[0]), the pid, and extra (more variables,
 * NULL-terminated, or NULL); returns only if the exec failed. */
static void __exec_child(int dfd, const char *path, int flags,
			 char *const argv[], char *const expect[],
			 const char *exe, const char *comm, const char *execfn,
			 char *const extra[])
{
	char *envp[16];
	int n = 0, len = 0;

	if (!expect)
		expect = argv;
	len = snprintf(env_argv, sizeof(env_argv), "EXPECT_ARGV=");
	for (int i = 0; expect[i]; i++)
		len += snprintf(env_argv + len, sizeof(env_argv) - len, "%s%s",
				i ? "|" : "", expect[i]);
	envp[n++] = env_argv;
	if (exe) {
		snprintf(env_exe, sizeof(env_exe), "EXPECT_EXE=%s", exe);
		envp[n++] = env_exe;
	}
	snprintf(env_comm, sizeof(env_comm), "EXPECT_COMM=%s", comm);
	envp[n++] = env_comm;
	snprintf(env_pid, sizeof(env_pid), "EXPECT_PID=%d", getpid());
	envp[n++] = env_pid;
	if (execfn) {
		snprintf(env_execfn, sizeof(env_execfn), "EXPECT_EXECFN=%s",
			 execfn);
		envp[n++] = env_execfn;
	}
	for (int i = 0; extra && extra[i]; i++)
		envp[n++] = extra[i];
	envp[n] = NULL;
	check("execve of the child", execveat(dfd, path, argv, envp, flags), 0);
}

static void exec_child(const char *path, char *const argv[], const char *exe,
		       const char *comm, const char *execfn, char *const extra[])
{
	__exec_child(AT_FDCWD, path, 0, argv, NULL, exe, comm, execfn, extra);
}

static int run_static(void)
{
	char *argv[] = { CHILD, "one", "two words", "", NULL };
	char *extra[] = { "EXPECT_THREADS=1", "EXPECT_FPU_RESET=1", NULL };
	unsigned int mxcsr = 0x7f80;	/* round toward zero */
	unsigned short fcw = 0x27f;	/* 53-bit precision */

	/* the new image must start from the FPU's reset state */
	__asm__ volatile("ldmxcsr %0" : : "m"(mxcsr));
	__asm__ volatile("fldcw %0" : : "m"(fcw));

	exec_child(CHILD, argv, CHILD, "t_exec_child", NULL, extra);
	return failures;
}

static int run_relative(void)
{
	char *argv[] = { "t_exec_child", "rel", NULL };

	check("chdir /", chdir("/"), 0);
	exec_child("t_exec_child", argv, CHILD, "t_exec_child", NULL, NULL);
	return failures;
}

static int run_pie(void)
{
	char *argv[] = { "/t_pie_interp", "alpha", "beta", NULL };
	char *envp[] = { "HOME=/", "TERM=linux", "RTK_EXEC=yes", NULL };

	check("execve /t_pie_interp", execve(argv[0], argv, envp), 0);
	return failures;
}

static int run_empty_path(void)
{
	char *argv[] = { "fexec", NULL };
	char name[16], path[32];
	int fd = open(CHILD, O_RDONLY, 0);

	check("open the child", fd >= 0, 1);
	snprintf(name, sizeof(name), "%d", fd);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	/* exe not checked: rtk cannot name an fd's file (no dentries) and
	 * says /dev/fd/N; Linux gives the file's path */
	__exec_child(fd, "", AT_EMPTY_PATH, argv, NULL, NULL, name, path, NULL);
	return failures;
}

/* the errors of the header, each followed by a look at this image */
static int run_errors(void)
{
	char *argv[] = { "x", NULL }, *envp[] = { NULL };
	char *bad_argv[] = { "x", (char *)1, NULL };
	char *bad_envp[] = { (char *)0xffff800000000000UL, NULL };
	static char longpath[5000], longname[300];
	char **edge;
	char *big;
	int fd = open("/dev/null", O_RDONLY, 0);

	expect_fail("NULL path", execve(NULL, argv, envp), -EFAULT);
	expect_fail("path at 1", execve((char *)1, argv, envp), -EFAULT);
	expect_fail("argv at 1", execve(CHILD, (char **)1, envp), -EFAULT);
	expect_fail("argv[1] at 1", execve(CHILD, bad_argv, envp), -EFAULT);
	expect_fail("envp[0] in the kernel", execve(CHILD, argv, bad_envp),
		    -EFAULT);
	/* an argv array that runs off its page into unmapped memory */
	edge = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("mmap two pages", mmap_failed(edge), 0);
	if (!mmap_failed(edge)) {
		munmap((char *)edge + 4096, 4096);
		edge = (char **)((char *)edge + 4096) - 1;
		edge[0] = "x";	/* no NULL before the hole */
		expect_fail("argv into unmapped memory",
			    execve(CHILD, edge, envp), -EFAULT);
	}
	expect_fail("missing file", execve("/t_exec.none", argv, envp), -ENOENT);
	expect_fail("empty path", execve("", argv, envp), -ENOENT);
	expect_fail("a directory", execve("/", argv, envp), -EACCES);
	expect_fail("a device", execve("/dev/null", argv, envp), -EACCES);
	expect_fail("a path through a file",
		    execve(CHILD "/x", argv, envp), -ENOTDIR);
	put_file("/t_exec.noexec", "\177ELF", 0644);
	expect_fail("no x bit", execve("/t_exec.noexec", argv, envp), -EACCES);
	unlink("/t_exec.noexec");
	put_file("/t_exec.junk", "not a program\n", 0755);
	expect_fail("not an ELF", execve("/t_exec.junk", argv, envp), -ENOEXEC);
	unlink("/t_exec.junk");
	put_file("/t_exec.empty", "", 0755);
	expect_fail("an empty file", execve("/t_exec.empty", argv, envp),
		    -ENOEXEC);
	unlink("/t_exec.empty");
	symlink("/t_exec.l2", "/t_exec.l1");
	symlink("/t_exec.l1", "/t_exec.l2");
	expect_fail("a symlink loop", execve("/t_exec.l1", argv, envp), -ELOOP);
	unlink("/t_exec.l1");
	unlink("/t_exec.l2");
	symlink(CHILD, "/t_exec.link");
	expect_fail("AT_SYMLINK_NOFOLLOW on a symlink",
		    execveat(AT_FDCWD, "/t_exec.link", argv, envp,
			     AT_SYMLINK_NOFOLLOW), -ELOOP);
	unlink("/t_exec.link");
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[0] = '/';
	expect_fail("path of 5000 bytes", execve(longpath, argv, envp),
		    -ENAMETOOLONG);
	memset(longname, 'b', sizeof(longname) - 1);
	longname[0] = '/';
	expect_fail("a 299-byte name", execve(longname, argv, envp),
		    -ENAMETOOLONG);
	expect_fail("execveat bad flags",
		    execveat(AT_FDCWD, CHILD, argv, envp, 0x1), -EINVAL);
	expect_fail("execveat a bad fd", execveat(99, "t_exec_child", argv, envp,
						  0), -EBADF);
	expect_fail("execveat(AT_EMPTY_PATH) of a directory (the cwd)",
		    execveat(AT_FDCWD, "", argv, envp, AT_EMPTY_PATH), -EACCES);
	/* -E2BIG: 256 KiB of one string (past any limit: Linux's 128 KiB
	 * MAX_ARG_STRLEN, rtk's 32 KiB in all), then 40000 small ones */
	big = mmap(NULL, 1 << 18, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("mmap 256 KiB", mmap_failed(big), 0);
	if (!mmap_failed(big)) {
		char *huge_argv[] = { "x", big, NULL };
		char **many;

		memset(big, 'z', (1 << 18) - 1);
		big[(1 << 18) - 1] = '\0';
		expect_fail("a 256 KiB argument",
			    execve(CHILD, huge_argv, envp), -E2BIG);
		expect_fail("a 256 KiB variable",
			    execve(CHILD, argv, huge_argv + 1), -E2BIG);
		munmap(big, 1 << 18);
		/* 120000 arguments of 11 bytes with their pointers: 2.3 MB,
		 * past Linux's quarter of an 8 MiB stack, and rtk's 32 KiB */
		many = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		check("mmap 1 MiB", mmap_failed(many), 0);
		if (!mmap_failed(many)) {
			for (int i = 0; i < 120000; i++)
				many[i] = "0123456789";
			many[120000] = NULL;
			expect_fail("120000 arguments",
				    execve(CHILD, many, envp), -E2BIG);
			munmap(many, 1 << 20);
		}
	}
	{
		struct stat st;

		check("fds survive failed execs", fstat(fd, &st), 0);
	}
	close(fd);
	if (failures)
		return failures;
	{
		char *good[] = { CHILD, "after-errors", NULL };

		exec_child(CHILD, good, CHILD, "t_exec_child", NULL, NULL);
	}
	return failures;
}

static int run_fds(void)
{
	char *argv[] = { CHILD, "fds", NULL };
	char *extra[] = { env_open, env_closed, "EXPECT_KEPT2=1", NULL };
	int cloexec = open("/dev/null", O_RDONLY | O_CLOEXEC, 0);
	int kept = open("/dev/null", O_RDONLY, 0);
	int cleared = open("/dev/null", O_RDONLY | O_CLOEXEC, 0);

	check("open three fds", cloexec >= 0 && kept >= 0 && cleared >= 0, 1);
	check("F_GETFD of the O_CLOEXEC fd", fcntl(cloexec, F_GETFD, 0),
	      FD_CLOEXEC);
	check("F_SETFD 0", fcntl(cleared, F_SETFD, 0), 0);
	close(kept);	/* the kept one is checked through `cleared` */
	snprintf(env_open, sizeof(env_open), "EXPECT_OPEN=%d", cleared);
	snprintf(env_closed, sizeof(env_closed), "EXPECT_CLOSED=%d", cloexec);
	exec_child(CHILD, argv, CHILD, "t_exec_child", NULL, extra);
	return failures;
}

static void handler(int sig)
{
}

static int run_signals(void)
{
	char *argv[] = { CHILD, "signals", NULL };
	char *extra[] = { "EXPECT_SIGNALS=1", NULL };
	struct kernel_sigaction act = { 0 };
	u64 mask = 1ULL << (SIGTERM - 1);

	act.sa_handler = (unsigned long)handler;
	act.sa_flags = 0x04000000;	/* SA_RESTORER, as glibc sets it */
	check("rt_sigaction(SIGUSR1, handler)",
	      sys_call4(__NR_rt_sigaction, SIGUSR1, (long)&act, 0, 8), 0);
	act.sa_handler = SIG_IGN;
	check("rt_sigaction(SIGUSR2, SIG_IGN)",
	      sys_call4(__NR_rt_sigaction, SIGUSR2, (long)&act, 0, 8), 0);
	check("block SIGTERM",
	      sys_call4(__NR_rt_sigprocmask, SIG_BLOCK, (long)&mask, 0, 8), 0);
	exec_child(CHILD, argv, CHILD, "t_exec_child", NULL, extra);
	return failures;
}

static u32 never;	/* the futex nobody wakes */
static volatile int waiters_ready;

static void *waiter(void *arg)
{
	__atomic_fetch_add(&waiters_ready, 1, __ATOMIC_SEQ_CST);
	for (;;)
		futex(&never, FUTEX_WAIT, 0, NULL, NULL, 0);
	return arg;
}

static void *execer(void *arg)
{
	char *argv[] = { CHILD, "threads", NULL };
	char *extra[] = { "EXPECT_THREADS=1", NULL };

	/* the other two are on their way into FUTEX_WAIT (or in it: the
	 * kill finds them either way) */
	while (__atomic_load_n(&waiters_ready, __ATOMIC_SEQ_CST) < 1)
		sched_yield();
	exec_child(CHILD, argv, CHILD, "t_exec_child", NULL, extra);
	printf("FAIL t_exec threads: execve from a thread returned\n");
	exit_group(1);
	return arg;
}

static int run_threads(void)
{
	pthread_t w, e;

	check("pthread_create waiter", pthread_create(&w, NULL, waiter, NULL), 0);
	check("pthread_create execer", pthread_create(&e, NULL, execer, NULL), 0);
	for (;;)	/* the leader blocks too: the exec kills it */
		futex(&never, FUTEX_WAIT, 0, NULL, NULL, 0);
	return failures;
}

#define S(n) "/t_exec.s" #n

static int run_script(void)
{
	char *argv[] = { "s5name", "A", "B", NULL };
	char *envp[] = { NULL };
	char *expect[] = { CHILD, "-x  y", S(1), S(2), S(3), S(4), S(5), "A",
			   "B", NULL };
	char *extra[] = { "UNLINK=" S(1) "|" S(2) "|" S(3) "|" S(4) "|" S(5),
			  NULL };
	char *one[] = { "x", NULL };

	/* an argument keeps its inner blanks, loses the trailing ones */
	put_file(S(1), "#! \t" CHILD " -x  y \t\nignored\n", 0755);
	put_file(S(2), "#!" S(1) "\n", 0755);
	put_file(S(3), "#!" S(2) "\n", 0755);
	put_file(S(4), "#!" S(3) "\n", 0755);
	put_file(S(5), "#!" S(4) "\n", 0755);
	put_file(S(6), "#!" S(5) "\n", 0755);
	expect_fail("6 nested scripts", execve(S(6), one, envp), -ELOOP);
	unlink(S(6));
	put_file("/t_exec.nointerp", "#!/t_exec.missing arg\n", 0755);
	expect_fail("a missing interpreter",
		    execve("/t_exec.nointerp", one, envp), -ENOENT);
	unlink("/t_exec.nointerp");
	put_file("/t_exec.blank", "#!  \n", 0755);
	expect_fail("\"#!\" and blanks", execve("/t_exec.blank", one, envp),
		    -ENOEXEC);
	unlink("/t_exec.blank");
	put_file("/t_exec.dirint", "#!/dev\n", 0755);
	expect_fail("a directory as interpreter",
		    execve("/t_exec.dirint", one, envp), -EACCES);
	unlink("/t_exec.dirint");
	if (failures)
		return failures;
	/* 5 levels: argv is the interpreter, its argument, each script's
	 * path innermost first, then argv[1..]; comm and AT_EXECFN are the
	 * script's, /proc/self/exe the interpreter's */
	__exec_child(AT_FDCWD, S(5), 0, argv, expect, CHILD, "t_exec.s5", S(5),
		     extra);
	return failures;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "static";

	if (!strcmp(mode, "static"))
		return run_static();
	if (!strcmp(mode, "relative"))
		return run_relative();
	if (!strcmp(mode, "pie"))
		return run_pie();
	if (!strcmp(mode, "empty"))
		return run_empty_path();
	if (!strcmp(mode, "errors"))
		return run_errors();
	if (!strcmp(mode, "fds"))
		return run_fds();
	if (!strcmp(mode, "signals"))
		return run_signals();
	if (!strcmp(mode, "threads"))
		return run_threads();
	if (!strcmp(mode, "script"))
		return run_script();
	printf("t_exec: unknown mode %s\n", mode);
	return 100;
}
