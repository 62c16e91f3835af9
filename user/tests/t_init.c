/*
 * user/tests/t_init.c - a small init for `init=/t_init` (issue 30 item
 * 8; kernel/user/init_process.c): what a first process finds and the
 * calls an init script makes (kernel/fs/sys_mount.c, sys_reboot.c).
 * It checks:
 *   - getpid() is 1, argv is {"/t_init"}, envp HOME=/ TERM=linux;
 *   - fds 0, 1 and 2 are open character devices (/dev/console) and 1
 *     and 2 take a write;
 *   - mount("proc", "/proc", "proc") is 0, also a second time (Linux
 *     stacks a second proc mount), and /proc/self/stat then reads;
 *     sysfs on /sys, devtmpfs (and "udev") on /dev are 0;
 *     an unknown type -ENODEV, a missing target -ENOENT, proc on the
 *     wrong directory -EINVAL, a NULL type -EINVAL;
 *   - umount2: the built-in /proc -EBUSY, bad flags -EINVAL;
 *   - sync() 0; reboot with a bad magic -EINVAL, CAD_ON 0;
 *   - booted as init, the child reaper (kernel/user/process_tree.c): a
 *     grandchild whose parent exited has getppid() 1, and init's
 *     wait4(-1) reaps it with the status it exited with.
 * Then, booted as init (the command line has init=/t_init), it prints
 * "t_init: ok" and powers the machine off with reboot(2)
 * (LINUX_REBOOT_CMD_POWER_OFF: `make init-test` waits for QEMU to end);
 * started by the user_execve suite instead, it exits with its count of
 * failed checks (pid 1 there too: process_spawn_init), and the kernel
 * prints "Attempted to kill init!" and goes on.
 */
#include "user/lib/ulib.h"

static int failures;

static void check(const char *what, long got, long expected)
{
	if (got != expected) {
		failures++;
		printf("FAIL t_init %s: expected %ld, got %ld\n", what, expected,
		       got);
	}
}

static long mount(const char *src, const char *dir, const char *type)
{
	return sys_call5(__NR_mount, (long)src, (long)dir, (long)type, 0, 0);
}

static long reboot(unsigned long magic1, unsigned long magic2,
		   unsigned long cmd)
{
	return sys_call4(__NR_reboot, (long)magic1, (long)magic2, (long)cmd, 0);
}

/* booted_as_init - does /proc/cmdline name us as init=? */
static int booted_as_init(void)
{
	char buf[512];
	int fd = open("/proc/cmdline", O_RDONLY, 0);
	long n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return strstr(buf, "init=/t_init") != NULL;
}

static int has_env(char **envp, const char *s)
{
	for (; *envp; envp++)
		if (!strcmp(*envp, s))
			return 1;
	return 0;
}

/* orphans - the reaper check above.  The grandchild waits on a pipe until
 * init has reaped its parent (by then exit_notify handed it over), then
 * exits with 0x41 when getppid() is 1 (0x42 when not). */
static void orphans(void)
{
	int go[2], child, status = -1, seen = 0;
	char c;

	check("pipe", pipe(go), 0);
	child = fork();
	if (child == 0) {
		if (fork() == 0) {
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				exit_group(0x43);
			exit_group(getppid() == 1 ? 0x41 : 0x42);
		}
		exit_group(0);
	}
	close(go[0]);
	check("fork", child > 0, 1);
	check("the middle process is reaped", wait4(child, &status, 0, NULL),
	      child);
	check("... with status 0", status, 0);
	check("tell the orphan to look", write(go[1], "x", 1), 1);
	close(go[1]);
	seen = wait4(-1, &status, 0, NULL);
	check("init's wait4(-1) reaps the orphan", seen > 0 && seen != child,
	      1);
	check("the orphan saw getppid() 1 (exit 0x41; 0x42: not 1)",
	      WEXITSTATUS(status), 0x41);
	check("no child left", wait4(-1, NULL, WNOHANG, NULL), -ECHILD);
}

int main(int argc, char **argv)
{
	char **envp = argv + argc + 1;
	struct stat st;
	char buf[256];
	int fd;

	check("getpid() is 1", getpid(), 1);
	check("argc", argc, 1);
	check("argv[0] is /t_init", !strcmp(argv[0], "/t_init"), 1);
	check("envp has HOME=/", has_env(envp, "HOME=/"), 1);
	check("envp has TERM=linux", has_env(envp, "TERM=linux"), 1);
	for (int i = 0; i < 3; i++) {
		check("fstat of fd 0/1/2", fstat(i, &st), 0);
		check("fd 0/1/2 is a character device", S_ISCHR(st.st_mode), 1);
	}
	check("write to fd 2", write(2, "t_init: fd 2 works\n", 19), 19);
	check("mount proc", mount("proc", "/proc", "proc"), 0);
	check("mount proc again", mount("proc", "/proc", "proc"), 0);
	fd = open("/proc/self/stat", O_RDONLY, 0);
	check("/proc/self/stat reads", fd >= 0 && read(fd, buf, sizeof(buf)) > 0,
	      1);
	if (fd >= 0)
		close(fd);
	check("mount sysfs", mount("sysfs", "/sys", "sysfs"), 0);
	check("mount devtmpfs", mount("dev", "/dev", "devtmpfs"), 0);
	check("mount udev", mount("udev", "/dev", "udev"), 0);
	check("mount an unknown type", mount("x", "/proc", "nosuchfs"), -ENODEV);
	check("mount on a missing target", mount("proc", "/t_init.none", "proc"),
	      -ENOENT);
	check("mount proc on /sys", mount("proc", "/sys", "proc"), -EINVAL);
	check("mount with a NULL type", mount("proc", "/proc", NULL), -EINVAL);
	check("mount with a bad target pointer",
	      sys_call5(__NR_mount, 0, 1, (long)"proc", 0, 0), -EFAULT);
	check("umount2 /proc", sys_call2(__NR_umount2, (long)"/proc", 0), -EBUSY);
	check("umount2 bad flags", sys_call2(__NR_umount2, (long)"/proc", 0x100),
	      -EINVAL);
	check("sync", sys_call0(__NR_sync), 0);
	check("reboot with a bad magic", reboot(0x12345678, LINUX_REBOOT_MAGIC2,
						LINUX_REBOOT_CMD_POWER_OFF),
	      -EINVAL);
	check("reboot with a bad magic2", reboot(LINUX_REBOOT_MAGIC1, 1,
						 LINUX_REBOOT_CMD_POWER_OFF),
	      -EINVAL);
	check("reboot with a bad command",
	      reboot(LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, 0x1234), -EINVAL);
	check("reboot CAD_ON", reboot(LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
				      LINUX_REBOOT_CMD_CAD_ON), 0);
	printf("t_init: %s (%d failed)\n", failures ? "FAILED" : "ok", failures);
	if (!booted_as_init())
		return failures;
	orphans();
	printf("t_init: orphans %s\n", failures ? "FAILED" : "ok");
	if (failures)
		return failures;	/* "Attempted to kill init!", the shell */
	printf("t_init: powering off\n");
	reboot(LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
	       LINUX_REBOOT_CMD_POWER_OFF);
	printf("FAIL t_init: reboot(POWER_OFF) returned\n");
	return 1;
}
