/*
 * user/tests/t_signal.c - signal delivery as Linux x86_64 does it (issue
 * 30 item 5; kernel/user/signal_deliver.c, sys_signal.c, sys_sigwait.c,
 * arch/x86_64/signal_frame.c).  What must be seen:
 *   1. a handler's entry: rdi = sig, rsi = &info, rdx = &uc, rax = 0,
 *      (rsp + 8) % 16 == 0, the frame below the interrupted stack's red
 *      zone, the FXSAVE image 64-byte aligned at uc's fpstate;
 *      SA_SIGINFO's info: si_signo, si_code SI_USER (kill) / SI_TKILL
 *      (tgkill), si_pid, si_uid;
 *   2. the mask during the handler (sig itself and sa_mask) and after it
 *      (the old one back); SA_NODEFER lets the signal nest, without it
 *      the second one waits; SA_RESETHAND leaves SIG_DFL;
 *   3. a second thread, B, sleeping in a blocking socketpair read, a
 *      futex wait, nanosleep and poll, signalled by the main thread with
 *      tgkill: with SA_RESTART read and futex wait restart (the handler
 *      sees rip back on the SYSCALL and rax = the call's number), without
 *      it they return -EINTR; nanosleep and poll return -EINTR either
 *      way, nanosleep with the time left in rem.  The handler tells
 *      from the frame's RCX (set to the return address only by a
 *      SYSCALL) whether it interrupted the call; a round where the
 *      signal came before B was asleep is not counted and runs again;
 *   4. rt_sigtimedwait: a pending one at once with its siginfo, -EAGAIN
 *      after a timeout, and one sent by another thread while it waits;
 *      rt_sigsuspend: -EINTR after the handler, the mask back;
 *   5. SIGSEGV from a bad pointer, caught: si_addr, SEGV_MAPERR, or
 *      SEGV_ACCERR for a write to code, SI_KERNEL for a #GP; the
 *      sigcontext's trapno, err and cr2; the handler resumes the program
 *      at a fix-up address (as siglongjmp would);
 *   6. the FPU: xmm registers and MXCSR set before a signal are back
 *      after a handler that changed them; the handler starts with the
 *      reset MXCSR;
 *   7. sigaltstack and SA_ONSTACK: the handler runs on the alternate
 *      stack and sigaltstack says SS_ONSTACK there; -EPERM to change it
 *      then, -ENOMEM, -EINVAL;
 *   8. bad input: bad sigset sizes, signals, pointers, pids.
 * With an argument it only does one thing that must end the process
 * (tests/kernel/test_user_signal.c checks the wait status): `term`,
 * `quit` (core: killed by SIGQUIT, no core file), `ignored` (SIGCHLD,
 * SIGURG, SIGWINCH, SIGCONT do nothing: exit 0), `stop` (SIGTSTP,
 * SIGTTIN, SIGTTOU: rtk has no job control and ignores them, exit 0;
 * Linux stops the process), `segv_blocked` (a fault with SIGSEGV blocked),
 * `badstack` (the frame cannot be written), `norestorer` (no
 * SA_RESTORER), `nested_segv` (a fault inside the SIGSEGV handler).
 * It runs unchanged on a Linux host, where every check passes (how the
 * expected values were checked; Linux's frame adds UC_FP_XSTATE).
 * Longer than a test file should be: one program for the whole of
 * issue 30 item 5, so one run under test_user_signal.c's memory
 * snapshot covers every path, sharing the probe, restorer and flags.
 * Exit status: the number of failed checks.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"
#include "arch/x86_64/uapi_sigcontext.h"

static int failures, checks;

static void check(const char *what, long got, long expected)
{
	__atomic_fetch_add(&checks, 1, __ATOMIC_RELAXED);
	if (got != expected) {
		__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

/* ---- assembly: the restorer, a probe at handler entry, a marked
 * SYSCALL, a load and a store that may fault, with their fix-up */
void restore_rt(void);
void probe_entry(void);
long marked_syscall(long nr, long a0, long a1, long a2, long a3);
long fault_load(const void *addr);
void fault_store(void *addr);
extern char mark_insn[], fault_insn[], fault_fixup[], fault_store_insn[];
unsigned long probe_rsp, probe_rdi, probe_rsi, probe_rdx, probe_rax;

