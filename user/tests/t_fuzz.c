/*
 * user/tests/t_fuzz.c [CALLS [SEED]] - random system calls: numbers in
 * 0..511 and a few far outside, arguments drawn from values that break
 * kernels (0, -1, small numbers, INT_MAX, pointers into this program's
 * own memory, NULL-page, kernel and non-canonical addresses, random
 * 64-bit words).  The kernel must answer every one with a result or
 * -errno: no oops, no leak (tests/kernel/test_user.c checks the page
 * and slab counts after it exits).  Exits 0 after CALLS calls (default
 * 10000), printing a histogram of the results' classes.
 *
 * Left out, because they would end or wedge the fuzzer itself rather
 * than test the kernel: exit, exit_group, kill (random pids would kill
 * other programs), clone (a thread on a random stack), fork and vfork
 * (a copy of the fuzzer fuzzing on after its parent), pipe and pipe2
 * (a read of a pipe nobody writes waits forever), wait4 (a fuzzer has
 * no child), arch_prctl (its own TLS), the sleeps and futex
 * (an unbounded wait), sched_setscheduler/setparam (a SCHED_FIFO 99
 * spinner starves its CPU's kernel threads), and write to fd 1/2 (the
 * console flood; fds 0-2 are /dev/null meanwhile, the console parked at
 * CONSOLE_FD).  Those are answered by t_abi's, t_fork's and t_pipe's
 * checks instead.
 * munmap, mprotect, madvise, mlock and MAP_FIXED mmaps would unmap or
 * lock the fuzzer's own text and stack: they get a random range inside
 * ARENA, a 256 MiB PROT_NONE reservation of its own (the start sometimes
 * off a page, the length sometimes 0), so the address-space code sees
 * holes, reservations, partial ranges and every prot.
 */
#include "user/lib/ulib.h"

static u64 rng_state;

