/*
 * user/tests/t_mmap.c - the memory calls as glibc's dynamic programs use
 * them (issue 29 item 4; kernel/user/sys_mm.c, kernel/mm/user_mm.c,
 * mprotect.c, file_mmap.c, filemap.c).  What must be observable:
 *   1. anonymous memory: zeroed, a partial munmap leaves the rest;
 *   2. PROT_NONE reserves without mapping: three 128 MiB arena
 *      reservations (more than the 64 MiB cap of private pages) succeed,
 *      nothing in them is accessible, mprotect makes 132 KiB of one
 *      read-write (zeroed), a partial munmap trims it; an 8 MiB + 4 KiB
 *      stack with the guard page left PROT_NONE; munmap, MAP_FIXED and
 *      mprotect over a 64 GiB reservation return at once;
 *   3. mprotect: read-only keeps the bytes and refuses kernel writes,
 *      read-write again, PROT_NONE; -EINVAL, -ENOMEM, -EACCES, len 0;
 *   4. MAP_FIXED replaces the middle of a mapping; MAP_FIXED_NOREPLACE
 *      -EEXIST; an unaligned fixed address -EINVAL;
 *   5. brk: brk(0) is the page-aligned end of the program, grows,
 *      shrinks (the page above is gone), refuses below the start;
 *   6. mlock, munlock, mlockall, munlockall: 0 (mlockall(0) -EINVAL);
 *      madvise -EINVAL;
 *   7. a private mapping of this program's own file (still in the boot
 *      module): its bytes, zero past EOF, an offset; a writable private
 *      mapping and an mprotect'ed one are copies (the file and a new
 *      mapping still read the original);
 *   8. MAP_SHARED of a file made with O_CREAT + ftruncate(30), as
 *      cyclictest does in /dev/shm: writes through the mapping are read
 *      back by pread, write(2)s show in the mapping, two mappings see the
 *      same bytes, the mapping outlives the file's growth and unlink;
 *   9. bad input: -EBADF, -EACCES (O_WRONLY fd; MAP_SHARED+PROT_WRITE of
 *      an O_RDONLY fd), -ENODEV (/dev/null, a directory), -EINVAL (len 0,
 *      an offset off a page, no mapping type), -ENOMEM (a huge len, a
 *      fixed range past user space, 128 MiB read-write over the cap).
 * Accessibility is probed without faulting: write(2) from a page into a
 * scratch file reads it (-EFAULT if it is not readable), pread64(2) into
 * a page writes it.  With arguments (t_mmap SELF DIR) it runs on a Linux
 * host too, minus the checks where rtk answers differently on purpose
 * (rtk_check: W^X, madvise, zero pages past EOF, the private-page cap).
 * tests/kernel/test_user_mm.c runs it and checks no page is left behind.
 * Exit status: the number of failed checks.
 */
#include "user/lib/ulib.h"

#define PAGE 4096UL
#define MIB (1024UL * 1024)
#define MADV_DONTNEED 4

static int failures, checks;
static int devnull, self;	/* /dev/null; this program, O_RDONLY */
static int probe;		/* a scratch file: write(2) reads a page */
static bool on_linux;		/* on a Linux host: skip rtk's own answers */
static long self_size;
/* this program's file and a scratch directory; arguments on a Linux host
 * (t_mmap SELF DIR), where / is not writable */
static const char *self_path = "/t_mmap", *dir_path = "/t_mmap.d";
static char shm_path[256], wo_path[256], probe_path[256];

