/*
 * kernel/workloads/rttester_script.c - the PI tester's script interpreter
 * (rttester.h): parse each `K: opcode: thread: arg` line, run C: lines
 * and check T:/W: ones against the tester threads of rttester.c, then
 * bring every thread back to idle; and the built-in scripts' lookup.
 *
 * Per thread and lock the tester keeps the original's state digit
 * (rttester_internal.h); eventeq/lt/gt compare a thread's "E" value.
 * Priorities read on the tester's scale: 99 - kernel prio, so SCHED_FIFO
 * p reads p and SCHED_OTHER nice n reads -21 - n.
 *
 * schedother, schedfifo and signal run in the script's task before the
 * C: line returns; every other command is posted to the thread, which
 * runs it (so a lock blocks the thread, not the script).
 * A script passes when its T:/W: lines hold, as under rt-tester.py, even
 * if it leaves a deadlock (a plain lock in a cycle waits for ever, its
 * W: blocked lines come true); the cleanup then breaks the cycle, and a
 * run whose threads stay stuck fails, as does every run after it.
 * Linux counterpart: scripts/rt-tester/rt-tester.py (removed in Linux
 * 4.2), run inside the kernel instead of over sysfs; the console front
 * end lives in kernel/shell/cmd_pitest.c.
 * Article: "Priority inheritance for in-kernel spinlocks and semaphores".
 */
#include "kernel/workloads/rttester_internal.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/signal.h"
#include "kernel/time/ktime.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"
#include "lib/errno.h"

/* A W: that has not come true after this long never will: each step is a
 * few context switches, even under TCG on a loaded host.  A soak raises
 * it (rttest_set_wait_seconds): there the SCHED_OTHER tester threads
 * share the CPUs with loads and torture threads, and under PREEMPT_NONE
 * they may wait seconds for a CPU without anything being wrong. */
#define RTTEST_WAIT_DEFAULT_S 5
static unsigned int rttest_wait_s = RTTEST_WAIT_DEFAULT_S;
#define RTTEST_WAIT_NS ((s64)READ_ONCE(rttest_wait_s) * NSEC_PER_SEC)
/* W: polls this often: the script task must sleep so that SCHED_OTHER
 * tester threads on its CPU get to run. */
#define RTTEST_POLL_MS 1

static DEFINE_RT_MUTEX(rttest_script_lock);	/* one script at a time */

struct rttest_name {
	const char *name;
	int code;
};

static const struct rttest_name rttest_cmds[] = {
	{ "schedother", RTTEST_SCHEDOT },  { "schedfifo", RTTEST_SCHEDRT },
	{ "lock", RTTEST_LOCK },	   { "locknowait", RTTEST_LOCKNOWAIT },
	{ "lockint", RTTEST_LOCKINT },	   { "lockintnowait", RTTEST_LOCKINTNOWAIT },
	{ "lockcont", RTTEST_LOCKCONT },   { "unlock", RTTEST_UNLOCK },
	{ "signal", RTTEST_SIGNAL },	   { "resetevent", RTTEST_RESETEVENT },
	{ "reset", RTTEST_RESET },
};

/* Tests: the value read ('P' prio, 'N' normal prio, 'M' lock state, 'O'
 * opcode, 'E' event), the comparison, and for 'M' the state wanted. */
struct rttest_test {
	const char *name;
	char what;
	char cmp;			/* '=', '<', '>' */
	int state;
};

static const struct rttest_test rttest_tests[] = {
	{ "prioeq", 'P', '=', 0 },	 { "priolt", 'P', '<', 0 },
	{ "priogt", 'P', '>', 0 },	 { "nprioeq", 'N', '=', 0 },
	{ "npriolt", 'N', '<', 0 },	 { "npriogt", 'N', '>', 0 },
	{ "unlocked", 'M', '=', ST_UNLOCKED },
	{ "trylock", 'M', '=', ST_BLOCKING },
	{ "blocked", 'M', '=', ST_BLOCKED },
	{ "blockedwake", 'M', '=', ST_BLOCKEDWAKE },
	{ "locked", 'M', '=', ST_LOCKED },
	{ "opcodeeq", 'O', '=', 0 },	 { "opcodelt", 'O', '<', 0 },
	{ "opcodegt", 'O', '>', 0 },	 { "eventeq", 'E', '=', 0 },
	{ "eventlt", 'E', '<', 0 },	 { "eventgt", 'E', '>', 0 },
};

