/*
 * user/tests/t_proc.c - /proc and /sys as Linux programs read them
 * (issue 29 item 7; kernel/fs/proc_files.c, sys_files.c).
 * tests/kernel/test_user_abi.c runs it; it runs on a Linux host as well
 * (as root: it writes sched_rt_runtime_us and puts it back).
 * Exit status: the number of failed checks.
 *
 * Scenario, what must be observable:
 *   1. /proc/self/status: Tgid is getpid(), Pid gettid(); after
 *      sched_setaffinity to CPU 0 alone, "Cpus_allowed:\t1" and
 *      "Cpus_allowed_list:\t0"; a "Mems_allowed:" line (libnuma).
 *   2. /proc/self/exe names this program: readlink names "t_proc",
 *      and opening it opens the ELF file itself ("\177ELF").
 *   3. /proc/cpuinfo has one "processor" line per online CPU: as many
 *      as /sys/devices/system/cpu/online lists and sched_getaffinity
 *      allows at start; /proc/interrupts has RES: and CAL: rows.
 *   4. /proc/stat's ctxt grows across a 1 ms sleep (the sleeper's CPU
 *      switched at least twice); /proc/uptime's first field does not go
 *      back; /proc/cmdline ends in a newline.
 *   5. A file is one snapshot per open: read byte by byte it gives what
 *      one read gave, and lseek(0) reads it again unchanged.
 *   6. sched_rt_runtime_us reads 950000 (Linux's default), takes -1
 *      (then reads -1) and refuses "abc" with -EINVAL; it is put back.
 *   7. /sys/devices/system/node/node0 is a directory.
 *   8. Misuse: unlink of /proc/cpuinfo is -EPERM (and it stays),
 *      /proc/self/exe/x is -ENOTDIR, a write to a read-only generated
 *      file fails.
 */
#include "user/lib/ulib.h"

static int failures;
static char buf[8192], buf2[8192];

static void check(const char *what, long got, long expected)
{
	if (got != expected) {
		failures++;
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

/* slurp - the whole of path into b (NUL-terminated); length or -errno */
static long slurp(const char *path, char *b, size_t size)
{
	long n, total = 0;
	int fd = open(path, O_RDONLY, 0);

	if (fd < 0)
		return fd;
	while ((n = read(fd, b + total, size - 1 - (size_t)total)) > 0)
		total += n;
	close(fd);
	b[total] = '\0';
	return n < 0 ? n : total;
}

/* field - the number after "name" at a line start in text, or -1 */
static long field(const char *text, const char *name)
{
	size_t len = strlen(name);
	long v;

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l)
		if (!strncmp(l, name, len)) {
			char num[24];
			size_t i = 0;

			l += len;
			while (*l == ' ' || *l == '\t' || *l == ':')
				l++;
			while (i + 1 < sizeof(num) && *l && *l != '\n' &&
			       *l != ' ' && *l != '.')
				num[i++] = *l++;
			num[i] = '\0';
			return kstrtol(num, 10, &v) ? -1 : v;
		}
	return -1;
}

static int count_lines(const char *text, const char *prefix)
{
	size_t len = strlen(prefix);
	int n = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l)
		n += !strncmp(l, prefix, len);
	return n;
}

/* cpulist_count - CPUs in a list like "0-3,6" */
static int cpulist_count(const char *s)
{
	int n = 0;

	while (*s && *s != '\n') {
		long a = 0, b;

		while (*s >= '0' && *s <= '9')
			a = a * 10 + (*s++ - '0');
		b = a;
		if (*s == '-') {
			s++;
			b = 0;
			while (*s >= '0' && *s <= '9')
				b = b * 10 + (*s++ - '0');
		}
		n += (int)(b - a + 1);
		if (*s == ',')
			s++;
	}
	return n;
}

static void status(void)
{
	cpu_set_t one = { { 1 } }, old;

	check("sched_getaffinity", sched_getaffinity(0, sizeof(old), &old) > 0, 1);
	check("read /proc/self/status", slurp("/proc/self/status", buf, sizeof(buf)) > 0, 1);
	check("Tgid", field(buf, "Tgid:"), getpid());
	check("Pid", field(buf, "Pid:"), gettid());
	check("a Mems_allowed line", count_lines(buf, "Mems_allowed:\t"), 1);
	check("sched_setaffinity(CPU 0)", sched_setaffinity(0, sizeof(one), &one), 0);
	slurp("/proc/self/status", buf, sizeof(buf));
	check("Cpus_allowed: 1 after pinning to CPU 0",
	      count_lines(buf, "Cpus_allowed:\t1\n"), 1);
	check("Cpus_allowed_list: 0", count_lines(buf, "Cpus_allowed_list:\t0\n"), 1);
	sched_setaffinity(0, sizeof(old), &old);
}