static void check(const char *what, long got, long expected)
{
	checks++;
	if (got != expected) {
		failures++;
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

/* rtk_check - a check of where rtk differs from Linux on purpose */
static void rtk_check(const char *what, long got, long expected)
{
	if (!on_linux)
		check(what, got, expected);
}

/* readable / writable - probe one byte through the kernel: 1, or -EFAULT
 * (a regular file: /dev/null's write would not read the byte) */
static long readable(const void *p)
{
	lseek(probe, 0, SEEK_SET);
	return write(probe, p, 1);
}

static long writable(void *p)
{
	return pread64(self, p, 1, 0);	/* the file's first byte: 0x7f */
}

static long map_err(void *p)
{
	return mmap_failed(p) ? (long)p : 0;
}

static char *map_anon(size_t len, int prot, int flags)
{
	return mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1,
		    0);
}

static void anonymous_memory(void)
{
	char *m = map_anon(3 * PAGE, PROT_READ | PROT_WRITE, 0);

	check("anon mmap", map_err(m), 0);
	if (mmap_failed(m))
		return;
	check("anon zeroed", m[0] | m[3 * PAGE - 1], 0);
	m[0] = 'a';
	m[2 * PAGE] = 'c';
	check("munmap the middle page", munmap(m + PAGE, PAGE), 0);
	check("middle page gone", readable(m + PAGE), -EFAULT);
	check("first page kept", m[0], 'a');
	check("last page kept", m[2 * PAGE], 'c');
	check("munmap the rest (a hole inside)", munmap(m, 3 * PAGE), 0);
	check("first page gone", readable(m), -EFAULT);
}

static void prot_none_reserves(void)
{
	char *arena[3], *stack;
	size_t len = 128 * MIB;

	for (int i = 0; i < 3; i++) {
		arena[i] = map_anon(len, PROT_NONE, MAP_NORESERVE);
		check("128 MiB PROT_NONE reservation", map_err(arena[i]), 0);
		if (mmap_failed(arena[i]))
			return;
	}
	check("reservation not readable", readable(arena[0]), -EFAULT);
	check("reservation end not readable", readable(arena[0] + len - 1),
	      -EFAULT);
	check("mprotect 132 KiB RW", mprotect(arena[0], 132 * 1024,
					      PROT_READ | PROT_WRITE), 0);
	check("made RW: zeroed", arena[0][0] | arena[0][132 * 1024 - 1], 0);
	arena[0][132 * 1024 - 1] = 'z';
	check("made RW: kernel writes it", writable(arena[0]), 1);
	check("past the RW part: still none", readable(arena[0] + 132 * 1024),
	      -EFAULT);
	check("trim the reservation's head", munmap(arena[0] + 64 * MIB,
						    64 * MIB), 0);
	check("RW part survives the trim", arena[0][132 * 1024 - 1], 'z');
	for (int i = 0; i < 3; i++)
		check("munmap a reservation", munmap(arena[i], len), 0);

	/* glibc's thread stack: 8 MiB + 4 KiB PROT_NONE, all but the guard
	 * page at the bottom made RW */
	stack = map_anon(8 * MIB + PAGE, PROT_NONE, MAP_STACK);
	check("stack reservation", map_err(stack), 0);
	if (mmap_failed(stack))
		return;
	check("mprotect the stack above its guard",
	      mprotect(stack + PAGE, 8 * MIB, PROT_READ | PROT_WRITE), 0);
	stack[8 * MIB + PAGE - 1] = 's';
	check("stack top written", stack[8 * MIB + PAGE - 1], 's');
	check("guard page stays none", readable(stack), -EFAULT);
	check("munmap the stack", munmap(stack, 8 * MIB + PAGE), 0);
}

/* A 64 GiB reservation with one page used: munmap, MAP_FIXED and
 * mprotect over it visit what is mapped, not 16 M absent pages (each
 * call would take minutes under TCG otherwise). */
static void huge_sparse_ranges(void)
{
	size_t len = 64UL << 30;
	char *r = map_anon(len, PROT_NONE, MAP_NORESERVE);

	check("64 GiB PROT_NONE reservation", map_err(r), 0);
	if (mmap_failed(r))
		return;
	check("mprotect its last page RW",
	      mprotect(r + len - PAGE, PAGE, PROT_READ | PROT_WRITE), 0);
	r[len - 1] = 'e';
	rtk_check("mprotect all 64 GiB RW: over the cap",
		  mprotect(r, len, PROT_READ | PROT_WRITE), -ENOMEM);
	check("mprotect all 64 GiB PROT_NONE", mprotect(r, len, PROT_NONE), 0);
	check("last page gone", readable(r + len - 1), -EFAULT);
	check("MAP_FIXED PROT_NONE over 64 GiB",
	      (long)mmap(r, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
			 MAP_FIXED | MAP_NORESERVE, -1, 0), (long)r);
	check("munmap 64 GiB", munmap(r, len), 0);
}

static void mprotect_cases(void)
{
	char *m = map_anon(2 * PAGE, PROT_READ | PROT_WRITE, 0);

	check("mmap for mprotect", map_err(m), 0);
	if (mmap_failed(m))
		return;
	m[0] = 'p';
	check("mprotect read-only", mprotect(m, PAGE, PROT_READ), 0);
	check("read-only keeps the bytes", m[0], 'p');
	check("read-only: kernel write -EFAULT", writable(m), -EFAULT);
	check("next page still writable", writable(m + PAGE), 1);
	check("mprotect read-write again", mprotect(m, PAGE,
						    PROT_READ | PROT_WRITE), 0);
	m[1] = 'q';
	check("read-write again: bytes", m[0] + m[1], 'p' + 'q');
	check("mprotect PROT_NONE", mprotect(m, 2 * PAGE, PROT_NONE), 0);
	check("PROT_NONE: not readable", readable(m + PAGE), -EFAULT);
	check("mprotect unaligned", mprotect(m + 1, PAGE, PROT_READ), -EINVAL);
	check("mprotect len 0", mprotect(m + PAGE, 0, PROT_READ), 0);
	check("mprotect unknown prot", mprotect(m, PAGE, 0x40), -EINVAL);
	check("mprotect past user space",
	      mprotect((void *)0x7ffffffff000UL, 2 * PAGE, PROT_READ), -ENOMEM);
	check("mprotect nothing mapped", mprotect((void *)0x10000000UL, PAGE,
						  PROT_READ), -ENOMEM);
	check("munmap after PROT_NONE", munmap(m, 2 * PAGE), 0);
	m = map_anon(PAGE, PROT_READ, 0);
	/* rtk keeps W^X for user pages (Linux allows W+X) */
	rtk_check("mprotect W+X", mprotect(m, PAGE, PROT_WRITE | PROT_EXEC),
		  -EACCES);
	munmap(m, PAGE);
}

static void map_fixed(void)
{
	char *m = map_anon(3 * PAGE, PROT_READ | PROT_WRITE, 0), *f;

	check("mmap for MAP_FIXED", map_err(m), 0);
	if (mmap_failed(m))
		return;
	m[0] = m[PAGE] = m[2 * PAGE] = 'x';
	f = mmap(m + PAGE, PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	check("MAP_FIXED at the middle page", (long)f, (long)(m + PAGE));
	check("replaced page zeroed", m[PAGE], 0);
	check("neighbours kept", m[0] + m[2 * PAGE], 'x' + 'x');
	check("MAP_FIXED_NOREPLACE over it",
	      (long)mmap(m, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
			 MAP_FIXED_NOREPLACE, -1, 0), -EEXIST);
	check("MAP_FIXED unaligned",
	      (long)mmap(m + 1, PAGE, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
	      -EINVAL);
	f = mmap(m, 3 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_FIXED, -1, 0);
	check("MAP_FIXED PROT_NONE over all", (long)f, (long)m);
	check("PROT_NONE over it unmapped it", readable(m + PAGE), -EFAULT);
	munmap(m, 3 * PAGE);
}

static void brk_cases(void)
{
	unsigned long b0 = sys_brk(0), b;

	check("brk(0) page-aligned", (long)(b0 & (PAGE - 1)), 0);
	check("brk(0) above the program", b0 > 0x400000, 1);
	b = sys_brk(b0 + 10000);
	check("brk grows", (long)b, (long)(b0 + 10000));
	check("brk(0) is the new break", (long)sys_brk(0), (long)(b0 + 10000));
	check("heap zeroed", ((char *)b0)[0] | ((char *)b0)[9999], 0);
	((char *)b0)[9999] = 'h';
	check("heap writable", writable((char *)b0 + 8192), 1);
	check("brk shrinks", (long)sys_brk(b0 + PAGE), (long)(b0 + PAGE));
	check("shrunk: page above gone", readable((char *)b0 + 2 * PAGE),
	      -EFAULT);
	check("shrunk: first page kept", writable((char *)b0), 1);
	check("brk below the start refused", (long)sys_brk(b0 - 16 * PAGE),
	      (long)(b0 + PAGE));
	check("brk back to the start", (long)sys_brk(b0), (long)b0);
	check("empty heap: nothing mapped", readable((char *)b0), -EFAULT);
}

static void lock_calls(void)
{
	char *m = map_anon(PAGE, PROT_READ | PROT_WRITE, 0);

	check("mlock", mlock(m, PAGE), 0);
	check("munlock", munlock(m, PAGE), 0);
	check("mlockall", mlockall(MCL_CURRENT | MCL_FUTURE), 0);
	check("mlockall(0)", mlockall(0), -EINVAL);
	check("munlockall", munlockall(), 0);
	/* rtk: -EINVAL (Linux does MADV_DONTNEED; glibc copes either way) */
	rtk_check("madvise", madvise(m, PAGE, MADV_DONTNEED), -EINVAL);
	munmap(m, PAGE);
}

static char buf[2 * 4096];

static void private_file_maps(void)
{
	size_t len = (size_t)self_size, tail = len % PAGE;
	char *m, *w, *again;

	m = mmap(NULL, len + 2 * PAGE, PROT_READ, MAP_PRIVATE, self, 0);
	check("mmap self read-only", map_err(m), 0);
	if (mmap_failed(m))
		return;
	check("pread the head", pread64(self, buf, PAGE, 0), (long)PAGE);
	check("mapped head = file head", memcmp(m, buf, PAGE), 0);
	check("ELF magic", m[1] + m[2] + m[3], 'E' + 'L' + 'F');
	if (tail) {
		check("pread the tail", pread64(self, buf, tail, len - tail),
		      (long)tail);
		check("mapped tail = file tail", memcmp(m + len - tail, buf,
							tail), 0);
	}
	check("zero after EOF in the last page", m[len], 0);
	/* Linux: SIGBUS there */
	if (!on_linux)
		check("zero pages past EOF",
		      m[len + PAGE] | m[len + 2 * PAGE - 1], 0);
	check("read-only file page: kernel write -EFAULT", writable(m),
	      -EFAULT);

	w = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, self,
		 PAGE);
	check("mmap self RW private at offset 4096", map_err(w), 0);
	if (!mmap_failed(w)) {
		check("offset: bytes of page 1", memcmp(w, m + PAGE, PAGE), 0);
		w[0] = (char)~m[PAGE];
		check("private write not in the file",
		      pread64(self, buf, 1, PAGE), 1);
		check("file byte unchanged", buf[0], m[PAGE]);
		munmap(w, 2 * PAGE);
	}

	check("mprotect a file page RW", mprotect(m, PAGE,
						  PROT_READ | PROT_WRITE), 0);
	m[0] = 'Z';
	again = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, self, 0);
	check("mmap self again", map_err(again), 0);
	if (!mmap_failed(again)) {
		check("a new mapping reads the original", again[0], 0x7f);
		munmap(again, PAGE);
	}
	check("the file reads the original", pread64(self, buf, 1, 0), 1);
	check("file byte 0", buf[0], 0x7f);
	check("mmap PROT_EXEC of the file",
	      map_err(mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, self,
			   0)), 0);
	check("munmap self", munmap(m, len + 2 * PAGE), 0);
	/* far past EOF: Linux maps it (and a touch is SIGBUS), rtk maps
	 * zero pages; 2^63 and above is -EOVERFLOW */
	m = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, self, 1L << 60);
	check("mmap self at offset 2^60", map_err(m), 0);
	if (!mmap_failed(m)) {
		rtk_check("offset 2^60 reads zero", m[0], 0);
		munmap(m, PAGE);
	}
	m = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, self,
		 1L << 62);
	check("mmap RW private at offset 2^62", map_err(m), 0);
	if (!mmap_failed(m)) {
		rtk_check("offset 2^62 reads zero", m[PAGE + 1], 0);
		munmap(m, 2 * PAGE);
	}
	check("mmap self at offset 2^63 - 4096",
	      map_err(mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, self,
			   (long)((1UL << 63) - PAGE))), -EOVERFLOW);
}

