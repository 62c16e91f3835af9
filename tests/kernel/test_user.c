/*
 * tests/kernel/test_user.c - user mode: processes from the initramfs,
 * the system call ABI, faults in ring 3, the return-to-user preemption
 * point, the mm's delayed drop, and leaks.
 *
 * The user programs are user/NAME.c and user/tests/t_NAME.c (user/user.mk);
 * a test skips when the boot had no initramfs (-initrd) or the program
 * is missing.  Each program reports by its exit status; what it printed
 * is on the console above the KTAP line.
 */
#include "tests/kernel/user_helpers.h"
#include "kernel/ktest.h"
#include "kernel/cmdline.h"
#include "kernel/user/process.h"
#include "kernel/user/initramfs.h"
#include "kernel/user/uaccess.h"
#include "kernel/user/uapi.h"
#include "kernel/user/elf_loader.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/deferred.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/completion.h"
#include "kernel/irqflags.h"
#include "kernel/time/ktime.h"
#include "kernel/sched/wait.h"
#include "lib/vsnprintf.h"
#include "kernel/smp.h"
#include "kernel/debug/race_window.h"
#include "tests/kernel/sched_helpers.h"
#include "kernel/user/rlimit.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "arch/x86_64/smap.h"

/* t_fuzz's calls in `make test`: a few seconds under TCG.  A test build
 * asks for the 10^6 with user_fuzz_calls=1000000. */
static long user_fuzz_calls = 20000;

static int __init parse_user_fuzz_calls(const char *val)
{
	return val ? kstrtol(val, 10, &user_fuzz_calls) : -EINVAL;
}
CMDLINE_PARAM("user_fuzz_calls", parse_user_fuzz_calls);

extern unsigned long user_resched_delayed_count;	/* kernel/user/entry.c */

static void test_user_hello_exits_zero(struct ktest *t)
{
	if (!user_have_program(t, "hello"))
		return;
	KTEST_EXPECT_EQ(t, user_run(t, "hello one two"), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, user_run(t, "false"), W_EXITCODE(1, 0));
}

static void test_user_abi_and_errnos(struct ktest *t)
{
	user_expect_exit_zero(t, "t_abi");
}

/* t_fault icebp: INT1 (0xf1) from ring 3 is a #DB, answered with
 * SIGTRAP as on Linux.  QEMU's TCG decodes 0xf1 as #UD (its WANT_ICEBP
 * is off), so there the program gets SIGILL and the case skips; the
 * single-step case above reaches the same #DB path under TCG too. */
static void test_user_icebp_is_sigtrap(struct ktest *t)
{
	int status;

	if (!user_have_program(t, "t_fault"))
		return;
	status = user_run(t, "t_fault icebp");
	if (status == W_EXITCODE(0, 4))	/* SIGILL */
		ktest_skip(t, "this CPU decodes icebp (0xf1) as #UD (QEMU TCG): "
			   "SIGILL, no #DB to deliver");
	KTEST_EXPECT(t, status == W_EXITCODE(0, 5) /* SIGTRAP */, "t_fault icebp: "
		     "expected killed by SIGTRAP, got status %#x", status);
}

/* t_smap: a program that sets RFLAGS.AC (SMAP's key) and then enters
 * the kernel by system calls with bad pointers and by interrupts still
 * gets -EFAULT, and no entry ran kernel C with its AC (issue 28 item 5;
 * scenario in user/tests/t_smap.c). */
static void test_user_ac_flag_opens_no_kernel_access(struct ktest *t)
{
	unsigned long ac0 = entry_ac_seen();

	user_expect_exit_zero(t, "t_smap");
	/* Without SMAP there is no CLAC to run (it is #UD) and AC opens
	 * nothing in ring 0: entries keep it, as Linux's do (its CLAC is
	 * an alternative patched in only with X86_FEATURE_SMAP). */
	if (!cpu_has_smap())
		return;
	KTEST_EXPECT(t, entry_ac_seen() == ac0, "%lu kernel entries ran with "
		     "the user's RFLAGS.AC set", entry_ac_seen() - ac0);
}

/* t_segs: two threads on one CPU, one with %ds..%gs = the user data
 * selector and one with 0, each sees its own after every yield (issue
 * 28 item 5; scenario in user/tests/t_segs.c). */
static void test_user_segment_selectors_are_per_thread(struct ktest *t)
{
	user_expect_exit_zero(t, "t_segs");
}