static u64 rng(void)
{
	/* xorshift64 (Marsaglia 2003): enough to spread the choices */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static char scratch[8192];

#define ARENA_LEN (256UL << 20)
static char *arena;		/* a PROT_NONE reservation, fuzzed inside */

/* arena_range - a random start in the arena (one in 8 off a page) and
 * a length that ends inside it (one in 16 is 0). */
static void arena_range(long *start, long *len)
{
	unsigned long off = (rng() % (ARENA_LEN / 4096)) * 4096;

	if (rng() % 8 == 0)
		off += 1 + rng() % 4095;
	*start = (long)(arena + off);
	*len = (rng() % 16) ? (long)(rng() % (ARENA_LEN - off + 1)) : 0;
	if (rng() % 4)	/* mostly small: a few pages */
		*len = (long)min((unsigned long)*len, 1 + rng() % (64 * 4096));
}

static long random_arg(void)
{
	switch (rng() % 12) {
	case 0: return 0;
	case 1: return -1;
	case 2: return (long)(rng() % 16);
	case 3: return 0x7fffffff;
	case 4: return (long)(scratch + rng() % sizeof(scratch));
	case 5: return (long)(0x1000 + rng() % 0x1000);
	case 6: return (long)0xffffffff80100000UL;	/* kernel text */
	case 7: return (long)0xffff800000000000UL;	/* direct map */
	case 8: return (long)0x0000800000000000UL;	/* non-canonical */
	case 9: return (long)0x00007ffffffff000UL;	/* last user page */
	case 10: return (long)(rng() & 0xfffffffffUL);
	default: return (long)rng();
	}
}

static const long implemented[] = {
	__NR_write, __NR_mmap, __NR_sched_yield, __NR_getpid, __NR_gettid,
	__NR_sched_getparam, __NR_sched_getscheduler, __NR_sched_setaffinity,
	__NR_sched_getaffinity, __NR_clock_gettime, __NR_mprotect, __NR_read,
	/* the fd calls that change no name in the tree (a random unlink
	 * fed a name getdents64 wrote into scratch could remove another
	 * test's program: those stay in the 0..511 draw only) */
	__NR_open, __NR_close, __NR_fstat, __NR_lseek, __NR_pread64,
	__NR_ioctl, __NR_dup, __NR_dup2, __NR_fcntl, __NR_getdents64,
	__NR_newfstatat, __NR_getcwd, __NR_readlink, __NR_access,
	/* the memory calls, inside ARENA but for brk (64 MiB at most) */
	__NR_munmap, __NR_brk, __NR_madvise, __NR_mlock, __NR_munlock,
	__NR_mlockall, __NR_munlockall,
};

/* The console, parked where no random fd reaches it: fds 0, 1 and 2 are
 * /dev/null while the fuzzer runs, so a write to a random small fd (or
 * a dup of 1) floods no garbage into the KTAP stream. */
#define CONSOLE_FD 1023

static void stdio_to_null(void)
{
	int null = open("/dev/null", O_RDWR, 0);

	if (null < 0 || fcntl(1, F_DUPFD, CONSOLE_FD) != CONSOLE_FD)
		die("t_fuzz: cannot park the console");
	for (int fd = 0; fd < 3; fd++)
		dup2(null, fd);
	close(null);
}

/*
 * The fuzzer's own directory, its cwd while it runs: a random open,
 * mkdir or symlink of a name found in scratch (bytes getdents64 or
 * readlink wrote there) makes that name here, and remove_tree empties it
 * at the end, so the tree is as it was (the kernel test counts its
 * objects).  chdir is excluded: it would move the creations elsewhere.
 */
#define FUZZ_DIR "/t_fuzz.d"

static char dents[4096];

/* remove_tree - remove everything below the directory dfd, depth first;
 * read again from the start after each batch (a removal shifts the
 * positions that follow it). */
static void remove_tree(int dfd)
{
	bool removed = true;

	while (removed) {
		long len;

		removed = false;
		lseek(dfd, 0, SEEK_SET);
		while ((len = getdents64(dfd, dents, sizeof(dents))) > 0) {
			for (long off = 0; off < len;) {
				struct linux_dirent64 *d = (void *)(dents + off);
				int sub;

				off += d->d_reclen;
				if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
					continue;
				if (d->d_type == DT_DIR) {
					sub = openat(dfd, d->d_name, O_RDONLY | O_DIRECTORY, 0);
					if (sub >= 0) {
						remove_tree(sub);
						close(sub);
					}
					unlinkat(dfd, d->d_name, AT_REMOVEDIR);
				} else {
					unlinkat(dfd, d->d_name, 0);
				}
				removed = true;
			}
		}
	}
}

/*
 * fuzz_dir_remove - FUZZ_DIR and all below it, and every name in "/"
 * that starts with FUZZ_DIR's: a random rmdir of the cwd by the absolute
 * name getcwd wrote into scratch, then an O_CREAT of that name with
 * whatever bytes followed it in scratch, left such a file in "/".
 */
static void fuzz_dir_remove(void)
{
	int root = open("/", O_RDONLY | O_DIRECTORY, 0);
	size_t plen = strlen(FUZZ_DIR) - 1;	/* without the '/' */
	bool removed = true;

	chdir("/");
	while (root >= 0 && removed) {
		long len;

		removed = false;
		lseek(root, 0, SEEK_SET);
		while ((len = getdents64(root, dents, sizeof(dents))) > 0) {
			for (long off = 0; off < len;) {
				struct linux_dirent64 *d = (void *)(dents + off);
				int sub;

				off += d->d_reclen;
				if (strncmp(d->d_name, FUZZ_DIR + 1, plen))
					continue;
				sub = openat(root, d->d_name, O_RDONLY | O_DIRECTORY, 0);
				if (sub >= 0) {
					remove_tree(sub);
					close(sub);
					unlinkat(root, d->d_name, AT_REMOVEDIR);
				} else {
					unlinkat(root, d->d_name, 0);
				}
				removed = true;
			}
		}
	}
	close(root);
}

/* stdio_back - the console on fd 1 again, with a sane RLIMIT_NOFILE (the
 * fuzzer may have set it to 0). */
static void stdio_back(void)
{
	struct rlimit64 r = { 1024, 4096 };

	setrlimit(RLIMIT_NOFILE, &r);
	dup2(CONSOLE_FD, 1);
}

static const struct timespec no_wait;	/* ppoll's timeout: 0 */

static bool excluded(long nr)
{
	switch (nr) {
	case __NR_exit: case __NR_exit_group: case __NR_kill:
	case __NR_clone: case __NR_arch_prctl:
	case __NR_fork: case __NR_vfork: case __NR_wait4:
	case __NR_pipe: case __NR_pipe2:
	case __NR_nanosleep: case __NR_clock_nanosleep: case __NR_futex:
	case __NR_sched_setscheduler: case __NR_sched_setparam:
	case __NR_chdir:
	case __NR_rt_sigreturn:	/* a random frame: t_sigfuzz's job */
	case __NR_pause: case __NR_rt_sigsuspend:	/* sleep until a signal */
	case __NR_rt_sigtimedwait:	/* the same without a timeout */
	case __NR_socketpair:	/* a read of a socket no thread writes to
				 * waits forever (F_SETFL may clear any
				 * SOCK_NONBLOCK forced here) */
		return true;
	default:
		return false;
	}
}

int main(int argc, char **argv)
{
	long calls = 10000, seed = 12345, ok = 0, err = 0, enosys = 0;

	if (argc > 1)
		kstrtol(argv[1], 10, &calls);
	if (argc > 2)
		kstrtol(argv[2], 10, &seed);
	rng_state = (u64)seed * 0x9E3779B97F4A7C15ULL | 1;
	mkdir(FUZZ_DIR, 0755);
	if (chdir(FUZZ_DIR))
		die("t_fuzz: cannot enter " FUZZ_DIR);
	arena = mmap(NULL, ARENA_LEN, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mmap_failed(arena))
		die("t_fuzz: no arena");
	stdio_to_null();
	for (long i = 0; i < calls;) {
		/* mostly calls rtk has, some unknown numbers and wild values */
		long nr = (rng() % 4) ? implemented[rng() % ARRAY_SIZE(implemented)] :
			  (rng() % 8) ? (long)(rng() % 512) : random_arg();
		long a[6], ret;

		if (excluded(nr))
			continue;
		i++;
		for (int j = 0; j < 6; j++)
			a[j] = random_arg();
		if (nr == __NR_write && (a[0] == 1 || a[0] == 2))
			a[0] = 3;
		switch (nr) {	/* the memory calls stay inside the arena */
		case __NR_mmap:
			if (a[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE))
				arena_range(&a[0], &a[1]);
			break;
		case __NR_munmap: case __NR_mprotect: case __NR_madvise:
		case __NR_mlock: case __NR_munlock:
			arena_range(&a[0], &a[1]);
			break;
		}
		/* poll and ppoll sleep until the timeout: never wait here */
		if (nr == __NR_poll)
			a[2] = 0;
		if (nr == __NR_ppoll)
			a[2] = (long)&no_wait;
		ret = sys_call6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (ret == -ENOSYS)
			enosys++;
		else if (ret < 0 && ret >= -4095)
			err++;
		else
			ok++;
	}
	stdio_back();
	fuzz_dir_remove();
	printf("t_fuzz: %ld calls: %ld ok, %ld -errno, %ld -ENOSYS\n", calls,
	       ok, err, enosys);
	return 0;
}
