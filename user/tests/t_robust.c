/*
 * user/tests/t_robust.c - memory and futexes shared between a parent and
 * its forked child, and robust futexes (issue 30 item 6;
 * kernel/mm/file_mmap.c __do_mmap_shared_anon, kernel/futex/core.c's
 * shared key, kernel/futex/robust.c).  What must be seen:
 *   1. MAP_SHARED|MAP_ANONYMOUS survives fork as one memory: the child
 *      sees what the parent wrote before the fork, the parent sees the
 *      child's write; a MAP_PRIVATE|MAP_ANONYMOUS page stays private;
 *   2. a process-shared FUTEX_WAIT in the child (no FUTEX_PRIVATE_FLAG)
 *      is woken by the parent's FUTEX_WAKE on the same word: the wake
 *      returns 1 and the child's wait 0; a FUTEX_WAKE_PRIVATE of the
 *      parent on that word wakes nobody (its key is the parent's mm);
 *      and on a private page, between two threads, a FUTEX_WAKE_PRIVATE
 *      does not wake a plain FUTEX_WAIT either (Linux keys the two
 *      apart, FUT_OFF_MMSHARED), a plain FUTEX_WAKE does;
 *   3. a child that dies holding a robust futex (set_robust_list) while
 *      the parent waits on it: the word becomes FUTEX_OWNER_DIED |
 *      FUTEX_WAITERS, TID 0, and the parent's FUTEX_WAIT ends (it never
 *      times out);
 *   4. the same with a PI futex between the processes: the parent's
 *      FUTEX_LOCK_PI returns 0, the word names the parent and carries
 *      FUTEX_OWNER_DIED; FUTEX_UNLOCK_PI frees it;
 *   5. a child that dies holding a PI futex it never listed robust, the
 *      parent in FUTEX_LOCK_PI: the parent gets it (0), the word names
 *      the parent and carries FUTEX_OWNER_DIED all the same (Linux's
 *      exit_pi_state_list leaves the pi_state ownerless, and the waiter's
 *      fixup_pi_state_owner sets the bit; rtk's exit writes it, reaching
 *      the shared word through the kernel's mapping);
 *   6. bad robust lists in a child (a head at an unmapped address, at a
 *      kernel address, an entry whose word lies outside user memory, a
 *      cycle, a
 *      pending entry): the child exits 0 and is reaped, the words of a
 *      cycle's entries that named the child get FUTEX_OWNER_DIED, and so
 *      does the pending one's.
 *   7. (rtk only) shared anonymous memory counts until exit, however
 *      often unmapped (its file lives until then): mmap and munmap of
 *      1 MiB succeed until the 64 MiB cap (USER_MAX_PAGES), then
 *      -ENOMEM; Linux frees it at munmap and has no such cap.
 * No check waits for a time: every handshake is a word in the shared
 * page; each wait has a 10 s guard that only a broken kernel reaches.
 * tests/kernel/test_user_fork.c runs it, tools/user_host_test.sh runs it
 * on Linux.  Exit status: the number of failed checks.
 */
#include "user/lib/ulib.h"
#include "user/lib/clock.h"
#include "user/lib/pthread.h"

#define WAITERS		0x80000000u	/* FUTEX_WAITERS */
#define OWNER_DIED	0x40000000u	/* FUTEX_OWNER_DIED */
#define TID_MASK	0x3fffffffu
#define GUARD_NS	(10ll * 1000000000ll)

struct robust_list {
	struct robust_list *next;
};

struct robust_list_head {
	struct robust_list list;
	long futex_offset;
	struct robust_list *list_op_pending;
};

/* a robust mutex as glibc lays one out: the list entry, then the word */
struct rmutex {
	struct robust_list list;
	u32 word;
};

#define RMUTEX_OFFSET ((long)__builtin_offsetof(struct rmutex, word))

