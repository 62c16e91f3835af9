/*
 * user/tests/t_sigfuzz.c - a rt_sigreturn fuzzer: `t_sigfuzz SEED N`
 * hands the kernel N random signal frames (issue 30: "a corrupt frame
 * at rt_sigreturn must not let a program set a kernel CS, IOPL, a
 * non-canonical RIP, or restore FPU state that faults in the kernel").
 *
 * Each frame (struct rt_sigframe, arch/x86_64/uapi_sigcontext.h) is
 * random bytes, then, so that one run tries many frames:
 *   - RIP is the landing function in 3 of 4 frames, else random (half
 *     of those non-canonical); RSP a valid stack when RIP is random,
 *     else random in 1 of 4 (the fault handler runs on an alternate
 *     stack, SA_ONSTACK: a fault with any RSP reaches it);
 *   - RFLAGS, CS, SS, every other register random;
 *   - fpstate points at a random FXSAVE image, whose MXCSR has only
 *     valid bits in half the frames; or it is 0, or a bad pointer;
 *   - uc_sigmask random but never blocking the fault signals (a blocked
 *     fault would end the run, not the kernel).
 * Then RSP = the frame, SYSCALL 15.  What happens next: an accepted
 * frame returns into landing (or faults, if RIP was random, or traps
 * after one instruction with TF); a refused one is a SIGSEGV.  Either
 * way the program ends up in landing: directly, or through the fault
 * handler, which rewrites its own frame to return there.  landing
 * resets RSP, RFLAGS, MXCSR and the x87 state and runs the next round.
 * An accepted frame with RIP = landing must come back with its RAX and
 * R12, and with the user selectors and IF set, whatever it asked for.
 * Exit status: the number of failed checks.
 */
#include "user/lib/ulib.h"
#include "arch/x86_64/uapi_sigcontext.h"

#define STACK_SIZE	65536

void restore_rt(void);
void landing(void);
void landing_c(void);
void run_frame(unsigned long sp);

static u8 landing_stack[STACK_SIZE] __aligned(16);
static u8 frame_area[STACK_SIZE] __aligned(64);
static u8 fxsave_image[FXSAVE_SIZE] __aligned(64);
static u8 alt_stack[STACK_SIZE] __aligned(16);	/* the fault handler's */
unsigned long landing_sp;		/* landing's RSP (asm reads it) */
unsigned long landed_rax, landed_r12, landed_cs, landed_ss, landed_flags;
static u16 user_cs, user_ss;	/* this program's own selectors */

__asm__(".text\n"
	".globl restore_rt\n"
	"restore_rt:\n"
	"	mov $15, %eax\n"
	"	syscall\n"
	"	hlt\n"
	".globl landing\n"
	"landing:\n"
	"	mov %rax, landed_rax(%rip)\n"
	"	mov %r12, landed_r12(%rip)\n"
	"	mov landing_sp(%rip), %rsp\n"
	"	pushfq\n"
	"	pop %rax\n"
	"	mov %rax, landed_flags(%rip)\n"
	"	mov %cs, %rax\n"
	"	mov %rax, landed_cs(%rip)\n"
	"	mov %ss, %rax\n"
	"	mov %rax, landed_ss(%rip)\n"
	"	push $0x202\n"			/* IF, no TF/DF/AC */
	"	popfq\n"
	"	fninit\n"
	"	push $0x1f80\n"
	"	ldmxcsr (%rsp)\n"
	"	pop %rax\n"
	"	call landing_c\n"
	"	hlt\n"
	".globl run_frame\n"
	"run_frame:\n"
	"	mov %rdi, %rsp\n"
	"	mov $15, %eax\n"
	"	syscall\n"
	"	hlt\n");

static u64 rng;
static long rounds, round_nr, failures;
static long accepted_direct, via_signal;
static int via_handler;		/* the handler sent us to landing */
static struct {			/* what the current round expects */
	bool direct;		/* RIP = landing, a frame that must pass */
	u64 rax, r12;
} want;