/* The faults a program can take, and the signal Linux answers with. */
static const struct {
	const char *cmd;
	int sig;
} faults[] = {
	{ "t_fault null", 11 },   { "t_fault div0", 8 },
	{ "t_fault kernel", 11 }, { "t_fault kread", 11 },
	{ "t_fault ud", 4 },      { "t_fault priv", 11 },
	{ "t_fault nx", 11 },     { "t_fault stack", 11 },
	{ "t_fault int3", 5 },
	/* #DB from ring 3 runs on the #DB IST stack and moves to the
	 * task's stack before killing (trap_entry.asm, issue 28 item 5);
	 * icebp has its own case below */
	{ "t_fault step", 5 },    { "t_fault stepsys", 5 },
};

static void test_user_fault_kills_only_the_process(struct ktest *t)
{
	if (!user_have_program(t, "t_fault"))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(faults); i++) {
		int status = user_run(t, faults[i].cmd);

		KTEST_EXPECT(t, status == W_EXITCODE(0, faults[i].sig),
			     "%s: expected killed by signal %d, got status %#x",
			     faults[i].cmd, faults[i].sig, status);
	}
	/* the kernel is fine: a program still runs */
	if (user_have_program(t, "hello"))
		KTEST_EXPECT_EQ(t, user_run(t, "hello"), 0);
}

struct runner_arg {
	bool ran;
	struct completion done;
};

static int runner_fn(void *data)
{
	struct runner_arg *a = data;

	WRITE_ONCE(a->ran, true);
	complete(&a->done);
	return 0;
}

/* wait_running - until task pid has run user code at policy (it sets
 * its own policy, then spins); false after the hang guard. */
static bool wait_running(int pid, int policy)
{
	u64 end = ktime_get_ns() + SAFETY_NS * 4;

	while (ktime_get_ns() < end) {
		struct task_struct *p = sched_find_task(pid);
		bool up = p && READ_ONCE(p->policy) == policy &&
			  READ_ONCE(p->sum_exec_ns) > 0;

		if (p)
			put_task_struct(p);
		if (up)
			return true;
		msleep(1);
	}
	return false;
}

/*
 * Scenario (runaway loop): on CPU c (the last online one), t_loop spins
 * in user mode without system calls, at SCHED_OTHER (round 0) or
 * SCHED_FIFO 10 (round 1).  The test task is FIFO 30 (so it is never
 * starved on SMP=1).  A kthread bound to c -- SCHED_OTHER (round 0) or
 * FIFO 20 (round 1) -- must get the CPU: the tick's TIF_NEED_RESCHED
 * (round 0: fair share) or the wakeup's (round 1: higher prio) acts at
 * the loop's return to user under every model, PREEMPT_NONE included.
 * Then `kill` ends the loop: status "killed by SIGKILL".
 */
static void test_user_runaway_loop_is_preempted_and_killed(struct ktest *t)
{
	int c = num_online_cpus() - 1;

	if (!user_have_program(t, "t_loop"))
		return;
	me_rt(30, c);
	for (int round = 0; round < 2; round++) {
		struct runner_arg a = { .ran = false };
		struct task_struct *r;
		struct process *p;
		char line[32];

		snprintf(line, sizeof(line), round ? "t_loop %d 10" : "t_loop %d", c);
		p = user_spawn(t, line);
		if (!p)
			break;
		KTEST_EXPECT(t, wait_running(p->tgid, round ? SCHED_FIFO : SCHED_OTHER),
			     "round %d: t_loop never ran on CPU %d", round, c);
		init_completion(&a.done);
		r = start_rt(runner_fn, &a, round ? SCHED_FIFO : SCHED_OTHER,
			     round ? 20 : 0, c, "user_runner");
		KTEST_ASSERT(t, r, "no runner thread");
		wait_for_completion(&a.done);
		KTEST_EXPECT(t, a.ran, "round %d: runner did not run", round);
		KTEST_EXPECT_EQ(t, process_kill(p->tgid), 0);
		KTEST_EXPECT_EQ(t, process_wait(p), W_EXITCODE(0, SIGKILL));
		process_put(p);
		kthread_stop(r);
		put_task_struct(r);
	}
	me_restore();
}

/*
 * Scenario (delayed reschedule): the test task A (FIFO 10) on CPU c
 * wakes B (FIFO 20, bound to c) with wake_up_process_sync and irqs off:
 * B would preempt A, so only TIF_NEED_RESCHED_DELAYED is set and B has
 * not run.  exit_to_user_mode_prepare() -- the return-to-user path -- is
 * where the delayed reschedule must act at the latest: B runs before it
 * returns.  (Irqs stay off from the wakeup on, so no tick promotes the
 * flag earlier.)
 */