/* the page both processes map */
struct shared {
	u32 data;
	u32 ready;		/* the child's handshake */
	u32 wait_word;		/* 2. */
	struct rmutex robust;	/* 3. */
	struct rmutex pi;	/* 4. */
	struct rmutex plain_pi;	/* 5. */
	struct rmutex cycle[2];	/* 6. */
	struct rmutex pending;	/* 6. */
};

static struct shared *sh;
static int failures, checks;

static void check(const char *what, long seen, long expected)
{
	checks++;
	if (seen != expected) {
		failures++;
		printf("FAIL %s: expected %ld, seen %ld\n", what, expected,
		       seen);
	}
}

static u32 load(u32 *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static void store(u32 *p, u32 v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

/* spin_until - yield until *p has all of bits; false after the guard */
static bool spin_until(u32 *p, u32 bits)
{
	s64 end = clock_now_ns(CLOCK_MONOTONIC) + GUARD_NS;

	while ((load(p) & bits) != bits)
		if (sched_yield(), clock_now_ns(CLOCK_MONOTONIC) > end)
			return false;
	return true;
}

static long set_robust_list(struct robust_list_head *head)
{
	return sys_call2(__NR_set_robust_list, (long)head, sizeof(*head));
}

/* reap - the child's wait4 status, or -errno */
static int reap(int pid)
{
	int status = -1, ret = wait4(pid, &status, 0, NULL);

	return ret == pid ? status : ret;
}

static void shared_memory(void)
{
	static u32 private_word;
	u32 *priv;
	int pid;

	priv = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("private mmap", mmap_failed(priv), 0);
	if (mmap_failed(priv))
		priv = &private_word;
	sh->data = 0x1111;
	*priv = 0x2222;
	pid = fork();
	if (pid == 0) {
		int bad = (sh->data != 0x1111) | (*priv != 0x2222) << 1;

		sh->data = 0x3333;
		*priv = 0x4444;
		exit_group(bad);
	}
	check("child saw the parent's shared and private bytes", reap(pid), 0);
	check("parent sees the child's shared write", sh->data, 0x3333);
	check("parent's private page is its own", *priv, 0x2222);
}

static u32 private_word, private_ready;

static void *private_waiter(void *unused)
{
	struct timespec ts = { .tv_sec = 10 };

	store(&private_ready, 1);
	return (void *)futex(&private_word, FUTEX_WAIT, 0, &ts, NULL, 0);
}

/* wake_until_one - FUTEX_WAKE (op) word until it wakes one or the guard
 * passes (until the waiter is queued a wake finds nobody); the count */
static long wake_until_one(u32 *word, int op)
{
	s64 end = clock_now_ns(CLOCK_MONOTONIC) + GUARD_NS;
	long woken = 0;

	while (woken == 0 && clock_now_ns(CLOCK_MONOTONIC) < end) {
		woken = futex(word, op, 1, NULL, NULL, 0);
		if (!woken)
			sched_yield();
	}
	return woken;
}

static void private_page_keys(void)
{
	pthread_t th;
	void *ret = (void *)-1;

	if (pthread_create(&th, NULL, private_waiter, NULL)) {
		check("pthread_create", -1, 0);
		return;
	}
	spin_until(&private_ready, 1);
	check("private page: FUTEX_WAKE_PRIVATE misses a plain FUTEX_WAIT",
	      futex(&private_word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL,
		    NULL, 0), 0);
	check("private page: FUTEX_WAKE wakes it",
	      wake_until_one(&private_word, FUTEX_WAKE), 1);
	pthread_join(th, &ret);
	check("private page: the thread's FUTEX_WAIT", (long)ret, 0);
}

static void shared_wait_wake(void)
{
	int pid;

	store(&sh->wait_word, 0);
	store(&sh->ready, 0);
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { .tv_sec = 10 };
		long ret;

		store(&sh->ready, 1);
		ret = futex(&sh->wait_word, FUTEX_WAIT, 0, &ts, NULL, 0);
		exit_group(ret == 0 ? 0 : (int)-ret);
	}
	spin_until(&sh->ready, 1);
	check("FUTEX_WAKE_PRIVATE wakes no other process",
	      futex(&sh->wait_word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL,
		    NULL, 0), 0);
	check("shared FUTEX_WAKE woke the child",
	      wake_until_one(&sh->wait_word, FUTEX_WAKE), 1);
	check("child's shared FUTEX_WAIT returned 0", reap(pid), 0);
}

/* hold_and_die - the child of 3., 4. and 5.: take m (as its owner),
 * list it robust unless it is 5.'s (pi: bit 0 of the pointer to it),
 * then die once the parent's wait set FUTEX_WAITERS. */
static __noreturn void hold_and_die(struct rmutex *m, bool pi, bool robust)
{
	static struct robust_list_head head;

	head.list.next = (struct robust_list *)((unsigned long)&m->list | pi);
	m->list.next = &head.list;
	head.futex_offset = RMUTEX_OFFSET;
	head.list_op_pending = NULL;
	if (robust && set_robust_list(&head))
		exit_group(2);
	store(&m->word, (u32)gettid());
	store(&sh->ready, 1);
	exit_group(spin_until(&m->word, WAITERS) ? 0 : 3);
}

static void robust_owner_dies(void)
{
	struct timespec ts = { .tv_sec = 10 };
	int pid, kernel_woken = 0, timeouts = 0;
	u32 v;

	store(&sh->robust.word, 0);
	store(&sh->ready, 0);
	pid = fork();
	if (pid == 0)
		hold_and_die(&sh->robust, false, true);
	spin_until(&sh->ready, 1);
	/* a robust mutex's slow lock: mark it contended, sleep on it */
	while (!((v = load(&sh->robust.word)) & OWNER_DIED)) {
		long ret;

		if (!(v & WAITERS) &&
		    !__atomic_compare_exchange_n(&sh->robust.word, &v,
						 v | WAITERS, false,
						 __ATOMIC_SEQ_CST,
						 __ATOMIC_SEQ_CST))
			continue;
		ret = futex(&sh->robust.word, FUTEX_WAIT, v | WAITERS, &ts,
			    NULL, 0);
		kernel_woken += ret == 0;
		if (ret == -ETIMEDOUT) {
			timeouts++;
			break;
		}
	}
	check("robust: child exit status", reap(pid), 0);
	check("robust: word after the owner died",
	      load(&sh->robust.word), OWNER_DIED | WAITERS);
	check("robust: the waiter's FUTEX_WAIT timed out", timeouts, 0);
	printf("t_robust: robust waiter woken in the kernel: %s\n",
	       kernel_woken ? "yes" : "no (the owner died first)");
}

/* pi_owner_dies - 4. (robust) and 5.: the child dies holding m, a PI
 * futex, while the parent waits in FUTEX_LOCK_PI. */
static void pi_owner_dies(struct rmutex *m, bool robust)
{
	s64 deadline = clock_now_ns(CLOCK_REALTIME) + GUARD_NS;
	struct timespec ts = ns_to_timespec(deadline);
	const char *kind = robust ? "robust PI" : "PI";
	char what[80];
	int pid;
	long ret;
	u32 v;

	store(&m->word, 0);
	store(&sh->ready, 0);
	pid = fork();
	if (pid == 0)
		hold_and_die(m, true, robust);
	spin_until(&sh->ready, 1);
	ret = futex(&m->word, FUTEX_LOCK_PI, 0, &ts, NULL, 0);
	v = load(&m->word);
	snprintf(what, sizeof(what), "%s: FUTEX_LOCK_PI across processes",
		 kind);
	check(what, ret, 0);
	snprintf(what, sizeof(what), "%s: the word names the parent", kind);
	check(what, v & TID_MASK, gettid());
	snprintf(what, sizeof(what), "%s: FUTEX_OWNER_DIED set", kind);
	check(what, !!(v & OWNER_DIED), 1);
	snprintf(what, sizeof(what), "%s: child exit status", kind);
	check(what, reap(pid), 0);
	snprintf(what, sizeof(what), "%s: FUTEX_UNLOCK_PI", kind);
	check(what, futex(&m->word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0), 0);
	snprintf(what, sizeof(what), "%s: the word after the unlock", kind);
	check(what, load(&m->word), 0);
}

/* bad_list_child - a child whose robust list is case `which` of 6. */
static int bad_list_child(int which)
{
	static struct robust_list_head head;
	struct robust_list *e0 = &sh->cycle[0].list, *e1 = &sh->cycle[1].list;
	int pid = fork();
	u32 tid;

	if (pid)
		return reap(pid);
	tid = (u32)gettid();	/* the child's */
	head.futex_offset = RMUTEX_OFFSET;
	head.list.next = &head.list;
	switch (which) {
	case 0:	/* a head nobody mapped */
		exit_group(set_robust_list((void *)0x1000) ? 2 : 0);
	case 1:	/* a head in the kernel half */
		exit_group(set_robust_list((void *)0xffff800000000000ul) ? 2 :
									   0);
	case 2:	/* an entry whose word is outside user memory */
		head.futex_offset = 0x100000000000l;
		head.list.next = e0;
		e0->next = &head.list;
		break;
	case 3:	/* a cycle that never comes back to the head */
		store(&sh->cycle[0].word, tid);
		store(&sh->cycle[1].word, tid);
		head.list.next = e0;
		e0->next = e1;
		e1->next = e0;
		break;
	case 4:	/* only a pending entry */
		store(&sh->pending.word, tid);
		head.list_op_pending = &sh->pending.list;
		break;
	}
	exit_group(set_robust_list(&head) ? 2 : 0);
}

static void bad_robust_lists(void)
{
	check("bad list: unmapped head", bad_list_child(0), 0);
	check("bad list: kernel head", bad_list_child(1), 0);
	check("bad list: a word outside user memory", bad_list_child(2), 0);
	check("bad list: a cycle", bad_list_child(3), 0);
	check("bad list: the cycle's first word", load(&sh->cycle[0].word),
	      OWNER_DIED);
	check("bad list: the cycle's second word", load(&sh->cycle[1].word),
	      OWNER_DIED);
	check("bad list: only a pending entry", bad_list_child(4), 0);
	check("bad list: the pending word", load(&sh->pending.word),
	      OWNER_DIED);
}

/* the 7. loop: 1 MiB mappings, each unmapped at once, until refused */
static void shared_anon_cap(void)
{
	long mib = 1 << 20, n = 0;
	void *p;

	for (;;) {
		p = mmap(NULL, mib, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (mmap_failed(p) || n > 64)
			break;
		munmap(p, mib);
		n++;
	}
	/* 64 MiB less the one page of `sh` */
	check("shared anon cap: 1 MiB maps before the cap", n, 63);
	check("shared anon cap: then", mmap_failed(p) ? (long)p : 0, -ENOMEM);
}

int main(int argc, char **argv)
{
	sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mmap_failed(sh)) {
		printf("FAIL MAP_SHARED|MAP_ANONYMOUS: %ld\n", (long)sh);
		return 1;
	}
	shared_memory();
	shared_wait_wake();
	private_page_keys();
	robust_owner_dies();
	pi_owner_dies(&sh->pi, true);
	pi_owner_dies(&sh->plain_pi, false);
	bad_robust_lists();
	if (getppid() == 0)	/* started by rtk's kernel, not a shell */
		shared_anon_cap();
	check("munmap of the shared page", munmap(sh, 4096), 0);
	printf("t_robust: %d checks, %d failed\n", checks, failures);
	return failures;
}
