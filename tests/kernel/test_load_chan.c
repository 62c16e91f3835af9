/*
 * tests/kernel/test_load_chan.c - hackbench's mailbox keeps its bound when
 * two senders race for its last slot (kernel/workloads/load_chan.h).
 *
 * The race (a review found it in `load hackbench`, whose senders all
 * write to each receiver's mailbox):
 *
 *	CPU1 (sender K)				CPU0 (sender T)
 *	wait_event(not_full, room)
 *	lock; room = head - tail < 8; unlock
 *	    (one slot left: room)
 *						lock; room; put; unlock  (8/8)
 *	lock; put; unlock			  <- 9 in 8 slots: the oldest
 *						     unread message is lost,
 *						     the receiver reads K's twice
 *
 * Scenario: a mailbox holds 7 of its 8 messages.  Sender K, on CPU1, is
 * parked by load_chan_send_window after it saw the free slot and before
 * it queues; meanwhile the test, on CPU0, takes that slot.  Released, K
 * must not queue into the full mailbox: it must sleep until the receiver
 * (the test again) takes a message.  Observable: the mailbox never holds
 * more than 8, and the receiver reads the 7 first messages, the test's,
 * then K's, each exactly once and in order.
 */
#include "kernel/ktest.h"
#include "kernel/workloads/load_chan.h"
#include "kernel/debug/race_window.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/string.h"

#define SAFETY_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */
#define K_BYTE 0xAA			/* K's message */
#define T_BYTE 0xBB			/* the test's racing message */

static struct load_chan lc;
static DECLARE_COMPLETION(k_done);
static bool k_sent;

static int sender_k(void *unused)
{
	u8 msg[LOAD_CHAN_MSG_BYTES];

	(void)unused;
	memset(msg, K_BYTE, sizeof(msg));
	WRITE_ONCE(k_sent, load_chan_send(&lc, msg));
	complete(&k_done);
	return 0;
}

static bool sleeping(struct task_struct *p)
{
	return READ_ONCE(p->state) == TASK_UNINTERRUPTIBLE &&
	       !READ_ONCE(p->on_rq);
}

/* recv_byte - the receiver's next message's first byte, -1 if none
 * (load_chan_recv would sleep on an empty mailbox) */
static int recv_byte(void)
{
	u8 msg[LOAD_CHAN_MSG_BYTES];

	if (!load_chan_has_msg(&lc) || !load_chan_recv(&lc, msg))
		return -1;
	return msg[0];
}

static void test_last_slot_race_keeps_the_bound(struct ktest *t)
{
	u8 msg[LOAD_CHAN_MSG_BYTES];
	struct task_struct *k;
	unsigned int most;
	bool parked, took, k_slept;
	int i, b, got[LOAD_CHAN_SLOTS + 1];
	ktime_t end;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the sender spins in its window "
			      "while the other side takes the slot");
	load_chan_init(&lc);
	reinit_completion(&k_done);
	WRITE_ONCE(k_sent, false);
	for (i = 1; i < LOAD_CHAN_SLOTS; i++) {		/* 7 of 8 */
		memset(msg, i, sizeof(msg));
		KTEST_ASSERT(t, load_chan_try_send(&lc, msg),
			     "message %d of 7 did not fit an empty mailbox", i);
	}
	set_cpus_allowed(current, (cpumask_t){ .bits = 1ULL << 0 });
	k = kthread_create(sender_k, NULL, "chan-k");
	KTEST_ASSERT(t, k, "kthread_create failed");
	get_task_struct(k);
	kthread_bind(k, 1);
	parked = race_window_run_until_parked(&load_chan_send_window, k,
					      SAFETY_NS);
	memset(msg, T_BYTE, sizeof(msg));
	took = load_chan_try_send(&lc, msg);		/* the last slot */
	race_window_release(&load_chan_send_window);
	/* K either queued (the bug) or sleeps waiting for room */
	end = ktime_get() + SAFETY_NS;
	while (!completion_done(&k_done) && !sleeping(k) && ktime_get() < end)
		schedule();
	k_slept = !completion_done(&k_done) && sleeping(k);
	most = READ_ONCE(lc.head) - READ_ONCE(lc.tail);
	for (i = 0; i <= LOAD_CHAN_SLOTS; i++) {	/* the receiver */
		got[i] = recv_byte();
		if (i == 0)
			wait_for_completion(&k_done);	/* room: K sends */
	}
	put_task_struct(k);
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });

	KTEST_EXPECT(t, parked, "K parks in load_chan_send_window");
	KTEST_EXPECT(t, took, "the test's send takes the last free slot");
	KTEST_EXPECT(t, most <= LOAD_CHAN_SLOTS && k_slept,
		     "K, released into a full mailbox, sleeps for room; saw "
		     "%u messages in %d slots, K %s", most, LOAD_CHAN_SLOTS,
		     k_slept ? "asleep" : "done");
	KTEST_EXPECT(t, READ_ONCE(k_sent), "K's send completes once the "
		     "receiver makes room");
	for (i = 0; i <= LOAD_CHAN_SLOTS; i++) {	/* the first wrong one */
		b = i < LOAD_CHAN_SLOTS - 1 ? i + 1 :
		    i == LOAD_CHAN_SLOTS - 1 ? T_BYTE : K_BYTE;
		if (got[i] != b)
			break;
	}
	KTEST_EXPECT(t, i > LOAD_CHAN_SLOTS, "read %d of 9: expected 0x%x, "
		     "saw 0x%x (-1: none): a message was lost or read twice",
		     i + 1, b, i > LOAD_CHAN_SLOTS ? 0 : got[i]);
}

KTEST_SUITE(load_chan,
	    KTEST_CASE(test_last_slot_race_keeps_the_bound));
