/*
 * kernel/workloads/load_chan.c - hackbench's mailbox (see load_chan.h).
 */
#include "kernel/workloads/load_chan.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "lib/string.h"

DEFINE_RACE_WINDOW(load_chan_send_window);

void load_chan_init(struct load_chan *c)
{
	spin_lock_init(&c->lock);
	init_waitqueue_head(&c->not_empty);
	init_waitqueue_head(&c->not_full);
	c->head = c->tail = 0;
}

bool load_chan_has_room(struct load_chan *c)
{
	return READ_ONCE(c->head) - READ_ONCE(c->tail) < LOAD_CHAN_SLOTS;
}

bool load_chan_has_msg(struct load_chan *c)
{
	return READ_ONCE(c->head) != READ_ONCE(c->tail);
}

static void __load_chan_put(struct load_chan *c, const u8 *msg)
{
	memcpy(c->msg[c->head % LOAD_CHAN_SLOTS], msg, LOAD_CHAN_MSG_BYTES);
	WRITE_ONCE(c->head, c->head + 1);
}

/*
 * load_chan_try_send - [1] under one hold of c->lock, see room and queue
 * msg; [2] wake the receiver after the unlock.  Checking room under the
 * lock, dropping it and queueing under a second hold let two senders
 * both see the last slot and put 9 messages in 8 (the race drawn in
 * tests/kernel/test_load_chan.c): what a lock decides must be done
 * before it is dropped.
 * Context: task.  Locking: takes c->lock.
 */
bool load_chan_try_send(struct load_chan *c, const u8 *msg)
{
	bool room;

	might_sleep();		/* spinlock_t sleeps under rt */
	spin_lock(&c->lock);					/* [1] */
	room = load_chan_has_room(c);
	if (room)
		__load_chan_put(c, msg);
	spin_unlock(&c->lock);
	if (room)						/* [2] */
		wake_up(&c->not_empty);
	return room;
}

/* load_chan_send - Context: kthread (or a task that is never stopped).
 * Locking: takes c->lock (load_chan_try_send); sleeps on not_full. */
bool load_chan_send(struct load_chan *c, const u8 *msg)
{
	might_sleep();
	for (;;) {
		wait_event(c->not_full,
			   load_chan_has_room(c) || kthread_should_stop());
		if (kthread_should_stop())
			return false;
		trace_race_window(&load_chan_send_window);	/* test-only */
		/* another sender may take the room first: wait again */
		if (load_chan_try_send(c, msg))
			return true;
	}
}

/* load_chan_recv - Context: kthread, the mailbox's one receiver.
 * Locking: takes c->lock; sleeps on not_empty.  One receiver: a message
 * seen outside the lock stays until this thread takes it. */
bool load_chan_recv(struct load_chan *c, u8 *msg)
{
	might_sleep();
	wait_event(c->not_empty,
		   load_chan_has_msg(c) || kthread_should_stop());
	if (!load_chan_has_msg(c))
		return false;
	spin_lock(&c->lock);
	memcpy(msg, c->msg[c->tail % LOAD_CHAN_SLOTS], LOAD_CHAN_MSG_BYTES);
	WRITE_ONCE(c->tail, c->tail + 1);
	spin_unlock(&c->lock);
	wake_up(&c->not_full);
	return true;
}