static const char *const rttest_state_names[] = {
	"unlocked", "trylock", "blocked", "blockedwake", "locked",
};

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static void str_lower(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s += 'a' - 'A';
}

/* One parsed line. */
struct rttest_line {
	char kind;			/* 'c', 't', 'w' */
	const struct rttest_test *test;	/* T:/W: */
	int cmd;			/* C: */
	int tid;
	long arg;
};

/* The commands whose argument is a lock number. */
static bool rttest_cmd_takes_lock(int cmd)
{
	return cmd >= RTTEST_LOCK && cmd <= RTTEST_UNLOCK;
}

/* Parse "K: opcode: thread: arg"; on error say why in seen. */
static int rttest_parse(char *s, struct rttest_line *l, char *seen, int size)
{
	char *part[4];
	unsigned int i;
	bool takes_lock;
	long tid;

	for (i = 0; i < 3; i++) {
		char *colon = strchr(s, ':');

		if (!colon) {
			snprintf(seen, size,
				 "syntax: want 4 fields separated by ':'");
			return -EINVAL;
		}
		*colon = '\0';
		part[i] = trim(s);
		s = colon + 1;
	}
	part[3] = trim(s);
	str_lower(part[0]);
	str_lower(part[1]);
	if (strlen(part[0]) != 1 || !strchr("ctw", part[0][0])) {
		snprintf(seen, size, "syntax: unknown kind '%s'", part[0]);
		return -EINVAL;
	}
	l->kind = part[0][0];
	if (kstrtol(part[2], 10, &tid) || tid < 0 || tid >= RTTEST_THREADS) {
		snprintf(seen, size, "syntax: bad thread '%s' (threads are 0-%d)",
			 part[2], RTTEST_THREADS - 1);
		return -EINVAL;
	}
	l->tid = tid;
	l->test = NULL;
	l->cmd = -1;
	if (l->kind == 'c') {
		for (i = 0; i < ARRAY_SIZE(rttest_cmds); i++)
			if (!strcmp(part[1], rttest_cmds[i].name))
				l->cmd = rttest_cmds[i].code;
	} else {
		for (i = 0; i < ARRAY_SIZE(rttest_tests); i++)
			if (!strcmp(part[1], rttest_tests[i].name))
				l->test = &rttest_tests[i];
	}
	if (l->cmd < 0 && !l->test) {
		snprintf(seen, size, "syntax: unknown opcode '%s'", part[1]);
		return -EINVAL;
	}
	/* opcodeeq may name a command, as in rt-tester.py */
	if (l->test && l->test->what == 'O') {
		for (i = 0; i < ARRAY_SIZE(rttest_cmds); i++) {
			if (!strcmp(part[3], rttest_cmds[i].name)) {
				l->arg = rttest_cmds[i].code;
				return 0;
			}
		}
	}
	if (kstrtol(part[3], 10, &l->arg)) {
		snprintf(seen, size, "syntax: bad argument '%s'", part[3]);
		return -EINVAL;
	}
	takes_lock = l->test ? l->test->what == 'M'
			     : rttest_cmd_takes_lock(l->cmd);
	if (takes_lock && (l->arg < 0 || l->arg >= RTTEST_LOCKS)) {
		snprintf(seen, size,
			 "syntax: lock %ld out of range (locks are 0-%d)",
			 l->arg, RTTEST_LOCKS - 1);
		return -EINVAL;
	}
	return 0;
}