static void test_user_resched_delayed_acts_at_return_to_user(struct ktest *t)
{
	int c = num_online_cpus() - 1;
	struct runner_arg a = { .ran = false };
	struct task_struct *b;
	unsigned long before = READ_ONCE(user_resched_delayed_count);
	bool pending, ran_early;

	me_rt(10, c);
	init_completion(&a.done);
	b = create_fifo(runner_fn, &a, 20, one_cpu(c), "user_delayed");
	KTEST_ASSERT(t, b, "no thread");
	raw_local_irq_disable();
	wake_up_process_sync(b);
	pending = need_resched_delayed();
	ran_early = READ_ONCE(a.ran);
	exit_to_user_mode_prepare(NULL);
	raw_local_irq_enable();
	KTEST_EXPECT(t, pending, "wake_up_process_sync set no delayed resched");
	KTEST_EXPECT(t, !ran_early, "B ran before the return-to-user point");
	KTEST_EXPECT(t, READ_ONCE(a.ran), "B had not run when the return-to-user "
		     "path returned");
	KTEST_EXPECT(t, READ_ONCE(user_resched_delayed_count) > before,
		     "the return-to-user path did not see the delayed flag");
	wait_for_completion(&a.done);
	kthread_stop(b);
	put_task_struct(b);
	me_restore();
}

/* The last reference to a process's mm goes in finish_task_switch (the
 * exiting thread's active_mm, preemption off): it must be
 * mmdrop_delayed's, released later by the desched thread. */
static void test_user_exit_drops_mm_with_mmdrop_delayed(struct ktest *t)
{
	struct deferred_stats s0, s1;
	int mms0;

	if (!user_have_program(t, "true"))
		return;
	user_exits_settled();
	mms0 = mm_count_live();
	deferred_get_stats(&s0);
	KTEST_EXPECT_EQ(t, user_run(t, "true"), 0);
	user_exits_settled();
	deferred_get_stats(&s1);
	KTEST_EXPECT(t, s1.mms_queued > s0.mms_queued,
		     "no mm queued by mmdrop_delayed (%lu -> %lu)",
		     s0.mms_queued, s1.mms_queued);
	KTEST_EXPECT(t, s1.mms_released - s0.mms_released ==
				s1.mms_queued - s0.mms_queued,
		     "queued %lu, released %lu", s1.mms_queued - s0.mms_queued,
		     s1.mms_released - s0.mms_released);
	KTEST_EXPECT_EQ(t, mm_count_live(), mms0);
}

/*
 * Scenario (kernel/user/exit.c, the race at [0]): the runner spawns
 * "true" and waits for it; its one thread parks in
 * user_exit_woken_window just after it completed `exited` ([3]), still
 * holding its old mm as active_mm and its process reference ([4]).
 * Must be observable: process_wait() has returned, and the count
 * user_exits_settled() waits on (PF_EXITING or TASK_DEAD) still includes the
 * thread, so a memory snapshot taken now waits for its final switch.
 * Before [0] the count was 0 here ("mm_structs back to 1, saw 2" in the
 * leak cases, 1 run in 6).  Needs the parked thread and the runner to
 * run at once: 2 CPUs; skipped when the thread never parks where the
 * runner can see it (it spins out after RACE_WINDOW_MAX_NS).
 */
static void test_user_last_thread_counts_as_exiting_after_the_wake_up(struct ktest *t)
{
	char line[16] = "true";
	struct process *p;
	bool parked;
	int n = 0;

	if (!user_have_program(t, "true"))
		return;
	if (num_online_cpus() < 2) {
		ktest_skip(t, "needs 2 CPUs: the parked thread and the runner");
		return;
	}
	user_exits_settled();
	race_window_arm(&user_exit_woken_window, NULL);
	p = user_spawn(t, line);
	if (!p) {
		race_window_disarm(&user_exit_woken_window);
		return;
	}
	KTEST_EXPECT_EQ(t, process_wait(p), 0);
	parked = race_window_wait_parked(&user_exit_woken_window,
					 RACE_WINDOW_MAX_NS / 2);
	if (parked)
		sched_for_each_task(user_count_exiting, &n);
	race_window_release(&user_exit_woken_window);
	process_put(p);
	user_exits_settled();
	if (!parked) {
		ktest_skip(t, "the exiting thread did not park in "
			      "user_exit_woken_window while the runner ran");
		return;
	}
	KTEST_EXPECT(t, n >= 1,
		     "the last thread, woken its waiter and still holding its "
		     "mm, counts as exiting: want >= 1, saw %d", n);
}

