/*
 * user/tests/t_files.c - files and fd tables as Linux has them (issue 29
 * item 2; kernel/fs/fdtable.c, file.c, read_write.c, sys_open.c, ...).
 * What must be observable, each checked against Linux's answer:
 *   1. fds 0, 1, 2 are /dev/console: fstat is S_IFCHR 5:1, TCGETS
 *      succeeds with ICANON set, TIOCGWINSZ says 25x80, another ioctl is
 *      -ENOTTY, lseek and pread64 are -ESPIPE (lseek with whence 99
 *      -EINVAL first); read gives 0 (rtk: no console input yet -- Linux
 *      would wait for a line here);
 *   2. in a new directory (mkdir, chdir, getcwd with its NUL counted,
 *      -ERANGE, -EFAULT): O_CREAT|O_EXCL makes the lowest free fd, again
 *      -EEXIST; write, read, lseek (SET/CUR/END/DATA/HOLE, negative
 *      -EINVAL), pread64 leaves the position; fstat and newfstatat (by
 *      fd with AT_EMPTY_PATH, by name) agree; ftruncate; the access mode
 *      is enforced (-EBADF, ftruncate -EINVAL); O_APPEND, O_TRUNC;
 *   3. symlinks: readlink, lstat vs stat, AT_SYMLINK_NOFOLLOW, O_NOFOLLOW
 *      -ELOOP, readlinkat relative to a directory fd;
 *   4. directories: openat/mkdirat/unlinkat/faccessat relative to a
 *      directory fd (-ENOTDIR for a file fd, -EBADF for a closed one,
 *      ignored for an absolute path), getdents64 lists ".", "..", and
 *      the names with their DT_ types, -EINVAL for a tiny buffer, 0 at
 *      the end, again after lseek 0; -EISDIR, -ENOTEMPTY, -ENOTDIR;
 *   5. dup, dup2, dup3, fcntl: lowest fd, F_DUPFD_CLOEXEC from a start,
 *      F_GETFD/SETFD, the shared offset and status flags of a dup,
 *      F_SETFL cannot change the access mode, Linux's -EINVAL/-EBADF
 *      order; an unlinked open file stays readable;
 *   6. RLIMIT_NOFILE 16: the 17th fd is -EMFILE (open, dup), with no
 *      file created by the refused O_CREAT; F_DUPFD at the limit -EINVAL,
 *      dup2 to it -EBADF; with the limit back, 200 dups grow the table;
 *   7. a thread (CLONE_FILES) opens an fd that the main thread then uses;
 *      four threads dup 100 fds each at once, so the table grows
 *      64 -> 128 -> 512 under them (kernel/fs/fdtable.c's expand_files
 *      diagram): every dup succeeds with a distinct fd, and once all are
 *      closed the lowest free fd is 3 again;
 *   8. /dev/null and /dev/cpu_dma_latency (a 4-byte s32 write, read
 *      back, a hex string);
 *   9. bad input: NULL, kernel and unmapped pointers -EFAULT, a path
 *      without a NUL in PATH_MAX bytes and a 256-byte component
 *      -ENAMETOOLONG, "" -ENOENT, a path that ends at the last byte of
 *      a mapped page is read whole;
 *  10. a removed cwd: getcwd -ENOENT; everything made here is removed.
 * tests/kernel/test_user_abi.c runs it and checks the kernel's memory is
 * back after it exits (every fd closed by the exit, every inode freed).
 * Exit status: the number of failed checks.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

#define DIR "/tmp_t_files"
#define ICANON 0000002
#define DT_LNK 10
#define S_IFMT_PERM 07777

static int failures, checks;

static void check(const char *what, long got, long expected)
{
	checks++;
	if (got != expected) {
		failures++;
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

static char buf[8192];

static void stdio_is_the_console(void)
{
	struct stat st;
	struct termios t;
	struct winsize ws;
	int fl;

	check("fstat(1)", fstat(1, &st), 0);
	check("fd 1 is S_IFCHR", st.st_mode & S_IFMT, S_IFCHR);
	check("fd 1 rdev 5:1", (long)st.st_rdev, 0x501);
	check("ioctl(1, TCGETS)", ioctl(1, TCGETS, &t), 0);
	check("termios ICANON", t.c_lflag & ICANON, ICANON);
	check("ioctl(1, TIOCGWINSZ)", ioctl(1, TIOCGWINSZ, &ws), 0);
	check("winsize rows", ws.ws_row, 25);
	check("winsize cols", ws.ws_col, 80);
	check("ioctl(1, 0x1234)", ioctl(1, 0x1234, &t), -ENOTTY);
	check("ioctl(1, TCGETS, NULL)", ioctl(1, TCGETS, NULL), -EFAULT);
	check("lseek(1)", lseek(1, 0, SEEK_CUR), -ESPIPE);
	check("lseek(1, whence 99)", lseek(1, 0, 99), -EINVAL);
	check("pread64(1)", pread64(1, buf, 1, 0), -ESPIPE);
	/* nothing typed: a non-blocking read of the console is -EAGAIN
	 * (kernel/fs/tty_console.c; t_tty checks the reads with input) */
	fl = fcntl(0, F_GETFL, 0);
	check("F_SETFL O_NONBLOCK on fd 0", fcntl(0, F_SETFL, fl | O_NONBLOCK), 0);
	check("read(0) with nothing typed", read(0, buf, 1), -EAGAIN);
	check("F_SETFL back", fcntl(0, F_SETFL, fl), 0);
	check("F_GETFL(1)", fcntl(1, F_GETFL, 0) & O_ACCMODE, O_RDWR);
	check("fstat(0) = fstat(2)", fstat(2, &st) == 0 && st.st_rdev == 0x501, 1);
}