/* The value a test reads, on the tester's scale. */
static int rttest_value(const struct rttest_line *l)
{
	struct rttest_thread *td = &rttest_threads[l->tid];

	switch (l->test->what) {
	case 'P':
		return MAX_RT_PRIO - 1 - READ_ONCE(td->task->prio);
	case 'N':
		return MAX_RT_PRIO - 1 - READ_ONCE(td->task->normal_prio);
	case 'M':
		return READ_ONCE(td->mutexes[l->arg]);
	case 'O':
		return READ_ONCE(td->opcode);
	default:
		return READ_ONCE(td->event);
	}
}

static bool rttest_holds(const struct rttest_line *l, int val)
{
	int want = l->test->what == 'M' ? l->test->state : (int)l->arg;

	if (l->test->cmp == '<')
		return val < want;
	if (l->test->cmp == '>')
		return val > want;
	return val == want;
}

static void rttest_describe(const struct rttest_line *l, int val, char *seen,
			    int size, const char *prefix)
{
	static const char *const what[] = { "P", "prio", "N", "normal prio",
					    "O", "opcode", "E", "event" };
	unsigned int i;

	if (l->test->what == 'M') {
		snprintf(seen, size, "%sthread %d lock %ld: %s", prefix,
			 l->tid, l->arg,
			 val >= 0 && val <= ST_LOCKED ? rttest_state_names[val]
						      : "?");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(what); i += 2)
		if (what[i][0] == l->test->what)
			break;
	snprintf(seen, size, "%sthread %d %s %d", prefix, l->tid,
		 i < ARRAY_SIZE(what) ? what[i + 1] : "?", val);
}

/*
 * rttest_set_wait_seconds - how long a W: line, the wait for a thread to
 * take its command and the cleanup poll before giving up; 0 restores the
 * default (5 s).  Context: task, between scripts.
 */
void rttest_set_wait_seconds(unsigned int seconds)
{
	might_sleep();
	WRITE_ONCE(rttest_wait_s, seconds ? seconds : RTTEST_WAIT_DEFAULT_S);
}

/* Wait (bounded) until thread td has no command pending. */
static bool rttest_wait_idle(struct rttest_thread *td)
{
	ktime_t end = ktime_get() + RTTEST_WAIT_NS;

	while (READ_ONCE(td->opcode) > 0) {
		if (ktime_get() > end)
			return false;
		msleep(RTTEST_POLL_MS);
	}
	return true;
}

/* Post a command to td's thread (it runs it); false if td stayed busy. */
static bool rttest_post(struct rttest_thread *td, int cmd, int data)
{
	if (!rttest_wait_idle(td))
		return false;
	WRITE_ONCE(td->opdata, data);
	__atomic_store_n(&td->opcode, cmd, __ATOMIC_SEQ_CST);	/* pairs with
		the set_current_state/opcode check in the thread's loops */
	wake_up_process(td->task);
	return true;
}

/* C: - schedother/schedfifo/signal here and now, the rest posted. */
static int rttest_command(const struct rttest_line *l, char *seen, int size)
{
	struct rttest_thread *td = &rttest_threads[l->tid];
	struct sched_param sp = { .sched_priority = 0 };
	int ret;

	switch (l->cmd) {
	case RTTEST_SCHEDOT:
		ret = sched_setscheduler(td->task, SCHED_OTHER, &sp);
		if (!ret)
			set_user_nice(td->task, l->arg);
		break;
	case RTTEST_SCHEDRT:
		sp.sched_priority = l->arg;
		ret = sched_setscheduler(td->task, SCHED_FIFO, &sp);
		break;
	case RTTEST_SIGNAL:
		kernel_signal(td->task);
		ret = 0;
		break;
	default:
		if (rttest_post(td, l->cmd, l->arg))
			return 0;
		snprintf(seen, size, "thread %d still busy with opcode %d",
			 l->tid, READ_ONCE(td->opcode));
		return -EBUSY;
	}
	if (ret)
		snprintf(seen, size, "command failed: %d", ret);
	return ret;
}

