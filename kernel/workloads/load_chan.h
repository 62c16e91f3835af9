/*
 * kernel/workloads/load_chan.h - hackbench's mailbox: a bounded ring of
 * fixed-size messages with one receiver and several senders (one pipe
 * in rt-tests' hackbench, which every sender of a group writes to).
 *
 * A full mailbox blocks its sender on not_full, an empty one its
 * receiver on not_empty.  The ring's indices only grow; head - tail is
 * the number of messages in it and must never exceed LOAD_CHAN_SLOTS.
 * Linux counterpart: a pipe's ring (fs/pipe.c, pipe_write/pipe_read).
 */
#ifndef KERNEL_WORKLOADS_LOAD_CHAN_H
#define KERNEL_WORKLOADS_LOAD_CHAN_H

#include "kernel/locking/spinlock.h"
#include "kernel/sched/wait.h"
#include "kernel/debug/race_window.h"

#define LOAD_CHAN_MSG_BYTES 100	/* hackbench's default datasize */
#define LOAD_CHAN_SLOTS 8

struct load_chan {
	spinlock_t lock;
	wait_queue_head_t not_empty, not_full;
	unsigned int head, tail;		/* under lock */
	u8 msg[LOAD_CHAN_SLOTS][LOAD_CHAN_MSG_BYTES];
};

void load_chan_init(struct load_chan *c);
/* lockless hints for wait conditions; the lock holder decides */
bool load_chan_has_room(struct load_chan *c);
bool load_chan_has_msg(struct load_chan *c);
/* load_chan_try_send - queue msg if there is room; false if full.
 * Context: task.  Locking: takes c->lock. */
bool load_chan_try_send(struct load_chan *c, const u8 *msg);
/* load_chan_send - queue msg, sleeping while full; false only when
 * kthread_should_stop() ended the wait.  Context: kthread. */
bool load_chan_send(struct load_chan *c, const u8 *msg);
/* load_chan_recv - take the oldest message, sleeping while empty; false
 * only when kthread_should_stop() ended the wait.  Context: kthread. */
bool load_chan_recv(struct load_chan *c, u8 *msg);

/* test-only: a sender that saw room parks here before it queues (the old
 * code's window sat between its check under the lock and its put under a
 * second hold); tests/kernel/test_load_chan.c takes the slot meanwhile */
extern struct race_window load_chan_send_window;

#endif /* KERNEL_WORKLOADS_LOAD_CHAN_H */