static u64 rnd(void)
{
	rng ^= rng << 13;	/* xorshift64 (Marsaglia 2003) */
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void fail(const char *what, long expected, long got)
{
	failures++;
	printf("FAIL round %ld: %s: expected %#lx, got %#lx\n", round_nr, what,
	       expected, got);
}

/* the fault handler: whatever brought it here, resume in landing */
static void fault_handler(int sig, struct siginfo *info, struct ucontext *uc)
{
	via_handler = sig;
	uc->uc_mcontext.rip = (unsigned long)landing;
	uc->uc_mcontext.rsp = landing_sp;
	uc->uc_mcontext.eflags = 0x202;
	uc->uc_sigmask = 0;
	uc->uc_mcontext.fpstate = 0;	/* the reset FPU state */
}

static void set_handler(int sig)
{
	struct kernel_sigaction ka = {
		.sa_handler = (unsigned long)fault_handler,
		.sa_flags = SA_SIGINFO | SA_RESTORER | SA_NODEFER | SA_ONSTACK,
		.sa_restorer = (unsigned long)restore_rt,
	};

	if (sys_call4(__NR_rt_sigaction, sig, (long)&ka, 0, 8))
		die("rt_sigaction %d", sig);
}

static void fill(void *p, size_t n)
{
	u8 *b = p;

	for (size_t i = 0; i < n; i++)
		b[i] = (u8)rnd();
}

/* next_frame - build round round_nr's frame and run it (no return). */
static __noreturn void next_frame(void)
{
	struct rt_sigframe *f;
	struct sigcontext *sc;
	unsigned long sp;
	u64 r = rnd();
	u32 mxcsr;

	sp = ((unsigned long)frame_area + STACK_SIZE - 512) & ~15UL;
	f = (struct rt_sigframe *)(sp - 8);
	fill(f, sizeof(*f));
	sc = &f->uc.uc_mcontext;
	want.direct = false;
	if (r % 4) {
		sc->rip = (unsigned long)landing;
		if ((r >> 8) % 4 == 0)
			sc->rsp = rnd();
		if ((r >> 12) % 4) {
			/* Linux loads the frame's CS and SS (a bad one is a
			 * SIGSEGV at IRET); rtk forces its own: random ones
			 * only in 1 of 4, so frames also land on Linux */
			sc->cs = user_cs;
			sc->ss = user_ss;
		}
	} else {
		sc->rip = (r >> 8) & 1 ? rnd() | 0x0000800000000000UL : rnd();
		if ((r >> 10) % 4)
			sc->rsp = landing_sp;
	}
	fill(fxsave_image, sizeof(fxsave_image));
	mxcsr = (u32)rnd();
	if ((r >> 16) & 1)
		mxcsr &= 0xFFBF;	/* bits every SSE CPU has */
	memcpy(&fxsave_image[24], &mxcsr, sizeof(mxcsr));
	switch ((r >> 20) % 8) {
	case 0:
		sc->fpstate = 0;
		break;
	case 1:
		sc->fpstate = rnd();	/* bad pointer, most likely */
		break;
	default:
		sc->fpstate = (unsigned long)fxsave_image;
	}
	f->uc.uc_sigmask &= ~(sigmask(SIGSEGV) | sigmask(SIGBUS) |
			      sigmask(SIGILL) | sigmask(SIGFPE) |
			      sigmask(SIGTRAP) | sigmask(SIGKILL));
	if (sc->rip == (unsigned long)landing && sc->cs == user_cs &&
	    sc->ss == user_ss &&
	    (!sc->fpstate || sc->fpstate == (unsigned long)fxsave_image) &&
	    !(sc->fpstate && (mxcsr & ~0xFFBFu)) && !(sc->eflags & 0x100)) {
		want.direct = true;	/* must pass and land as it is */
		want.rax = sc->rax;
		want.r12 = sc->r12;
	}
	via_handler = 0;
	run_frame(sp);
	__builtin_unreachable();
}

/* landing_c - one round ended (landing's C half, on landing_sp). */
void landing_c(void)
{
	if (round_nr > 0) {
		if (via_handler)
			via_signal++;
		else
			accepted_direct++;
		if (want.direct && !via_handler) {
			if (landed_rax != want.rax)
				fail("rax", (long)want.rax, (long)landed_rax);
			if (landed_r12 != want.r12)
				fail("r12", (long)want.r12, (long)landed_r12);
		}
		if (want.direct && via_handler == SIGSEGV)
			fail("a good frame was refused (signal)", 0, via_handler);
		if (!via_handler && (landed_cs & 3) != 3)
			fail("cs is user", 3, (long)landed_cs);
		if (!via_handler && (landed_ss & 3) != 3)
			fail("ss is user", 3, (long)landed_ss);
		if (!via_handler && !(landed_flags & 0x200))
			fail("IF set", 0x200, (long)landed_flags);
		if (!via_handler && (landed_flags & 0x3000))
			fail("IOPL 0", 0, (long)(landed_flags & 0x3000));
	}
	if (round_nr++ == rounds) {
		printf("t_sigfuzz: %ld frames: %ld returned directly, %ld through "
		       "a signal; %ld failed\n", rounds, accepted_direct,
		       via_signal, failures);
		exit(failures > 255 ? 255 : (int)failures);
	}
	next_frame();
}

int main(int argc, char **argv)
{
	struct sigaltstack_uapi ss = { 0 };
	long seed = 1;

	rounds = 2000;
	if ((argc > 1 && kstrtol(argv[1], 10, &seed)) ||
	    (argc > 2 && kstrtol(argv[2], 10, &rounds)))
		die("usage: t_sigfuzz SEED ROUNDS");
	rng = (u64)seed * 0x9E3779B97F4A7C15ULL | 1;
	landing_sp = ((unsigned long)landing_stack + STACK_SIZE) & ~15UL;
	__asm__("mov %%cs, %0\n\tmov %%ss, %1" : "=r"(user_cs), "=r"(user_ss));
	ss.ss_sp = (unsigned long)alt_stack;
	ss.ss_size = sizeof(alt_stack);
	if (sys_call2(__NR_sigaltstack, (long)&ss, 0))
		die("sigaltstack");
	set_handler(SIGSEGV);
	set_handler(SIGBUS);
	set_handler(SIGILL);
	set_handler(SIGFPE);
	set_handler(SIGTRAP);
	landing();
	return 100;
}