/* T:/W: - test once, or poll until true or RTTEST_WAIT_NS. */
static int rttest_check(const struct rttest_line *l, char *seen, int size)
{
	ktime_t end = ktime_get() + RTTEST_WAIT_NS;
	int val;

	for (;;) {
		val = rttest_value(l);
		if (rttest_holds(l, val))
			return 0;
		if (l->kind == 't') {
			rttest_describe(l, val, seen, size, "seen ");
			return -EIO;
		}
		if (ktime_get() > end) {
			char what[32];

			snprintf(what, sizeof(what), "timed out after %u s, seen ",
				 READ_ONCE(rttest_wait_s));
			rttest_describe(l, val, seen, size, what);
			return -ETIMEDOUT;
		}
		msleep(RTTEST_POLL_MS);
	}
}

/* After this long a thread that still blocks while holding locks is taken
 * to be in a cycle the script left, and the cleanup unwinds it. */
#define RTTEST_UNWIND_NS (100 * NSEC_PER_MSEC)

/* One round of rttest_cleanup() for td; true while td is not idle. */
static bool rttest_cleanup_thread(int tid, bool unwind)
{
	struct rttest_thread *td = &rttest_threads[tid];
	bool locked = false, busy = false;
	int j;

	for (j = 0; j < RTTEST_LOCKS; j++) {
		int st = READ_ONCE(td->mutexes[j]);

		if (st == ST_BLOCKEDWAKE && READ_ONCE(td->opcode) <= 0)
			rttest_post(td, RTTEST_LOCKCONT, j);
		if (st == ST_BLOCKED) {
			kernel_signal(td->task);
			if (unwind && !READ_ONCE(td->unwind) &&
			    rttest_owns_locks(td->task)) {
				pr_warn("pitest: cleanup: thread %d waits for "
					"L%d holding locks (a deadlock?): "
					"releasing them\n", tid, j);
				WRITE_ONCE(td->unwind, true);
				wake_up_process(td->task);
			}
		}
		locked |= st == ST_LOCKED;
		busy |= st != ST_UNLOCKED;
	}
	/* by the owner words too: a digit may be stale */
	locked |= rttest_owns_locks(td->task);
	busy |= locked;
	if (READ_ONCE(td->opcode) > 0)
		busy = true;
	else if (locked)
		rttest_post(td, RTTEST_RESET, 0);
	return busy;
}

/*
 * rttest_cleanup - bring every thread back to idle, after a script (even a
 * failed one) and before the next:
 *	[1] let stopped waiters go on (lockcont), signal blocked ones (the
 *	    interruptible leave), reset the idle ones that hold locks
 *	[2] after RTTEST_UNWIND_NS, a blocked thread that holds locks is in
 *	    a cycle (rt_mutex_lock reports a deadlock and waits for ever):
 *	    make it release them from inside its lock call (rttest_unwind)
 *	[3] until nothing is held or waited for, or RTTEST_WAIT_NS
 *	[4] SCHED_OTHER nice 0, no result left, no unwind pending
 *	[5] clean only if no tester lock is owned or waited for and every
 *	    thread runs at its normal prio again
 * Returns false if a thread stayed stuck.
 * Context: task, may sleep.  Locking: the script lock held.
 */
static bool rttest_cleanup(void)
{
	struct sched_param sp = { .sched_priority = 0 };
	ktime_t start = ktime_get();
	bool busy = true;
	int i;

	BUG_ON(rt_mutex_owner(&rttest_script_lock) != current);
	while (busy && ktime_get() < start + RTTEST_WAIT_NS) {	/* [3] */
		bool unwind = ktime_get() > start + RTTEST_UNWIND_NS;

		busy = false;
		for (i = 0; i < RTTEST_THREADS; i++)		/* [1] [2] */
			busy |= rttest_cleanup_thread(i, unwind);
		if (busy)
			msleep(RTTEST_POLL_MS);
	}
	for (i = 0; i < RTTEST_THREADS; i++) {			/* [4] */
		struct rttest_thread *td = &rttest_threads[i];

		sched_setscheduler(td->task, SCHED_OTHER, &sp);
		set_user_nice(td->task, 0);
		if (busy)
			continue;
		WRITE_ONCE(td->opcode, RTTEST_NOP);
		WRITE_ONCE(td->unwind, false);
	}
	if (busy || !rttest_locks_idle())			/* [5] */
		return false;
	for (i = 0; i < RTTEST_THREADS; i++) {
		struct task_struct *p = rttest_threads[i].task;

		if (READ_ONCE(p->prio) != READ_ONCE(p->normal_prio))
			return false;
	}
	return true;
}