static void regular_files(void)
{
	struct stat st, st2;
	int fd, ro, wo;

	check("mkdir", mkdir(DIR, 0755), 0);
	check("mkdir again", mkdir(DIR, 0755), -EEXIST);
	check("chdir", chdir(DIR), 0);
	check("getcwd", getcwd(buf, sizeof(buf)), (long)sizeof(DIR));
	check("getcwd text", strcmp(buf, DIR), 0);
	check("getcwd small", getcwd(buf, 5), -ERANGE);
	check("getcwd NULL", getcwd(NULL, 100), -EFAULT);
	fd = open("f", O_CREAT | O_EXCL | O_RDWR, 0666);
	check("open O_CREAT: lowest fd", fd, 3);
	check("open O_EXCL again", open("f", O_CREAT | O_EXCL | O_RDWR, 0666), -EEXIST);
	check("write", write(fd, "hello world", 11), 11);
	check("lseek CUR", lseek(fd, 0, SEEK_CUR), 11);
	check("lseek SET", lseek(fd, 0, SEEK_SET), 0);
	check("read", read(fd, buf, sizeof(buf)), 11);
	check("read bytes", memcmp(buf, "hello world", 11), 0);
	check("read at EOF", read(fd, buf, 1), 0);
	check("pread64", pread64(fd, buf, 5, 6), 5);
	check("pread64 bytes", memcmp(buf, "world", 5), 0);
	check("pread64 kept f_pos", lseek(fd, 0, SEEK_CUR), 11);
	check("pread64 pos -1", pread64(fd, buf, 1, -1), -EINVAL);
	check("lseek -1", lseek(fd, -1, SEEK_SET), -EINVAL);
	check("lseek END -5", lseek(fd, -5, SEEK_END), 6);
	check("lseek whence 5", lseek(fd, 0, 5), -EINVAL);
	check("lseek SEEK_DATA", lseek(fd, 2, SEEK_DATA), 2);
	check("lseek SEEK_HOLE", lseek(fd, 2, SEEK_HOLE), 11);
	check("lseek SEEK_DATA past end", lseek(fd, 11, SEEK_DATA), -ENXIO);
	check("read bad pointer at EOF: 0", read(fd, (void *)16, 5), 0);
	lseek(fd, 0, SEEK_SET);
	check("read bad pointer", read(fd, (void *)16, 5), -EFAULT);
	check("write NULL", write(fd, NULL, 5), -EFAULT);
	check("fstat", fstat(fd, &st), 0);
	check("fstat S_IFREG", st.st_mode & S_IFMT, S_IFREG);
	check("fstat mode (umask 022)", st.st_mode & S_IFMT_PERM, 0644);
	check("fstat size", st.st_size, 11);
	check("fstat nlink", (long)st.st_nlink, 1);
	check("fstat blksize", st.st_blksize, 4096);
	check("fstat blocks", st.st_blocks, 8);
	check("newfstatat AT_EMPTY_PATH", newfstatat(fd, "", &st2, AT_EMPTY_PATH), 0);
	check("same inode", st2.st_ino == st.st_ino, 1);
	check("newfstatat by name", newfstatat(AT_FDCWD, "f", &st2, 0), 0);
	check("same inode by name", st2.st_ino == st.st_ino, 1);
	check("newfstatat \"\"", newfstatat(AT_FDCWD, "", &st2, 0), -ENOENT);
	check("newfstatat flag 4", newfstatat(AT_FDCWD, "f", &st2, 4), -EINVAL);
	check("newfstatat bad buf", newfstatat(AT_FDCWD, "f", (void *)16, 0), -EFAULT);
	check("ftruncate 5", ftruncate(fd, 5), 0);
	check("size after ftruncate", fstat(fd, &st) == 0 ? st.st_size : -1, 5);
	check("ftruncate -1", ftruncate(fd, -1), -EINVAL);
	check("ftruncate bad fd", ftruncate(99, 0), -EBADF);
	ro = open("f", O_RDONLY, 0);
	check("open O_RDONLY", ro, 4);
	check("write on O_RDONLY", write(ro, "x", 1), -EBADF);
	check("ftruncate on O_RDONLY", ftruncate(ro, 0), -EINVAL);
	wo = open("f", O_WRONLY | O_APPEND, 0);
	check("read on O_WRONLY", read(wo, buf, 1), -EBADF);
	check("O_APPEND write", write(wo, "XY", 2), 2);
	check("O_APPEND size", fstat(wo, &st) == 0 ? st.st_size : -1, 7);
	check("F_GETFL", fcntl(wo, F_GETFL, 0),
	      O_WRONLY | O_APPEND | O_LARGEFILE);
	check("close wo", close(wo), 0);
	wo = open("f", O_WRONLY | O_TRUNC, 0);
	check("O_TRUNC size", fstat(wo, &st) == 0 ? st.st_size : -1, 0);
	close(wo);
	close(ro);
	close(fd);
}