static void shared_file_maps(void)
{
	char *a, *b, *c;
	int fd, ro;

	fd = open(shm_path, O_RDWR | O_CREAT | O_EXCL, 0666);
	check("create the shm file", fd >= 0, 1);
	if (fd < 0)
		return;
	check("ftruncate 30", ftruncate(fd, 30), 0);
	a = mmap(NULL, 30, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check("MAP_SHARED RW", map_err(a), 0);
	b = mmap(NULL, 30, PROT_READ, MAP_SHARED, fd, 0);
	check("second MAP_SHARED", map_err(b), 0);
	if (mmap_failed(a) || mmap_failed(b))
		goto out_close;
	check("shared file zeroed", a[0] | a[29], 0);
	memcpy(a, "hello", 5);
	check("pread sees the mapping's write", pread64(fd, buf, 5, 0), 5);
	check("pread bytes", memcmp(buf, "hello", 5), 0);
	check("second mapping sees it", memcmp(b, "hello", 5), 0);
	check("lseek 10", lseek(fd, 10, SEEK_SET), 10);
	check("write XY", write(fd, "XY", 2), 2);
	check("the mapping sees write(2)", a[10] + a[11], 'X' + 'Y');
	/* the file grows past its block (rtk moves the bytes and keeps the
	 * old block for the mapping: no fault, freed with the file) */
	check("lseek 100000", lseek(fd, 100000, SEEK_SET), 100000);
	check("grow the file", write(fd, "G", 1), 1);
	check("mapping after the growth", a[0] + b[1], 'h' + 'e');
	/* a file written since boot has no page cache: a private copy */
	c = mmap(NULL, 30, PROT_READ, MAP_PRIVATE, fd, 0);
	check("MAP_PRIVATE of the written file", map_err(c), 0);
	if (!mmap_failed(c)) {
		check("private copy: bytes", memcmp(c, "hello", 5), 0);
		check("private copy: zero past EOF", c[4095], 0);
		munmap(c, 30);
	}
	/* rtk backs a shared file up to 64 MiB (FS_MAX_FILE_SIZE) only */
	rtk_check("MAP_SHARED at offset 2^60",
		  map_err(mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd,
			       1L << 60)), -ENOMEM);
	ro = open(shm_path, O_RDONLY, 0);
	c = mmap(NULL, 30, PROT_READ, MAP_SHARED, ro, 0);
	check("MAP_SHARED of an O_RDONLY fd", map_err(c), 0);
	check("mprotect it RW: -EACCES",
	      mprotect(c, 30, PROT_READ | PROT_WRITE), -EACCES);
	check("MAP_SHARED read-only sees the bytes", c[0], 'h');
	munmap(c, 30);
	close(ro);
	check("unlink while mapped", unlink(shm_path), 0);
	a[20] = '!';
	check("mapping outlives unlink", b[20], '!');
	check("munmap a", munmap(a, 30), 0);
	check("munmap b", munmap(b, 30), 0);
out_close:
	close(fd);
}