static const char rttest_stuck_msg[] =
	"tester threads stuck in a deadlock; reboot to run more scripts";

/* The cleanup before (nr 0) or after script line nr left threads stuck:
 * fail the run with that, and say it on the console. */
static int rttest_fail_stuck(struct rttest_result *res, int nr)
{
	pr_err("pitest: %s\n", rttest_stuck_msg);
	res->failed_line = nr ? nr : 1;
	snprintf(res->line, sizeof(res->line), nr ? "(end of script)"
						  : "(before the script)");
	snprintf(res->seen, sizeof(res->seen), "%s", rttest_stuck_msg);
	return -EBUSY;
}

int rttest_run_script(const char *text, struct rttest_result *res)
{
	char buf[RTTEST_LINE_MAX];
	struct rttest_line l;
	int nr = 0, ret = 0;

	might_sleep();
	memset(res, 0, sizeof(*res));
	rt_mutex_lock(&rttest_script_lock);
	ret = rttest_init_once();
	if (ret) {
		snprintf(res->seen, sizeof(res->seen),
			 "no tester threads (error %d%s)", ret,
			 ret == -ENOMEM ? ": out of memory" : "");
		goto out_unlock;
	}
	/* a clean start: nothing held, waited for or boosted (the next
	 * script is refused while a former one's threads stay stuck) */
	if (!rttest_cleanup()) {
		ret = rttest_fail_stuck(res, 0);
		goto out_unlock;
	}
	rttest_reset_lock_classes();
	while (*text) {
		const char *eol = strchr(text, '\n');
		size_t len = eol ? (size_t)(eol - text) : strlen(text);
		char *s;

		nr++;
		strscpy(buf, text, len + 1 < sizeof(buf) ? len + 1 : sizeof(buf));
		text += eol ? len + 1 : len;
		s = trim(buf);
		if (!*s || *s == '#')
			continue;
		strscpy(res->line, s, sizeof(res->line));
		ret = rttest_parse(s, &l, res->seen, sizeof(res->seen));
		if (!ret && l.kind == 'c')
			ret = rttest_command(&l, res->seen, sizeof(res->seen));
		else if (!ret)
			ret = rttest_check(&l, res->seen, sizeof(res->seen));
		if (ret) {
			res->failed_line = nr;
			break;
		}
	}
	/* the script's own verdict stands (as rt-tester.py's: the checks),
	 * but threads the cleanup cannot free fail the run */
	if (!rttest_cleanup()) {
		if (!ret)
			ret = rttest_fail_stuck(res, nr);
		else
			pr_err("pitest: %s\n", rttest_stuck_msg);
	}
out_unlock:
	if (ret && !res->failed_line)
		res->failed_line = nr ? nr : 1;
	rt_mutex_unlock(&rttest_script_lock);
	return ret;
}

void rttest_print_result(const struct rttest_result *res)
{
	if (!res->failed_line)
		console_printf("pitest: PASS\n");
	else
		console_printf("pitest: FAIL line %d: %s (%s)\n",
			       res->failed_line, res->line, res->seen);
}

const struct pi_script *pi_script_find(const char *name)
{
	int i;

	for (i = 0; i < nr_pi_scripts; i++)
		if (!strcmp(pi_scripts[i].name, name))
			return &pi_scripts[i];
	return NULL;
}