static void test_user_programs_leave_no_pages_behind(struct ktest *t)
{
	struct mem_snap s0;

	if (!user_have_program(t, "t_abi") || !user_have_program(t, "t_fault"))
		return;
	user_run(t, "hello");	/* first-use allocations (caches) out of the way */
	user_snap(&s0);
	user_run(t, "hello");
	user_run(t, "t_abi");
	user_run(t, "t_fault null");
	user_run(t, "t_fault stack");
	user_expect_same(t, &s0);
}

/*
 * The fuzzer's mms are counted by owner (mm_count_owned_by of its tgid),
 * not with mm_count_live: that one counts every mm, and a background job
 * or a concurrent spawn that starts or ends meanwhile moved it ("mm
 * count off by one", issue 28 item 9) although the fuzzer's exit freed
 * all of its own.
 */
static void test_user_fuzzer_no_oops_no_leak(struct ktest *t)
{
	struct mem_snap s0, s1;
	struct process *p;
	int tgid, status;
	char cmd[48];

	if (!user_have_program(t, "t_fuzz"))
		return;
	user_run(t, "hello");
	user_snap(&s0);
	snprintf(cmd, sizeof(cmd), "t_fuzz %ld 4242", user_fuzz_calls);
	p = user_spawn(t, cmd);
	if (!p)
		return;
	tgid = p->tgid;
	status = process_wait(p);
	process_put(p);
	KTEST_EXPECT_EQ(t, status, 0);
	user_expect_pages_back(t, &s0, &s1);
	KTEST_EXPECT(t, mm_count_owned_by(tgid) == 0,
		     "t_fuzz (tgid %d) exited and left %d mm_struct(s)", tgid,
		     mm_count_owned_by(tgid));
}

/*
 * Scenario: t_loop (process A) spins in user mode on CPU c until killed;
 * the test task (FIFO 30, on c, so it is never starved) counts A's mms,
 * then makes an mm of its own (mm_alloc: no owner, as another
 * subsystem's or process's would be) and counts again.  Observable: A
 * owns exactly one mm while it lives, whatever else is made:
 * mm_count_live moves by one with the unrelated mm, mm_count_owned_by(A)
 * does not; after A is killed and its exit has settled, it owns none.
 */
static void test_user_mm_count_by_owner_ignores_other_mms(struct ktest *t)
{
	int c = num_online_cpus() - 1, live0, live1, owned0, owned1, tgid;
	struct mm_struct *other;
	struct process *p;
	char line[32];

	if (!user_have_program(t, "t_loop"))
		return;
	me_rt(30, c);
	snprintf(line, sizeof(line), "t_loop %d", c);
	p = user_spawn(t, line);
	if (!p) {
		me_restore();
		return;
	}
	tgid = p->tgid;
	live0 = mm_count_live();
	owned0 = mm_count_owned_by(tgid);
	other = mm_alloc("test_user_other");
	live1 = mm_count_live();
	owned1 = mm_count_owned_by(tgid);
	if (other)
		mmdrop(other);
	KTEST_EXPECT_EQ(t, process_kill(tgid), 0);
	KTEST_EXPECT_EQ(t, process_wait(p), W_EXITCODE(0, SIGKILL));
	process_put(p);
	user_exits_settled();
	me_restore();
	KTEST_ASSERT(t, other, "mm_alloc failed");
	KTEST_EXPECT(t, owned0 == 1,
		     "t_loop (tgid %d) owns %d mm_structs, want 1", tgid,
		     owned0);
	KTEST_EXPECT(t, live1 == live0 + 1,
		     "mm_count_live %d -> %d across an unrelated mm_alloc",
		     live0, live1);
	KTEST_EXPECT(t, owned1 == owned0,
		     "an unrelated mm_alloc moved t_loop's count %d -> %d",
		     owned0, owned1);
	KTEST_EXPECT(t, mm_count_owned_by(tgid) == 0,
		     "t_loop (tgid %d) killed and left %d mm_struct(s)", tgid,
		     mm_count_owned_by(tgid));
}

/* From a kernel thread: user pointers that are unmapped, kernel or
 * non-canonical come back as -EFAULT (or "n bytes not copied"), and the
 * unmapped one went through the exception table. */