__asm__(".text\n"
	".globl restore_rt\n"
	"restore_rt:\n"
	"	mov $15, %eax\n"		/* __NR_rt_sigreturn */
	"	syscall\n"
	"	hlt\n"
	".globl probe_entry\n"
	"probe_entry:\n"
	"	mov %rsp, probe_rsp(%rip)\n"
	"	mov %rdi, probe_rdi(%rip)\n"
	"	mov %rsi, probe_rsi(%rip)\n"
	"	mov %rdx, probe_rdx(%rip)\n"
	"	mov %rax, probe_rax(%rip)\n"
	"	jmp probe_handler\n"
	".globl marked_syscall\n"
	"marked_syscall:\n"
	"	mov %rdi, %rax\n"
	"	mov %rsi, %rdi\n"
	"	mov %rdx, %rsi\n"
	"	mov %rcx, %rdx\n"
	"	mov %r8, %r10\n"
	"	xor %ecx, %ecx\n"		/* RCX = mark_insn + 2 only after it */
	".globl mark_insn\n"
	"mark_insn:\n"
	"	syscall\n"
	"	ret\n"
	".globl fault_load\n"
	"fault_load:\n"
	".globl fault_insn\n"
	"fault_insn:\n"
	"	mov (%rdi), %rax\n"
	"	ret\n"
	".globl fault_store\n"
	"fault_store:\n"
	".globl fault_store_insn\n"
	"fault_store_insn:\n"
	"	movb $1, (%rdi)\n"
	"	ret\n"
	".globl fault_fixup\n"
	"fault_fixup:\n"
	"	mov $-1, %rax\n"
	"	ret\n");

static long set_action(int sig, void *handler, unsigned long flags, u64 mask)
{
	struct kernel_sigaction ka = {
		.sa_handler = (unsigned long)handler,
		.sa_flags = flags | SA_RESTORER,
		.sa_restorer = (unsigned long)restore_rt,
		.sa_mask = mask,
	};

	return sys_call4(__NR_rt_sigaction, sig, (long)&ka, 0, 8);
}

static u64 get_mask(void)
{
	u64 old = 0;

	sys_call4(__NR_rt_sigprocmask, SIG_BLOCK, 0, (long)&old, 8);
	return old;
}

static void set_mask(u64 m)
{
	sys_call4(__NR_rt_sigprocmask, SIG_SETMASK, (long)&m, 0, 8);
}

static int tgkill(int tgid, int tid, int sig)
{
	return sys_call3(__NR_tgkill, tgid, tid, sig);
}