static void bad_input(void)
{
	int ro, wo, dir;

	check("bad fd", map_err(mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, 99,
				     0)), -EBADF);
	wo = open(wo_path, O_WRONLY | O_CREAT, 0666);
	check("open O_WRONLY", wo >= 0, 1);
	check("map an O_WRONLY fd", map_err(mmap(NULL, PAGE, PROT_READ,
						 MAP_PRIVATE, wo, 0)), -EACCES);
	close(wo);
	ro = open(wo_path, O_RDONLY, 0);
	check("MAP_SHARED PROT_WRITE of O_RDONLY",
	      map_err(mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ro,
			   0)), -EACCES);
	check("MAP_PRIVATE PROT_WRITE of O_RDONLY is fine",
	      map_err(mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro,
			   0)), 0);
	close(ro);
	check("unlink wo", unlink(wo_path), 0);
	check("map /dev/null", map_err(mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE,
					    devnull, 0)), -ENODEV);
	dir = open(dir_path, O_RDONLY, 0);
	check("map a directory", map_err(mmap(NULL, PAGE, PROT_READ,
					      MAP_PRIVATE, dir, 0)), -ENODEV);
	close(dir);
	check("len 0", map_err(mmap(NULL, 0, PROT_READ, MAP_PRIVATE, self, 0)),
	      -EINVAL);
	check("offset off a page", map_err(mmap(NULL, PAGE, PROT_READ,
						MAP_PRIVATE, self, 100)),
	      -EINVAL);
	check("no mapping type", map_err(mmap(NULL, PAGE, PROT_READ,
					      MAP_ANONYMOUS, -1, 0)), -EINVAL);
	check("huge len", map_err(map_anon(1UL << 62, PROT_READ, 0)), -ENOMEM);
	check("fixed range past user space",
	      map_err(mmap((void *)0x7ffffffff000UL, 2 * PAGE, PROT_READ,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)),
	      -ENOMEM);
	/* rtk: 64 MiB of private pages per process (Linux: overcommit) */
	rtk_check("128 MiB RW over the cap",
		  map_err(map_anon(128 * MIB, PROT_READ | PROT_WRITE, 0)),
		  -ENOMEM);
}