static void test_uaccess_bad_pointers_return_efault(struct ktest *t)
{
	unsigned long fix0 = arch_uaccess_fixups();
	char buf[8] = { 0 };
	u32 v = 0;

	KTEST_EXPECT_EQ(t, copy_from_user(buf, (const void __user *)0x1000, 8), 8);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)0x1000, buf, 8), 8);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (const void __user *)buf, 8), 8);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)0x0000800000000000UL, buf, 1), 1);
	KTEST_EXPECT_EQ(t, get_user_u32(&v, (const u32 __user *)0), -EFAULT);
	KTEST_EXPECT_EQ(t, put_user_u32(1, (u32 __user *)0x2000), -EFAULT);
	KTEST_EXPECT_EQ(t, futex_atomic_cmpxchg_inatomic(&v, (u32 __user *)0x3000, 0, 1),
			-EFAULT);
	KTEST_EXPECT_EQ(t, futex_atomic_cmpxchg_inatomic(&v, (u32 __user *)0x3001, 0, 1),
			-EINVAL);
	KTEST_EXPECT(t, arch_uaccess_fixups() - fix0 == 5,
		     "expected 5 fixed-up faults, saw %lu",
		     arch_uaccess_fixups() - fix0);
}

/*
 * Scenario: an attacker's ELF whose one PT_LOAD segment starts in the
 * kernel half (p_vaddr = 0xffff800000000000, and a second image with
 * p_vaddr = 2^64 - 4096 whose end wraps past zero).  elf_loader.c's size
 * check "USER_MMAP_TOP - p_vaddr" used to underflow for both and only a
 * later check in user_map_anon (-EINVAL) stopped them; the loader now
 * checks the range first and says -ENOEXEC, and every page is back.
 */
static void test_user_elf_kernel_half_segment_is_enoexec(struct ktest *t)
{
	static const u64 vaddrs[] = { 0xffff800000000000UL,
				      0xfffffffffffff000UL };
	struct {
		u8 ident[16];
		u16 type, machine;
		u32 version;
		u64 entry, phoff, shoff;
		u32 flags;
		u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
		u32 p_type, p_flags;
		u64 p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
	} __attribute__((packed)) img;
	struct mem_snap before;
	unsigned int i;

	user_snap(&before);
	for (i = 0; i < ARRAY_SIZE(vaddrs); i++) {
		struct mm_struct *mm = mm_alloc_user("t_badelf");
		unsigned long entry;

		KTEST_ASSERT(t, mm, "mm_alloc_user");
		memset(&img, 0, sizeof(img));
		memcpy(img.ident, "\177ELF\2\1\1", 7);
		img.type = 2;		/* ET_EXEC */
		img.machine = 62;	/* EM_X86_64 */
		img.version = 1;
		img.entry = 0x400000;
		img.phoff = 64;
		img.ehsize = 64;
		img.phentsize = 56;
		img.phnum = 1;
		img.p_type = 1;		/* PT_LOAD */
		img.p_flags = 4;	/* PF_R */
		img.p_vaddr = vaddrs[i];
		img.p_memsz = 0x2000;
		KTEST_EXPECT_EQ(t, elf_load(mm, &img, sizeof(img), &entry),
				-ENOEXEC);
		mmput(mm);
	}
	user_expect_same(t, &before);
}

KTEST_SUITE(user,
	    KTEST_CASE(test_uaccess_bad_pointers_return_efault),
	    KTEST_CASE(test_user_hello_exits_zero),
	    KTEST_CASE(test_user_elf_kernel_half_segment_is_enoexec),
	    KTEST_CASE(test_user_abi_and_errnos),
	    KTEST_CASE(test_user_fault_kills_only_the_process),
	    KTEST_CASE(test_user_icebp_is_sigtrap),
	    KTEST_CASE(test_user_ac_flag_opens_no_kernel_access),
	    KTEST_CASE(test_user_segment_selectors_are_per_thread),
	    KTEST_CASE(test_user_runaway_loop_is_preempted_and_killed),
	    KTEST_CASE(test_user_resched_delayed_acts_at_return_to_user),
	    KTEST_CASE(test_user_exit_drops_mm_with_mmdrop_delayed),
	    KTEST_CASE(test_user_last_thread_counts_as_exiting_after_the_wake_up),
	    KTEST_CASE(test_user_programs_leave_no_pages_behind),
	    KTEST_CASE(test_user_fuzzer_no_oops_no_leak),
	    KTEST_CASE(test_user_mm_count_by_owner_ignores_other_mms));