static void exe(void)
{
	long n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	check("readlink /proc/self/exe", n > 6, 1);
	if (n > 6) {
		buf[n] = '\0';
		check("its target names t_proc", strstr(buf, "t_proc") != NULL, 1);
	}
	check("read through /proc/self/exe", slurp("/proc/self/exe", buf, 8), 7);
	check("...is this ELF file", memcmp(buf, "\177ELF", 4), 0);
}

static void cpus(void)
{
	cpu_set_t set;
	int online, allowed = 0;

	check("read /sys/devices/system/cpu/online",
	      slurp("/sys/devices/system/cpu/online", buf2, sizeof(buf2)) > 1, 1);
	online = cpulist_count(buf2);
	sched_getaffinity(0, sizeof(set), &set);
	for (int i = 0; i < 64; i++)
		allowed += (int)(set.bits[0] >> i & 1);
	check("read /proc/cpuinfo", slurp("/proc/cpuinfo", buf, sizeof(buf)) > 0, 1);
	check("processor lines = CPUs online", count_lines(buf, "processor\t:"), online);
	check("CPUs online = CPUs allowed", online, allowed);
	check("read /proc/interrupts", slurp("/proc/interrupts", buf, sizeof(buf)) > 0, 1);
	check("a RES: row", count_lines(buf, " RES:") + count_lines(buf, "RES:"), 1);
	check("a CAL: row", count_lines(buf, " CAL:") + count_lines(buf, "CAL:"), 1);
}

static void counters(void)
{
	struct timespec ms = { 0, NSEC_PER_MSEC };
	long c0, c1, u0, u1;

	slurp("/proc/stat", buf, sizeof(buf));
	check("/proc/stat begins with the cpu line", strncmp(buf, "cpu ", 4), 0);
	c0 = field(buf, "ctxt");
	slurp("/proc/uptime", buf, sizeof(buf));
	u0 = field(buf, "");
	nanosleep(&ms, NULL);
	slurp("/proc/stat", buf, sizeof(buf));
	c1 = field(buf, "ctxt");
	slurp("/proc/uptime", buf, sizeof(buf));
	u1 = field(buf, "");
	check("ctxt read", c0 >= 0, 1);
	check("ctxt grew across a sleep", c1 >= c0 + 2, 1);
	check("uptime read", u0 >= 0, 1);
	check("uptime did not go back", u1 >= u0, 1);
	check("read /proc/cmdline", slurp("/proc/cmdline", buf, sizeof(buf)) > 0, 1);
	check("/proc/cmdline ends in a newline", buf[strlen(buf) - 1], '\n');
}

static void snapshot(void)
{
	long whole, n = 0, r;
	int fd = open("/proc/stat", O_RDONLY, 0);

	check("open /proc/stat", fd >= 0, 1);
	whole = read(fd, buf, sizeof(buf) - 1);
	check("one read", whole > 0, 1);
	check("lseek(0)", lseek(fd, 0, 0), 0);
	while (n < (long)sizeof(buf2) - 1 && (r = read(fd, buf2 + n, 1)) == 1)
		n++;
	check("byte by byte: the same length", n, whole);
	check("byte by byte: the same bytes", memcmp(buf, buf2, (size_t)whole), 0);
	close(fd);
}

/* put - write s to path; the write's result */
static long put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY, 0);
	long ret;

	if (fd < 0)
		return fd;
	ret = write(fd, s, strlen(s));
	close(fd);
	return ret;
}

static void sysctl(void)
{
	const char *rt = "/proc/sys/kernel/sched_rt_runtime_us";

	slurp("/proc/sys/kernel/sched_rt_period_us", buf, sizeof(buf));
	check("sched_rt_period_us", field(buf, ""), 1000000);
	slurp(rt, buf, sizeof(buf));
	check("sched_rt_runtime_us", field(buf, ""), 950000);
	check("write -1", put(rt, "-1\n"), 3);
	slurp(rt, buf, sizeof(buf));
	check("reads -1", strcmp(buf, "-1\n"), 0);
	check("write abc", put(rt, "abc"), -EINVAL);
	check("write 950000 back", put(rt, "950000"), 6);
	slurp(rt, buf, sizeof(buf));
	check("reads 950000 again", field(buf, ""), 950000);
}

int main(int argc, char **argv)
{
	struct stat st;

	(void)argc;
	(void)argv;
	status();
	exe();
	cpus();
	counters();
	snapshot();
	sysctl();
	check("stat node0", stat("/sys/devices/system/node/node0", &st), 0);
	check("node0 is a directory", (st.st_mode & S_IFMT) == S_IFDIR, 1);
	check("unlink /proc/cpuinfo", unlink("/proc/cpuinfo"), -EPERM);
	check("/proc/cpuinfo still there", access("/proc/cpuinfo", 0), 0);
	check("/proc/self/exe/x", open("/proc/self/exe/x", O_RDONLY, 0), -ENOTDIR);
	check("a write to /proc/cpuinfo fails", put("/proc/cpuinfo", "x") < 0, 1);
	if (!failures)
		printf("t_proc: ok\n");
	return failures;
}