static void symlinks(void)
{
	struct stat st;
	int dfd;

	check("symlink", symlink("f", "l"), 0);
	check("symlink existing", symlink("f", "l"), -EEXIST);
	check("symlink \"\" target", symlink("", "e"), -ENOENT);
	memset(buf, 0, 64);
	check("readlink", readlink("l", buf, 64), 1);
	check("readlink text", buf[0], 'f');
	check("readlink non-link", readlink("f", buf, 64), -EINVAL);
	check("readlink size 0", readlink("l", buf, 0), -EINVAL);
	check("lstat", lstat("l", &st), 0);
	check("lstat S_IFLNK", st.st_mode & S_IFMT, S_IFLNK);
	check("lstat size", st.st_size, 1);
	check("stat follows", stat("l", &st) == 0 && S_ISREG(st.st_mode), 1);
	check("AT_SYMLINK_NOFOLLOW",
	      newfstatat(AT_FDCWD, "l", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		      S_ISLNK(st.st_mode), 1);
	check("O_NOFOLLOW", open("l", O_RDONLY | O_NOFOLLOW, 0), -ELOOP);
	dfd = open(DIR, O_RDONLY | O_DIRECTORY, 0);
	check("readlinkat", readlinkat(dfd, "l", buf, 64), 1);
	close(dfd);
}

static int count_dirents(int dfd, int *types_ok)
{
	int n = 0;
	long len;

	*types_ok = 1;
	while ((len = getdents64(dfd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < len;) {
			struct linux_dirent64 *d = (void *)(buf + off);
			int want = -1;

			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..") ||
			    !strcmp(d->d_name, "d"))
				want = DT_DIR;
			else if (!strcmp(d->d_name, "f"))
				want = DT_REG;
			else if (!strcmp(d->d_name, "l"))
				want = DT_LNK;
			if (d->d_type != want || d->d_reclen % 8)
				*types_ok = 0;
			off += d->d_reclen;
			n++;
		}
	}
	return len < 0 ? (int)len : n;
}

static void directories(void)
{
	int dfd, cwd, fd, ok;

	check("mkdir d", mkdir("d", 0755), 0);
	dfd = open("d", O_RDONLY | O_DIRECTORY, 0);
	check("open dir", dfd >= 0, 1);
	fd = openat(dfd, "g", O_CREAT | O_WRONLY, 0600);
	check("openat(dfd) O_CREAT", fd >= 0, 1);
	close(fd);
	check("access d/g", access("d/g", F_OK), 0);
	check("access X_OK on 0600", access("d/g", X_OK), -EACCES);
	check("access X_OK on a dir", access("d", X_OK), 0);
	check("access missing", access("nope", F_OK), -ENOENT);
	check("access bad mode", access("d/g", 8), -EINVAL);
	check("faccessat(dfd)", faccessat(dfd, "g", R_OK), 0);
	fd = open("f", O_RDONLY, 0);
	check("faccessat(file fd)", faccessat(fd, "g", F_OK), -ENOTDIR);
	check("getdents64(file)", getdents64(fd, buf, sizeof(buf)), -ENOTDIR);
	check("open O_DIRECTORY on a file", open("f", O_RDONLY | O_DIRECTORY, 0),
	      -ENOTDIR);
	close(fd);
	check("faccessat(closed fd)", faccessat(99, "g", F_OK), -EBADF);
	check("faccessat(closed fd, absolute)", faccessat(99, "/dev/null", F_OK), 0);
	check("open dir O_WRONLY", open("d", O_WRONLY, 0), -EISDIR);
	check("read(dir)", read(dfd, buf, 1), -EISDIR);
	check("rmdir non-empty", rmdir("d"), -ENOTEMPTY);
	check("unlink a dir", unlink("d"), -EISDIR);
	check("mkdirat", mkdirat(dfd, "sub", 0700), 0);
	check("unlinkat AT_REMOVEDIR", unlinkat(dfd, "sub", AT_REMOVEDIR), 0);
	check("unlinkat bad flag", unlinkat(dfd, "g", 1), -EINVAL);
	check("unlinkat", unlinkat(dfd, "g", 0), 0);
	close(dfd);
	cwd = open(".", O_RDONLY | O_DIRECTORY, 0);
	check("getdents64 tiny buffer", getdents64(cwd, buf, 10), -EINVAL);
	check("getdents64 bad buffer", getdents64(cwd, (void *)16, 4096), -EFAULT);
	check("getdents64 entries", count_dirents(cwd, &ok), 5);
	check("getdents64 types", ok, 1);
	check("getdents64 at end", getdents64(cwd, buf, sizeof(buf)), 0);
	check("lseek(dir, 0)", lseek(cwd, 0, SEEK_SET), 0);
	check("getdents64 again", count_dirents(cwd, &ok), 5);
	close(cwd);
	check("rmdir d", rmdir("d"), 0);
}

static void dups(void)
{
	struct stat st;
	int a, b, fd, d;

	a = dup(1);
	check("dup: lowest fd", a, 3);
	check("F_GETFD of a dup", fcntl(a, F_GETFD, 0), 0);
	b = fcntl(1, F_DUPFD_CLOEXEC, 10);
	check("F_DUPFD_CLOEXEC from 10", b, 10);
	check("F_GETFD", fcntl(b, F_GETFD, 0), FD_CLOEXEC);
	check("F_SETFD 0", fcntl(b, F_SETFD, 0), 0);
	check("F_GETFD after", fcntl(b, F_GETFD, 0), 0);
	check("F_DUPFD from 10", fcntl(1, F_DUPFD, 10), 11);
	check("dup2(a, a)", dup2(a, a), a);
	check("dup2(closed, itself)", dup2(50, 50), -EBADF);
	check("dup3(a, a)", dup3(a, a, 0), -EINVAL);
	check("dup3 O_CLOEXEC", dup3(a, 20, O_CLOEXEC), 20);
	check("F_GETFD of dup3", fcntl(20, F_GETFD, 0), FD_CLOEXEC);
	check("dup3 bad flag", dup3(a, 21, 1), -EINVAL);
	check("dup3 past the limit", dup3(a, 5000, 0), -EBADF);
	check("dup2 closed oldfd", dup2(50, 21), -EBADF);
	check("dup2 over an open fd", dup2(a, 20), 20);
	check("F_GETFD after dup2 over it", fcntl(20, F_GETFD, 0), 0);
	check("F_DUPFD past the limit", fcntl(a, F_DUPFD, 5000), -EINVAL);
	check("fcntl bad cmd", fcntl(a, 9999, 0), -EINVAL);
	check("fcntl closed fd", fcntl(77, F_GETFD, 0), -EBADF);
	check("close closed fd", close(77), -EBADF);
	check("close -1", close(-1), -EBADF);
	close(a);
	close(b);
	close(11);
	close(20);
	fd = open("f", O_RDWR, 0);
	check("write abcdef", write(fd, "abcdef", 6), 6);
	d = dup(fd);
	check("lseek through fd", lseek(fd, 2, SEEK_SET), 2);
	check("shared offset", lseek(d, 0, SEEK_CUR), 2);
	check("F_SETFL", fcntl(fd, F_SETFL, O_APPEND | O_NONBLOCK | O_RDONLY), 0);
	check("shared F_GETFL", fcntl(d, F_GETFL, 0),
	      O_RDWR | O_APPEND | O_NONBLOCK | O_LARGEFILE);
	check("unlink open file", unlink("f"), 0);
	check("stat unlinked", stat("f", &st), -ENOENT);
	check("read unlinked", read(d, buf, 4), 4);
	check("unlinked bytes", memcmp(buf, "cdef", 4), 0);
	check("fstat nlink 0", fstat(fd, &st) == 0 ? (long)st.st_nlink : -1, 0);
	close(d);
	close(fd);
}

static void nofile_limit(void)
{
	struct rlimit64 r = { 16, 4096 }, old;
	int n = 0, fd, last = -1, fds[200];

	check("getrlimit", getrlimit(RLIMIT_NOFILE, &old), 0);
	check("setrlimit 16", setrlimit(RLIMIT_NOFILE, &r), 0);
	while ((fd = open("/dev/null", O_RDONLY, 0)) >= 0) {
		last = fd;
		n++;
	}
	check("open at the limit", fd, -EMFILE);
	check("highest fd", last, 15);
	check("dup at the limit", dup(0), -EMFILE);
	check("O_CREAT at the limit", open("new", O_CREAT | O_RDWR, 0600), -EMFILE);
	check("no file made", access("new", F_OK), -ENOENT);
	check("F_DUPFD at the limit", fcntl(0, F_DUPFD, 16), -EINVAL);
	check("dup2 to the limit", dup2(0, 16), -EBADF);
	for (fd = 3; fd <= last; fd++)
		close(fd);
	check("setrlimit back", setrlimit(RLIMIT_NOFILE, &old), 0);
	n = 0;
	for (int i = 0; i < 200; i++) {
		fds[i] = dup(0);
		n += fds[i] == 3 + i;
	}
	check("200 dups grow the table", n, 200);
	for (int i = 0; i < 200; i++)
		close(fds[i]);
}

static void *opener(void *arg)
{
	*(int *)arg = open("/dev/null", O_WRONLY, 0);
	return NULL;
}

static void shared_table(void)
{
	pthread_t th;
	struct stat st;
	int fd = -1;

	check("pthread_create", pthread_create(&th, NULL, opener, &fd), 0);
	pthread_join(th, NULL);
	check("thread's fd", fd, 3);
	check("fstat of the thread's fd", fstat(fd, &st) == 0 &&
	      st.st_rdev == 0x103, 1);
	check("write to the thread's fd", write(fd, "x", 1), 1);
	check("close the thread's fd", close(fd), 0);
}

#define RACERS 4
#define RACER_FDS 100

static int racer_fds[RACERS][RACER_FDS];
static int racers_go;

static void *racer(void *arg)
{
	int *fds = arg;

	while (!__atomic_load_n(&racers_go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (int i = 0; i < RACER_FDS; i++)
		fds[i] = dup(0);
	return NULL;
}

static void racing_growth(void)
{
	static char seen[RACERS * RACER_FDS + 3];
	pthread_t th[RACERS];
	int bad = 0;

	for (int r = 0; r < RACERS; r++)
		check("racer pthread_create",
		      pthread_create(&th[r], NULL, racer, racer_fds[r]), 0);
	__atomic_store_n(&racers_go, 1, __ATOMIC_RELEASE);
	for (int r = 0; r < RACERS; r++)
		pthread_join(th[r], NULL);
	for (int r = 0; r < RACERS; r++)
		for (int i = 0; i < RACER_FDS; i++) {
			int fd = racer_fds[r][i];

			if (fd < 3 || fd >= (int)sizeof(seen) || seen[fd]++)
				bad++;
			else
				close(fd);
		}
	check("racing dups: distinct fds 3..402", bad, 0);
	check("lowest fd after the race", dup(0), 3);
	close(3);
}

static void devices(void)
{
	s32 v = 0, got = -1;
	int fd;

	fd = open("/dev/null", O_RDWR, 0);
	check("/dev/null write", write(fd, buf, 100), 100);
	check("/dev/null read", read(fd, buf, 100), 0);
	check("/dev/null lseek", lseek(fd, 100, SEEK_SET), 0);
	check("/dev/null TCGETS", ioctl(fd, TCGETS, buf), -ENOTTY);
	close(fd);
	fd = open("/dev/cpu_dma_latency", O_RDWR, 0);
	check("open cpu_dma_latency", fd >= 0, 1);
	check("cpu_dma_latency write s32", write(fd, &v, sizeof(v)), 4);
	check("cpu_dma_latency read", read(fd, &got, sizeof(got)), 4);
	check("cpu_dma_latency value", got, 0);
	check("cpu_dma_latency hex", write(fd, "1a", 2), 2);
	check("cpu_dma_latency read hex", read(fd, &got, sizeof(got)) == 4 &&
	      got == 0x1a, 1);
	check("cpu_dma_latency bad", write(fd, "zz", 2), -EINVAL);
	close(fd);
}

static void bad_input(void)
{
	static char longpath[4200], name[300];
	char *page;

	check("open NULL", open(NULL, O_RDONLY, 0), -EFAULT);
	check("open kernel address", open((void *)0xffffffff80100000UL, O_RDONLY, 0),
	      -EFAULT);
	memset(longpath, 'a', sizeof(longpath));
	check("open no NUL in PATH_MAX", open(longpath, O_RDONLY, 0), -ENAMETOOLONG);
	memset(name, 'a', 256);
	name[256] = '\0';
	check("open 256-byte name", open(name, O_RDONLY, 0), -ENAMETOOLONG);
	check("open \"\"", open("", O_RDONLY, 0), -ENOENT);
	check("fstat NULL", fstat(1, NULL), -EFAULT);
	check("chdir to a file", chdir("/dev/null"), -ENOTDIR);
	check("mkdir NULL", mkdir(NULL, 0755), -EFAULT);
	check("read bad fd", read(99, buf, 1), -EBADF);
	check("write bad fd", write(-1, buf, 1), -EBADF);
	check("lseek bad fd", lseek(99, 0, SEEK_SET), -EBADF);
	check("fstat bad fd", fstat(99, NULL), -EBADF);
	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (mmap_failed(page))
		return;
	check("munmap the second page", munmap(page + 4096, 4096), 0);
	strcpy(page + 4096 - 10, "/dev/null");
	int fd = open(page + 4096 - 10, O_RDONLY, 0);
	check("path ending at a page end", fd >= 0, 1);
	close(fd);
	memset(page + 4096 - 4, 'a', 4);
	check("path running off the page", open(page + 4096 - 4, O_RDONLY, 0), -EFAULT);
	munmap(page, 4096);
}

static void removed_cwd_and_cleanup(void)
{
	check("mkdir gone", mkdir(DIR "/gone", 0755), 0);
	check("chdir gone", chdir(DIR "/gone"), 0);
	check("rmdir the cwd", rmdir(DIR "/gone"), 0);
	check("getcwd removed", getcwd(buf, sizeof(buf)), -ENOENT);
	check("chdir /", chdir("/"), 0);
	check("unlink l", unlink(DIR "/l"), 0);
	check("rmdir", rmdir(DIR), 0);
	check("gone", access(DIR, F_OK), -ENOENT);
	check("getcwd /", getcwd(buf, sizeof(buf)), 2);
}

int main(int argc, char **argv)
{
	stdio_is_the_console();
	regular_files();
	symlinks();
	directories();
	dups();
	nofile_limit();
	shared_table();
	racing_growth();
	devices();
	bad_input();
	removed_cwd_and_cleanup();
	printf("t_files: %d checks, %d failed\n", checks, failures);
	return failures;
}
