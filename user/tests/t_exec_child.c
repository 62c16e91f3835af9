/*
 * user/tests/t_exec_child.c - the image t_exec (user/tests/t_exec.c)
 * execs: it checks what execve gave it, as its parent described it in
 * the environment (kernel/user/exec.c), and exits with its count of
 * failed checks.  Every check prints what it expected and what it saw.
 *   EXPECT_ARGV=a|b|c   argv exactly (joined with '|'); argc follows;
 *   always:             envp holds EXPECT_ARGV itself, AT_EXECFN is
 *                       EXPECT_EXECFN (default argv[0]), AT_PAGESZ 4096,
 *                       AT_ENTRY is _start, the stack is 16-aligned;
 *   EXPECT_EXE=path     readlink /proc/self/exe;
 *   EXPECT_COMM=name    prctl(PR_GET_NAME) and /proc/self/comm;
 *   EXPECT_PID=n        getpid() and gettid() both n (a non-leader's
 *                       exec takes the thread group's id);
 *   EXPECT_OPEN=n       fd n still open (fstat 0), EXPECT_CLOSED=n
 *                       closed by FD_CLOEXEC (fstat -EBADF);
 *   EXPECT_SIGNALS=1    SIGUSR1 (had a handler) back to SIG_DFL with
 *                       flags 0, SIGUSR2 (SIG_IGN) still ignored,
 *                       SIGTERM still blocked;
 *   EXPECT_THREADS=1    /proc/self/status says one thread;
 *   EXPECT_FPU_RESET=1  MXCSR 0x1f80 and the x87 control word 0x37f,
 *                       the reset values (the parent changed both);
 *   UNLINK=a|b          files the parent made for the exec (#! scripts),
 *                       removed at the end so the tree is as before.
 * Written for Linux's ABI, as t_exec.
 */
#include "user/lib/ulib.h"

extern char _start[];

/* auxv types (System V gABI, Linux's uapi/linux/auxvec.h) */
#define AT_PAGESZ	6
#define AT_ENTRY	9
#define AT_EXECFN	31

static int failures;

static void check(const char *what, long got, long expected)
{
	if (got != expected) {
		failures++;
		printf("FAIL t_exec_child %s: expected %ld, got %ld\n", what,
		       expected, got);
	}
}

static void check_str(const char *what, const char *got, const char *expected)
{
	if (!got || strcmp(got, expected)) {
		failures++;
		printf("FAIL t_exec_child %s: expected \"%s\", got \"%s\"\n", what,
		       expected, got ? got : "(null)");
	}
}

static char **envp;
static unsigned long *auxv;

