/*
 * kernel/shell/cmd_chrt.c - `chrt`: show or change a task's scheduling
 * policy and priority, as util-linux chrt(1) does for a pid.
 *
 *	chrt PID POLICY PRIO		the form: POLICY fifo|rr|other
 *	chrt -f|-r|-o PRIO PID		chrt(1)'s form (-p may precede PID)
 *	chrt -p PID			show PID's policy and priority
 *
 * The change is sched_setscheduler() with Linux's rules: FIFO and RR take
 * 1..99, OTHER takes 0; an idle task cannot be changed.  A PI-boosted
 * task keeps its boost (kernel/sched/core.c), which `ps` shows as EPRI.
 * Linux counterpart: util-linux schedutils/chrt.c, sched_setscheduler(2).
 */
#include "kernel/shell/shell.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

static void chrt_usage(void)
{
	console_printf("usage: chrt PID fifo|rr|other PRIO\n"
		       "       chrt -f|-r|-o [-p] PRIO PID\n"
		       "       chrt -p PID\n");
}

/* parse_policy - "fifo"/"rr"/"other" (or "-f"/"-r"/"-o"); -EINVAL. */
static int parse_policy(const char *s)
{
	if (!strcmp(s, "fifo") || !strcmp(s, "-f"))
		return SCHED_FIFO;
	if (!strcmp(s, "rr") || !strcmp(s, "-r"))
		return SCHED_RR;
	if (!strcmp(s, "other") || !strcmp(s, "-o"))
		return SCHED_OTHER;
	return -EINVAL;
}

/* parse_pid / parse_prio - with "not a number" or "out of range"; the
 * policy's own range (chrt_set) is checked after. */
static int parse_pid(const char *s, long *out)
{
	return shell_parse_long("chrt", "pid", s, 0, 0x7fffffff, out);
}

static int parse_prio(const char *s, long *out)
{
	return shell_parse_long("chrt", "priority", s, 0, 99, out);
}

static void chrt_show(struct task_struct *p)
{
	console_printf("pid %d's current scheduling policy: SCHED_%s\n",
		       p->pid, sched_policy_name(READ_ONCE(p->policy)));
	console_printf("pid %d's current scheduling priority: %d\n", p->pid,
		       READ_ONCE(p->rt_priority));
}

/* chrt_set - [1] find the task, [2] check the priority range against the
 * policy (a message per mistake), [3] sched_setscheduler. */
static int chrt_set(long pid, int policy, long prio)
{
	struct sched_param param = { .sched_priority = (int)prio };
	struct task_struct *p = sched_find_task((int)pid);	/* [1] */
	int err;

	if (!p) {
		console_printf("chrt: no task with pid %ld\n", pid);
		return -ESRCH;
	}
	err = -EINVAL;						/* [2] */
	if (policy == SCHED_OTHER && prio != 0) {
		console_printf("chrt: SCHED_OTHER takes priority 0, not %ld "
			       "(use nice for SCHED_OTHER weights)\n", prio);
		goto out_put;
	}
	if (policy != SCHED_OTHER && (prio < 1 || prio > 99)) {
		console_printf("chrt: SCHED_%s priority must be 1..99, not %ld\n",
			       sched_policy_name(policy), prio);
		goto out_put;
	}
	err = sched_setscheduler(p, policy, &param);		/* [3] */
	if (err == -EPERM)
		console_printf("chrt: pid %ld (%s) is an idle task and keeps "
			       "its policy\n", pid, p->name);
	else if (err)
		console_printf("chrt: sched_setscheduler failed (%d)\n", err);
	else
		chrt_show(p);
out_put:
	put_task_struct(p);
	return err;
}

static int cmd_chrt(int argc, char **argv)
{
	long pid, prio;
	int policy;

	if (argc == 3 && !strcmp(argv[1], "-p")) {		/* show */
		struct task_struct *p;

		if (parse_pid(argv[2], &pid))
			return -EINVAL;
		p = sched_find_task((int)pid);
		if (!p) {
			console_printf("chrt: no task with pid %ld\n", pid);
			return -ESRCH;
		}
		chrt_show(p);
		put_task_struct(p);
		return 0;
	}
	if (argc == 4 && argv[1][0] != '-') {			/* PID POLICY PRIO */
		if (parse_pid(argv[1], &pid))
			return -EINVAL;
		policy = parse_policy(argv[2]);
		if (policy < 0 || argv[2][0] == '-') {
			console_printf("chrt: unknown policy '%s' "
				       "(fifo, rr or other)\n", argv[2]);
			return -EINVAL;
		}
		if (parse_prio(argv[3], &prio))
			return -EINVAL;
		return chrt_set(pid, policy, prio);
	}
	if ((argc == 4 || (argc == 5 && !strcmp(argv[2], "-p"))) &&
	    argv[1][0] == '-') {				/* -f PRIO PID */
		policy = parse_policy(argv[1]);
		if (policy < 0) {
			console_printf("chrt: unknown option '%s' (-f, -r, -o "
				       "or -p)\n", argv[1]);
			return -EINVAL;
		}
		if (parse_prio(argv[argc - 2], &prio) ||
		    parse_pid(argv[argc - 1], &pid))
			return -EINVAL;
		return chrt_set(pid, policy, prio);
	}
	chrt_usage();
	return -EINVAL;
}
SHELL_COMMAND(chrt, "chrt PID fifo|rr|other PRIO: set a task's policy (or -p PID)",
	      cmd_chrt);