/* flags with a futex under them: set_flag wakes wait_flag's sleeper */
static void set_flag(int *f)
{
	__atomic_store_n(f, 1, __ATOMIC_SEQ_CST);
	futex((u32 *)f, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
}

static void wait_flag(int *f)
{
	while (!__atomic_load_n(f, __ATOMIC_SEQ_CST))
		futex((u32 *)f, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
	__atomic_store_n(f, 0, __ATOMIC_SEQ_CST);
}

/* ---- 1, 2: the probe handler */
static struct {
	int count, depth, max_depth, raise_again;
	int sig;
	struct siginfo info;
	u64 mask_inside, uc_sigmask;
	struct ucontext uc;
} probe;

void probe_handler(int sig, struct siginfo *info, struct ucontext *uc);
void probe_handler(int sig, struct siginfo *info, struct ucontext *uc)
{
	probe.count++;
	if (++probe.depth > probe.max_depth)
		probe.max_depth = probe.depth;
	probe.sig = sig;
	probe.info = *info;
	probe.uc = *uc;
	probe.mask_inside = get_mask();
	probe.uc_sigmask = uc->uc_sigmask;
	if (probe.raise_again) {
		probe.raise_again = 0;
		kill(getpid(), sig);	/* nested with SA_NODEFER only */
	}
	probe.depth--;
}

static void handler_entry_and_siginfo(void)
{
	unsigned long frame, fp, sp;

	memset(&probe, 0, sizeof(probe));
	set_mask(0);
	check("sigaction SIGUSR1",
	      set_action(SIGUSR1, probe_entry, SA_SIGINFO, sigmask(SIGUSR2)), 0);
	check("kill self", kill(getpid(), SIGUSR1), 0);
	check("handler ran before kill returned", probe.count, 1);
	frame = probe_rsp;
	check("(rsp + 8) % 16 at entry", (long)((frame + 8) % 16), 0);
	check("rdi = sig", (long)probe_rdi, SIGUSR1);
	check("rsi = &frame->info", (long)(probe_rsi - frame),
	      (long)offsetof(struct rt_sigframe, info));
	check("rdx = &frame->uc", (long)(probe_rdx - frame),
	      (long)offsetof(struct rt_sigframe, uc));
	check("rax = 0", (long)probe_rax, 0);
	check("pretcode = sa_restorer", (long)*(unsigned long *)frame,
	      (long)restore_rt);
	fp = probe.uc.uc_mcontext.fpstate;
	sp = probe.uc.uc_mcontext.rsp;
	check("fpstate 64-byte aligned", (long)(fp % 64), 0);
	check("frame below fpstate",
	      frame + sizeof(struct rt_sigframe) <= fp, 1);
	check("fpstate below the red zone", fp + FXSAVE_SIZE <= sp - 128, 1);
	check("si_signo", probe.info.si_signo, SIGUSR1);
	check("si_code SI_USER", probe.info.si_code, SI_USER);
	check("si_pid", probe.info.si_pid, getpid());
	check("si_uid", probe.info.si_uid, 0);
	/* Linux on an XSAVE machine adds UC_FP_XSTATE (1); rtk has FXSAVE's */
	check("uc_flags", (long)(probe.uc.uc_flags & ~1UL),
	      UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS);
	check("uc cs is user", probe.uc.uc_mcontext.cs & 3, 3);
	check("mask inside: sig and sa_mask", (long)probe.mask_inside,
	      (long)(sigmask(SIGUSR1) | sigmask(SIGUSR2)));
	check("uc_sigmask = the old mask", (long)probe.uc_sigmask, 0);
	check("oldmask = the old mask", (long)probe.uc.uc_mcontext.oldmask, 0);
	check("mask after return", (long)get_mask(), 0);

	check("tgkill self", tgkill(getpid(), gettid(), SIGUSR1), 0);
	check("tgkill: handler ran", probe.count, 2);
	check("tgkill: si_code SI_TKILL", probe.info.si_code, SI_TKILL);
	check("tgkill: si_pid", probe.info.si_pid, getpid());
}

static void nodefer_and_resethand(void)
{
	struct kernel_sigaction old;

	memset(&probe, 0, sizeof(probe));
	set_action(SIGUSR1, probe_entry, SA_SIGINFO, 0);
	probe.raise_again = 1;
	kill(getpid(), SIGUSR1);
	check("deferred: two runs", probe.count, 2);
	check("deferred: never nested", probe.max_depth, 1);

	memset(&probe, 0, sizeof(probe));
	set_action(SIGUSR1, probe_entry, SA_SIGINFO | SA_NODEFER, 0);
	probe.raise_again = 1;
	kill(getpid(), SIGUSR1);
	check("SA_NODEFER: two runs", probe.count, 2);
	check("SA_NODEFER: nested", probe.max_depth, 2);
	check("SA_NODEFER: sig not in the mask",
	      (long)(probe.mask_inside & sigmask(SIGUSR1)), 0);

	memset(&probe, 0, sizeof(probe));
	set_action(SIGUSR1, probe_entry, SA_SIGINFO | SA_RESETHAND, 0);
	kill(getpid(), SIGUSR1);
	check("SA_RESETHAND: ran", probe.count, 1);
	sys_call4(__NR_rt_sigaction, SIGUSR1, 0, (long)&old, 8);
	check("SA_RESETHAND: SIG_DFL after", (long)old.sa_handler, (long)SIG_DFL);
	set_action(SIGUSR1, probe_entry, SA_SIGINFO, 0);
}

/* ---- 3: B sleeps, main signals it */
enum unblock { UNBLOCK_WRITE, UNBLOCK_FUTEX, UNBLOCK_NONE };

static struct {
	long nr, a0, a1, a2, a3;
	enum unblock unblock;
	int go, ready, handled, done, stop;
	char byte;
	int in_syscall, restarted, eintr_in_frame;
	long result;
	int sv[2];
	u32 word;
	struct timespec req, rem;
} b;

static void b_handler(int sig, struct siginfo *info, struct ucontext *uc)
{
	const struct sigcontext *sc = &uc->uc_mcontext;

	b.in_syscall = sc->rcx == (unsigned long)mark_insn + 2;
	b.restarted = sc->rip == (unsigned long)mark_insn &&
		      (long)sc->rax == b.nr;
	b.eintr_in_frame = sc->rip == (unsigned long)mark_insn + 2 &&
			   (long)sc->rax == -EINTR;
	set_flag(&b.handled);
}

static void *b_thread(void *arg)
{
	char c;

	for (;;) {
		wait_flag(&b.go);		/* main has set the call up */
		if (__atomic_load_n(&b.stop, __ATOMIC_SEQ_CST))
			return NULL;
		set_flag(&b.ready);
		b.result = marked_syscall(b.nr, b.a0, b.a1, b.a2, b.a3);
		if (b.unblock == UNBLOCK_WRITE && b.result == -EINTR)
			read(b.sv[1], &c, 1);	/* the byte main sends */
		set_flag(&b.done);
	}
}

/*
 * interrupt_case - one kind of sleep of B, signalled until a round
 * interrupts it asleep (at most 100 rounds; each unblocks B in the end).
 */
static void interrupt_case(const char *name, int b_tid, bool sa_restart,
			   bool expect_restart)
{
	char what[96];
	int round, conclusive = 0;

	set_action(SIGUSR2, b_handler, SA_SIGINFO | (sa_restart ? SA_RESTART : 0),
		   0);
	for (round = 0; round < 100 && !conclusive; round++) {
		b.word = 0;
		set_flag(&b.go);
		wait_flag(&b.ready);
		do {
			tgkill(getpid(), b_tid, SIGUSR2);
			wait_flag(&b.handled);
		} while (b.unblock == UNBLOCK_NONE && !b.in_syscall);
		conclusive = b.in_syscall;
		if (b.unblock == UNBLOCK_WRITE) {
			write(b.sv[0], "x", 1);
		} else if (b.unblock == UNBLOCK_FUTEX) {
			__atomic_store_n(&b.word, 1, __ATOMIC_SEQ_CST);
			futex(&b.word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL,
			      NULL, 0);
		}
		wait_flag(&b.done);
		if (conclusive) {
			snprintf(what, sizeof(what), "%s: restarted (frame)", name);
			check(what, b.restarted, expect_restart);
			snprintf(what, sizeof(what), "%s: -EINTR in the frame", name);
			check(what, b.eintr_in_frame, !expect_restart);
			snprintf(what, sizeof(what), "%s: -EINTR returned", name);
			check(what, b.result == -EINTR, !expect_restart);
		}
	}
	snprintf(what, sizeof(what), "%s: a round caught B asleep", name);
	check(what, conclusive, 1);
}

static void sleeps_interrupted_by_tgkill(void)
{
	pthread_t th;
	int tid;

	check("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, b.sv), 0);
	b.nr = __NR_read;
	b.a0 = b.sv[1];
	b.a1 = (long)&b.byte;
	b.a2 = 1;
	b.unblock = UNBLOCK_WRITE;
	check("pthread_create", pthread_create(&th, NULL, b_thread, NULL), 0);
	tid = pthread_tid(th);
	interrupt_case("read, SA_RESTART", tid, true, true);
	interrupt_case("read", tid, false, false);

	b.nr = __NR_futex;
	b.a0 = (long)&b.word;
	b.a1 = FUTEX_WAIT | FUTEX_PRIVATE_FLAG;
	b.a2 = 0;
	b.a3 = 0;
	b.unblock = UNBLOCK_FUTEX;
	interrupt_case("futex wait, SA_RESTART", tid, true, true);
	interrupt_case("futex wait", tid, false, false);

	b.req.tv_sec = 1000;
	b.req.tv_nsec = 0;
	b.nr = __NR_nanosleep;
	b.a0 = (long)&b.req;
	b.a1 = (long)&b.rem;
	b.unblock = UNBLOCK_NONE;
	interrupt_case("nanosleep, SA_RESTART", tid, true, false);
	/* at most the request: Linux's remaining time counts its 50 us
	 * timer slack, so rem may read 1000 s there */
	check("nanosleep: rem at most the request", b.rem.tv_sec <= 1000, 1);
	check("nanosleep: rem above 0", b.rem.tv_sec > 900, 1);

	b.nr = __NR_poll;
	b.a0 = 0;
	b.a1 = 0;
	b.a2 = 1000 * 1000;
	interrupt_case("poll, SA_RESTART", tid, true, false);

	__atomic_store_n(&b.stop, 1, __ATOMIC_SEQ_CST);
	set_flag(&b.go);
	check("pthread_join", pthread_join(th, NULL), 0);
	close(b.sv[0]);
	close(b.sv[1]);
}

/* ---- 4: rt_sigtimedwait, rt_sigsuspend */
static long sigtimedwait(u64 set, struct siginfo *info, struct timespec *ts,
			 long size)
{
	return sys_call4(__NR_rt_sigtimedwait, (long)&set, (long)info, (long)ts,
			 size);
}

static int waiter_tid, sender_go, sender_sig;

/* sender_thread - tgkill SIGUSR1 to the waiter, or kill() sender_sig to
 * the process when it is set (the sender blocks it: inherited mask) */
static void *sender_thread(void *arg)
{
	wait_flag(&sender_go);
	if (sender_sig)
		kill(getpid(), sender_sig);
	else
		tgkill(getpid(), waiter_tid, SIGUSR1);
	return NULL;
}

/* sent_while_waiting - a thread sends (tgkill SIGUSR1 to main, or
 * kill() of kill_sig) while main waits in rt_sigtimedwait for sig */
static void sent_while_waiting(const char *what, int kill_sig, int sig,
			       int code)
{
	struct siginfo info;
	pthread_t th;

	sender_sig = kill_sig;
	check("pthread_create", pthread_create(&th, NULL, sender_thread, NULL), 0);
	set_flag(&sender_go);
	check(what, sigtimedwait(sigmask(sig), &info, NULL, 8), sig);
	check(what, info.si_code, code);
	pthread_join(th, NULL);
}

static void timedwait_and_suspend(void)
{
	struct timespec zero = { 0, 0 }, ms = { 0, 20 * NSEC_PER_MSEC };
	struct timespec bad = { 0, NSEC_PER_SEC };
	struct siginfo info;
	u64 set;

	set_mask(sigmask(SIGUSR1));
	memset(&probe, 0, sizeof(probe));
	kill(getpid(), SIGUSR1);
	check("blocked: no handler", probe.count, 0);
	memset(&info, 0, sizeof(info));
	check("sigtimedwait: pending one",
	      sigtimedwait(sigmask(SIGUSR1), &info, NULL, 8), SIGUSR1);
	check("sigtimedwait: si_signo", info.si_signo, SIGUSR1);
	check("sigtimedwait: si_code", info.si_code, SI_USER);
	check("sigtimedwait: si_pid", info.si_pid, getpid());
	check("sigtimedwait: zero timeout -EAGAIN",
	      sigtimedwait(sigmask(SIGUSR1), &info, &zero, 8), -EAGAIN);
	check("sigtimedwait: 20 ms timeout -EAGAIN",
	      sigtimedwait(sigmask(SIGUSR1), &info, &ms, 8), -EAGAIN);
	check("sigtimedwait: sigsetsize 4",
	      sigtimedwait(sigmask(SIGUSR1), &info, NULL, 4), -EINVAL);
	check("sigtimedwait: tv_nsec 1e9",
	      sigtimedwait(sigmask(SIGUSR1), &info, &bad, 8), -EINVAL);
	check("sigtimedwait: bad set",
	      sys_call4(__NR_rt_sigtimedwait, 8, 0, 0, 8), -EFAULT);

	waiter_tid = gettid();
	sent_while_waiting("sent by tgkill while waiting", 0, SIGUSR1, SI_TKILL);
	check("mask unchanged", (long)get_mask(), (long)sigmask(SIGUSR1));
	/* SIGUSR2 at SIG_DFL (fatal), blocked by both threads, kill()ed to
	 * the process while main waits for it: taken, not fatal */
	set_action(SIGUSR2, (void *)SIG_DFL, 0, 0);
	set_mask(sigmask(SIGUSR1) | sigmask(SIGUSR2));
	sent_while_waiting("SIG_DFL one kill()ed while waiting", SIGUSR2,
			   SIGUSR2, SI_USER);
	set_mask(sigmask(SIGUSR1));

	/* rt_sigsuspend: USR1 pending and blocked, suspend with it open */
	memset(&probe, 0, sizeof(probe));
	set_action(SIGUSR1, probe_entry, SA_SIGINFO, 0);
	kill(getpid(), SIGUSR1);
	set = sigmask(SIGUSR2);
	check("rt_sigsuspend -EINTR",
	      sys_call2(__NR_rt_sigsuspend, (long)&set, 8), -EINTR);
	check("rt_sigsuspend: the handler ran", probe.count, 1);
	check("rt_sigsuspend: mask inside",
	      (long)probe.mask_inside, (long)(sigmask(SIGUSR1) | sigmask(SIGUSR2)));
	check("rt_sigsuspend: the old mask back", (long)get_mask(),
	      (long)sigmask(SIGUSR1));
	check("rt_sigsuspend: sigsetsize 4",
	      sys_call2(__NR_rt_sigsuspend, (long)&set, 4), -EINVAL);
	set_mask(0);
}

/* ---- 5: SIGSEGV caught */
static struct {
	int count;
	struct siginfo info;
	struct sigcontext sc;
} segv;

static void segv_handler(int sig, struct siginfo *info, struct ucontext *uc)
{
	segv.count++;
	segv.info = *info;
	segv.sc = uc->uc_mcontext;
	uc->uc_mcontext.rip = (unsigned long)fault_fixup;	/* resume there */
}

static void sigsegv_caught(void)
{
	memset(&segv, 0, sizeof(segv));
	check("sigaction SIGSEGV", set_action(SIGSEGV, segv_handler, SA_SIGINFO, 0),
	      0);
	check("load from 8: fixed up", fault_load((void *)8), -1);
	check("SIGSEGV caught", segv.count, 1);
	check("si_signo", segv.info.si_signo, SIGSEGV);
	check("si_code SEGV_MAPERR", segv.info.si_code, SEGV_MAPERR);
	check("si_addr", (long)segv.info.si_addr, 8);
	check("trapno 14 (#PF)", (long)segv.sc.trapno, 14);
	check("cr2", (long)segv.sc.cr2, 8);
	check("err: user read, not present", (long)segv.sc.err, 4);
	check("rip at the load", (long)segv.sc.rip, (long)fault_insn);
	check("SIGSEGV not blocked after", (long)(get_mask() & sigmask(SIGSEGV)), 0);

	fault_store((void *)main);
	check("store to code: caught", segv.count, 2);
	check("SEGV_ACCERR", segv.info.si_code, SEGV_ACCERR);
	check("si_addr = main", (long)segv.info.si_addr, (long)main);
	check("err: user write, protection", (long)segv.sc.err, 7);

	check("non-canonical load: fixed up",
	      fault_load((void *)0x8000000000000000UL), -1);
	check("#GP caught", segv.count, 3);
	check("#GP: SI_KERNEL", segv.info.si_code, SI_KERNEL);
	check("#GP: trapno 13", (long)segv.sc.trapno, 13);
	set_action(SIGSEGV, (void *)SIG_DFL, 0, 0);
}

/* ---- 6: the FPU across a handler */
static u32 handler_mxcsr;

static void fpu_handler(int sig)
{
	u32 trash = 0x1F80 | 0x6000;	/* round toward zero */

	__asm__ volatile("stmxcsr %0" : "=m"(handler_mxcsr));
	__asm__ volatile("pcmpeqd %%xmm0, %%xmm0\n\t"
			 "pcmpeqd %%xmm7, %%xmm7\n\t"
			 "pcmpeqd %%xmm15, %%xmm15\n\t"
			 "ldmxcsr %0" : : "m"(trash) : "xmm0", "xmm7", "xmm15");
}

static void fpu_restored_after_handler(void)
{
	static const u64 pattern[2] __aligned(16) = { 0x0123456789abcdefULL,
						      0xfedcba9876543210ULL };
	u64 out0[2] __aligned(16), out7[2] __aligned(16), out15[2] __aligned(16);
	u32 mx_in = 0x1F80 | 0x2000, mx_out = 0;	/* round down */
	long ret;

	set_action(SIGUSR1, fpu_handler, 0, 0);
	__asm__ volatile("movdqa %[p], %%xmm0\n\t"
			 "movdqa %[p], %%xmm7\n\t"
			 "movdqa %[p], %%xmm15\n\t"
			 "ldmxcsr %[mi]\n\t"
			 "syscall\n\t"
			 "movdqa %%xmm0, %[o0]\n\t"
			 "movdqa %%xmm7, %[o7]\n\t"
			 "movdqa %%xmm15, %[o15]\n\t"
			 "stmxcsr %[mo]"
			 : "=a"(ret), [o0] "=m"(out0), [o7] "=m"(out7),
			   [o15] "=m"(out15), [mo] "=m"(mx_out)
			 : "a"((long)__NR_kill), "D"((long)getpid()),
			   "S"((long)SIGUSR1), [p] "m"(pattern), [mi] "m"(mx_in)
			 : "rcx", "r11", "memory", "xmm0", "xmm7", "xmm15");
	check("kill in asm", ret, 0);
	check("handler: reset MXCSR", handler_mxcsr, 0x1F80);
	check("xmm0 back", out0[0] == pattern[0] && out0[1] == pattern[1], 1);
	check("xmm7 back", out7[0] == pattern[0] && out7[1] == pattern[1], 1);
	check("xmm15 back", out15[0] == pattern[0] && out15[1] == pattern[1], 1);
	check("MXCSR back", mx_out, mx_in);
	mx_in = 0x1F80;
	__asm__ volatile("ldmxcsr %0" : : "m"(mx_in));
}

/* ---- 7: sigaltstack */
static char altstack[16384] __aligned(16);
static struct sigaltstack_uapi inside;
static long inside_change;

static void alt_handler(int sig)
{
	struct sigaltstack_uapi ss = { (unsigned long)altstack, 0,
				       sizeof(altstack) };

	sys_call2(__NR_sigaltstack, 0, (long)&inside);
	inside_change = sys_call2(__NR_sigaltstack, (long)&ss, 0);
	probe_rsp = (unsigned long)__builtin_frame_address(0);
}

static void sigaltstack_onstack(void)
{
	struct sigaltstack_uapi ss = { (unsigned long)altstack, 0,
				       sizeof(altstack) }, old;

	check("sigaltstack: none yet", sys_call2(__NR_sigaltstack, 0, (long)&old), 0);
	check("... SS_DISABLE", old.ss_flags, SS_DISABLE);
	check("sigaltstack set", sys_call2(__NR_sigaltstack, (long)&ss, 0), 0);
	set_action(SIGUSR1, alt_handler, SA_ONSTACK, 0);
	kill(getpid(), SIGUSR1);
	check("handler on the alternate stack",
	      probe_rsp > (unsigned long)altstack &&
	      probe_rsp < (unsigned long)altstack + sizeof(altstack), 1);
	check("inside: SS_ONSTACK", inside.ss_flags, SS_ONSTACK);
	check("inside: change -EPERM", inside_change, -EPERM);
	ss.ss_size = 1024;
	check("size < MINSIGSTKSZ -ENOMEM",
	      sys_call2(__NR_sigaltstack, (long)&ss, 0), -ENOMEM);
	ss.ss_flags = 5;
	ss.ss_size = sizeof(altstack);
	check("bad flags -EINVAL", sys_call2(__NR_sigaltstack, (long)&ss, 0),
	      -EINVAL);
	check("bad pointer -EFAULT", sys_call2(__NR_sigaltstack, 8, 0), -EFAULT);
	ss.ss_flags = SS_DISABLE;
	check("disable", sys_call2(__NR_sigaltstack, (long)&ss, 0), 0);
	set_action(SIGUSR1, (void *)SIG_DFL, 0, 0);
}

/* ---- 8: bad input */
static void bad_input(void)
{
	struct kernel_sigaction ka = { 0 };

	check("sigaction size 4", sys_call4(__NR_rt_sigaction, SIGUSR1, (long)&ka,
					    0, 4), -EINVAL);
	check("sigaction sig 0", sys_call4(__NR_rt_sigaction, 0, (long)&ka, 0, 8),
	      -EINVAL);
	check("sigaction sig 65", sys_call4(__NR_rt_sigaction, 65, (long)&ka, 0, 8),
	      -EINVAL);
	check("sigaction SIGKILL", sys_call4(__NR_rt_sigaction, SIGKILL, (long)&ka,
					     0, 8), -EINVAL);
	check("sigaction bad act", sys_call4(__NR_rt_sigaction, SIGUSR1, 8, 0, 8),
	      -EFAULT);
	check("sigaction kernel act",
	      sys_call4(__NR_rt_sigaction, SIGUSR1, (long)0xffff800000000000UL, 0,
			8), -EFAULT);
	check("kill sig 65", kill(getpid(), 65), -EINVAL);
	check("kill no such pid", kill(999999, SIGUSR1), -ESRCH);
	check("tgkill wrong tgid", tgkill(getpid() + 100000, gettid(), SIGUSR1),
	      -ESRCH);
	check("tgkill tgid 0", tgkill(0, gettid(), SIGUSR1), -EINVAL);
	check("sigprocmask bad how",
	      sys_call4(__NR_rt_sigprocmask, 7, (long)&ka.sa_mask, 0, 8), -EINVAL);
}

/* ---- the modes that end the process */
static void deliver_to_bad_stack(void)
{
	struct sigaltstack_uapi ss = { 0x1000, 0, 65536 };	/* unmapped */

	sys_call2(__NR_sigaltstack, (long)&ss, 0);
	set_action(SIGUSR1, probe_entry, SA_ONSTACK | SA_SIGINFO, 0);
	kill(getpid(), SIGUSR1);
}

static void nested_segv_handler(int sig)
{
	fault_load((void *)8);	/* SIGSEGV is blocked in here: it kills */
}

static int one_mode(const char *mode)
{
	struct kernel_sigaction ka = { .sa_handler = (unsigned long)probe_entry };

	if (!strcmp(mode, "term")) {
		kill(getpid(), SIGTERM);
	} else if (!strcmp(mode, "quit")) {
		kill(getpid(), SIGQUIT);
	} else if (!strcmp(mode, "ignored")) {
		kill(getpid(), SIGCHLD);
		kill(getpid(), SIGURG);
		kill(getpid(), SIGWINCH);
		kill(getpid(), SIGCONT);
		return 0;
	} else if (!strcmp(mode, "stop")) {
		/* rtk has no job control: ignored (Linux stops the process) */
		kill(getpid(), SIGTSTP);
		kill(getpid(), SIGTTIN);
		kill(getpid(), SIGTTOU);
		return 0;
	} else if (!strcmp(mode, "segv_blocked")) {
		set_action(SIGSEGV, segv_handler, SA_SIGINFO, 0);
		set_mask(sigmask(SIGSEGV));
		fault_load((void *)8);
	} else if (!strcmp(mode, "badstack")) {
		deliver_to_bad_stack();
	} else if (!strcmp(mode, "norestorer")) {
		sys_call4(__NR_rt_sigaction, SIGUSR1, (long)&ka, 0, 8);
		kill(getpid(), SIGUSR1);
	} else if (!strcmp(mode, "nested_segv")) {
		set_action(SIGSEGV, nested_segv_handler, 0, 0);
		fault_load((void *)8);
	} else {
		printf("t_signal: unknown mode %s\n", mode);
	}
	return 100;	/* still alive: wrong */
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return one_mode(argv[1]);
	handler_entry_and_siginfo();
	nodefer_and_resethand();
	sleeps_interrupted_by_tgkill();
	timedwait_and_suspend();
	sigsegv_caught();
	fpu_restored_after_handler();
	sigaltstack_onstack();
	bad_input();
	printf("t_signal: %d checks, %d failed\n", checks, failures);
	return failures;
}