static const char *getenv(const char *name)
{
	size_t n = strlen(name);

	for (char **e = envp; *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static unsigned long getauxval(unsigned long type)
{
	for (unsigned long *a = auxv; a[0]; a += 2)
		if (a[0] == type)
			return a[1];
	return ~0UL;
}

static long env_num(const char *name)
{
	const char *s = getenv(name);
	long v = 0;

	if (!s)
		return -1;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v;
}

static void check_argv(int argc, char **argv)
{
	const char *want = getenv("EXPECT_ARGV");
	char got[1024];
	size_t n = 0;

	if (!want) {
		check("EXPECT_ARGV in envp", 0, 1);
		return;
	}
	got[0] = '\0';
	for (int i = 0; i < argc; i++)
		n += snprintf(got + n, sizeof(got) - n, "%s%s", i ? "|" : "",
			      argv[i]);
	check_str("argv", got, want);
	check("argv[argc] NULL", (long)argv[argc], 0);
}

static void check_proc(const char *exe, const char *comm)
{
	char buf[256];
	long n;
	int fd;

	if (exe) {
		n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		check_str("/proc/self/exe", buf, exe);
	}
	if (comm) {
		memset(buf, 0, sizeof(buf));
		check("prctl(PR_GET_NAME)", sys_call2(__NR_prctl, PR_GET_NAME, (long)buf), 0);
		check_str("comm", buf, comm);
		fd = open("/proc/self/comm", O_RDONLY, 0);
		n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		buf[n > 0 ? n : 0] = '\0';
		if (n > 0 && buf[n - 1] == '\n')
			buf[n - 1] = '\0';
		check_str("/proc/self/comm", buf, comm);
		if (fd >= 0)
			close(fd);
	}
}

static void check_signals(void)
{
	struct kernel_sigaction act;
	u64 mask = 0;

	sys_call4(__NR_rt_sigaction, SIGUSR1, 0, (long)&act, 8);
	check("SIGUSR1 handler reset to SIG_DFL", (long)act.sa_handler, SIG_DFL);
	check("SIGUSR1 flags cleared", (long)act.sa_flags, 0);
	sys_call4(__NR_rt_sigaction, SIGUSR2, 0, (long)&act, 8);
	check("SIGUSR2 stays SIG_IGN", (long)act.sa_handler, SIG_IGN);
	sys_call4(__NR_rt_sigprocmask, SIG_BLOCK, 0, (long)&mask, 8);
	check("SIGTERM still blocked", !!(mask & (1ULL << (SIGTERM - 1))), 1);
}

static void check_threads(void)
{
	char buf[512];
	int fd = open("/proc/self/status", O_RDONLY, 0);
	long n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	buf[n > 0 ? n : 0] = '\0';
	check("/proc/self/status Threads: 1", strstr(buf, "Threads:\t1\n") != NULL, 1);
	if (fd >= 0)
		close(fd);
}

static void unlink_listed(void)
{
	const char *list = getenv("UNLINK");
	char path[128];

	while (list && *list) {
		size_t n = 0;

		while (list[n] && list[n] != '|' && n < sizeof(path) - 1)
			n++;
		memcpy(path, list, n);
		path[n] = '\0';
		unlink(path);
		list += n + (list[n] == '|');
	}
}

int main(int argc, char **argv)
{
	struct stat st;
	const char *execfn;
	long v;

	envp = argv + argc + 1;
	auxv = (unsigned long *)envp;
	while (*auxv)
		auxv++;
	auxv++;
	check_argv(argc, argv);
	execfn = getenv("EXPECT_EXECFN");
	check_str("AT_EXECFN", (const char *)getauxval(AT_EXECFN),
		  execfn ? execfn : argv[0]);
	check("AT_PAGESZ", (long)getauxval(AT_PAGESZ), 4096);
	check("AT_ENTRY is _start", (long)getauxval(AT_ENTRY), (long)_start);
	check_proc(getenv("EXPECT_EXE"), getenv("EXPECT_COMM"));
	v = env_num("EXPECT_PID");
	if (v >= 0) {
		check("getpid", getpid(), v);
		check("gettid", gettid(), v);
	}
	v = env_num("EXPECT_OPEN");
	if (v >= 0)
		check("kept fd: fstat", fstat((int)v, &st), 0);
	v = env_num("EXPECT_CLOSED");
	if (v >= 0)
		check("FD_CLOEXEC fd: fstat", fstat((int)v, &st), -EBADF);
	if (getenv("EXPECT_SIGNALS"))
		check_signals();
	if (getenv("EXPECT_THREADS"))
		check_threads();
	if (getenv("EXPECT_FPU_RESET")) {
		unsigned int mxcsr = 0;
		unsigned short fcw = 0;

		__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
		__asm__ volatile("fnstcw %0" : "=m"(fcw));
		check("MXCSR after exec", mxcsr, 0x1f80);
		check("x87 control word after exec", fcw, 0x37f);
	}
	unlink_listed();
	printf("t_exec_child: %s (%s)\n", failures ? "FAILED" : "ok",
	       getenv("EXPECT_ARGV") ? getenv("EXPECT_ARGV") : "?");
	return failures;
}
