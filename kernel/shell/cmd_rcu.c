/*
 * kernel/shell/cmd_rcu.c - `rcu`: grace periods, preempted readers,
 * boosts and callbacks (kernel/rcu/rcupdate.h), and the boost tunables.
 *
 *	rcu			state, blocked readers, counters
 *	rcu boost_delay MS	boost a reader holding a gp for MS ms (rt)
 *	rcu boost_prio N	to SCHED_FIFO N (1..99)
 *
 * Linux counterpart: /sys/kernel/debug/rcu (rcu_state, rcudata), the
 * rcutree.kthread_prio and RCU_BOOST_DELAY settings.
 */
#include "kernel/rcu/rcupdate.h"
#include "kernel/time/ktime.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"


static const char *const rcu_phase_names[] = {
	[RCU_GP_IDLE] = "idle",
	[RCU_GP_WAIT_QS] = "waiting for CPUs",
	[RCU_GP_WAIT_READERS] = "waiting for preempted readers",
	[RCU_GP_BOOSTING] = "boosting a preempted reader",
};

static void rcu_show(void)
{
	struct rcu_stats st;
	int i;

	rcu_get_stats(&st);
	console_printf("rcu: %s\n", PREEMPT_RCU
		       ? "PREEMPT_RCU (preemptible read sections)"
		       : "read sections disable preemption");
	console_printf("  grace periods: %lu completed, %lu started, %s",
		       st.gp_completed, st.gp_started, rcu_phase_names[st.phase]);
	if (st.phase != RCU_GP_IDLE)
		console_printf(" for %llu us, CPUs pending %#llx",
			       (unsigned long long)(st.gp_age_ns / NSEC_PER_USEC),
			       (unsigned long long)st.cpus_pending);
	console_printf("\n  blocked readers: %lu now, %lu max, %lu total; "
		       "boosts: %lu (after %u ms, to SCHED_FIFO %d)\n",
		       st.nr_blocked, st.nr_blocked_max, st.nr_blocked_total,
		       st.boosts, st.boost_delay_ms, st.boost_prio);
	for (i = 0; i < st.nr_readers; i++)
		console_printf("    %-16s pid %-4d blocked %llu us%s%s\n",
			       st.readers[i].name, st.readers[i].pid,
			       (unsigned long long)(st.readers[i].blocked_ns /
						    NSEC_PER_USEC),
			       st.readers[i].holds_gp ? ", holds the gp" : "",
			       st.readers[i].boosted ? ", boosted" : "");
	console_printf("  callbacks: %lu queued, %lu invoked, %lu pending\n",
		       st.cb_queued, st.cb_invoked, st.cb_queued - st.cb_invoked);
}

static int cmd_rcu(int argc, char **argv)
{
	long val;
	int ret;

	if (argc == 1) {
		rcu_show();
		return 0;
	}
	if (argc != 3)
		goto usage;
	if (!strcmp(argv[1], "boost_delay")) {
		if (shell_parse_long("rcu", "boost_delay", argv[2], 1,
				     RCU_BOOST_DELAY_MAX_MS, &val))
			return -EINVAL;
		ret = rcu_set_boost_delay((unsigned int)val);
		if (!ret)
			console_printf("rcu: boost a reader holding a grace "
				       "period after %ld ms\n", val);
	} else if (!strcmp(argv[1], "boost_prio")) {
		if (shell_parse_long("rcu", "boost_prio", argv[2], 1, 99, &val))
			return -EINVAL;
		ret = rcu_set_boost_prio((int)val);
		if (!ret)
			console_printf("rcu: boost to SCHED_FIFO %ld\n", val);
	} else {
		goto usage;
	}
	return ret;
usage:
	console_printf("usage: rcu [boost_delay MS | boost_prio N]\n");
	return -EINVAL;
}
SHELL_COMMAND(rcu, "RCU grace periods, preempted readers, boosts", cmd_rcu);