int main(int argc, char **argv)
{
	struct stat st;

	if (argc > 2) {
		self_path = argv[1];
		dir_path = argv[2];
		on_linux = true;
	}
	snprintf(shm_path, sizeof(shm_path), "%s/shm", dir_path);
	snprintf(wo_path, sizeof(wo_path), "%s/wo", dir_path);
	devnull = open("/dev/null", O_RDWR, 0);
	self = open(self_path, O_RDONLY, 0);
	if (devnull < 0 || self < 0 || fstat(self, &st)) {
		printf("t_mmap: cannot open /dev/null or %s\n", self_path);
		return 1;
	}
	self_size = st.st_size;
	check("mkdir the scratch dir", mkdir(dir_path, 0755), 0);
	snprintf(probe_path, sizeof(probe_path), "%s/probe", dir_path);
	probe = open(probe_path, O_RDWR | O_CREAT, 0666);
	if (probe < 0) {
		printf("t_mmap: cannot create %s: %d\n", probe_path, probe);
		return 1;
	}
	anonymous_memory();
	prot_none_reserves();
	huge_sparse_ranges();
	mprotect_cases();
	map_fixed();
	brk_cases();
	lock_calls();
	private_file_maps();
	shared_file_maps();
	bad_input();
	close(probe);
	check("unlink the probe file", unlink(probe_path), 0);
	check("rmdir the scratch dir", rmdir(dir_path), 0);
	close(self);
	close(devnull);
	printf("t_mmap: %d checks, %d failed\n", checks, failures);
	return failures;
}
