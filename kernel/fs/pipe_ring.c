/*
 * kernel/fs/pipe_ring.c - the byte-stream ring (kernel/fs/pipe_ring.h):
 * blocking and non-blocking read and write, and the two ends going away.
 *
 * Read, as Linux's pipe_read and unix_stream_read_generic for a stream:
 *  [1] under the mutex, if there are bytes, copy out up to count of them
 *      and return how many (a partial read: never wait for more);
 *  [2] none and the writer is gone: 0, end of file;
 *  [3] none and O_NONBLOCK: -EAGAIN;
 *  [4] else drop the mutex, sleep on rd_wait until there are bytes or
 *      the writer is gone (-EINTR if a kernel signal ends the sleep),
 *      take the mutex and go to [1].
 * Write, as Linux's pipe_write (a blocking write moves every byte):
 *  [1] under the mutex, the reader gone: -EPIPE (the bytes written so
 *      far, if any);
 *  [2] enough room -- for a write of at most PIPE_BUF bytes room for all
 *      of it, so it is never interleaved with another writer's, else one
 *      byte -- copy in as much as fits; all written: return the count;
 *  [3] full and O_NONBLOCK: the bytes written so far, or -EAGAIN;
 *  [4] else drop the mutex, wake the readers for what is in the ring,
 *      sleep on wr_wait until there is room or the reader is gone, take
 *      the mutex and go to [1].
 * Every change wakes the other side after the mutex is dropped, so a
 * woken task does not at once block on the mutex its waker holds.
 *
 * The lost wake-up this defends against, a reader between its empty
 * test under the mutex and its sleep:
 *
 *	CPU0 (read)				CPU1 (write)
 *	lock; ring empty [1..3]; unlock
 *						lock; copy in; head += n
 *						unlock; wake_up_all(rd_wait):
 *						  nobody queued yet
 *	prepare_to_wait(rd_wait)
 *	has_data()?  yes: no sleep, back to [1]
 *
 * pipe_ring_wait queues itself before it tests, so a change made after
 * the test finds it queued and wakes it (kernel/sched/wait.c's rule).
 * user/tests/t_socket.c's full_ring_blocks_writer and stress make this
 * interleaving likely (not forced: no race-window hook here).
 * Linux counterpart: fs/pipe.c (pipe_read, pipe_write, pipe_wait_readable,
 * pipe_wait_writable).  Left out: SIGPIPE, the pipe_buffer pages.
 */
#include "kernel/fs/pipe_ring.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/slab.h"
#include "kernel/signal.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"

/*
 * pipe_ring_init - an empty ring of size bytes (a power of two), both
 * ends present: 0 or -ENOMEM.  Context: task, may sleep.
 */
int pipe_ring_init(struct pipe_ring *ring, unsigned long size)
{
	might_sleep();
	BUG_ON(!size || (size & (size - 1)));
	ring->buf = kmalloc(size, GFP_KERNEL);
	if (!ring->buf)
		return -ENOMEM;
	ring->size = size;
	init_waitqueue_head(&ring->rd_wait);
	init_waitqueue_head(&ring->wr_wait);
	rt_mutex_init(&ring->mutex);
	ring->head = 0;
	ring->tail = 0;
	ring->reader_gone = false;
	ring->writer_gone = false;
	return 0;
}

/* pipe_ring_destroy - free the bytes.  Context: task.  Locking: nobody
 * uses the ring any more (both ends closed, no sleeper, no poller). */
void pipe_ring_destroy(struct pipe_ring *ring)
{
	BUG_ON(!list_empty(&ring->rd_wait.head) ||
	       !list_empty(&ring->wr_wait.head));
	rt_mutex_destroy(&ring->mutex);
	kfree(ring->buf);
	ring->buf = NULL;
}

/* ring_copy_out / ring_copy_in - n bytes between the user and the ring
 * at tail / head, in two pieces when they wrap: the bytes NOT copied,
 * as copy_to_user.  Locking: ring->mutex held. */
static size_t ring_copy_out(struct pipe_ring *ring, char __user *buf,
			    size_t n)
{
	size_t off = ring->tail & (ring->size - 1);
	size_t first = n < ring->size - off ? n : ring->size - off;
	size_t left = copy_to_user(buf, ring->buf + off, first);

	if (left || first == n)
		return left + (n - first);
	return copy_to_user(buf + first, ring->buf, n - first);
}

static size_t ring_copy_in(struct pipe_ring *ring, const char __user *buf,
			   size_t n)
{
	size_t off = ring->head & (ring->size - 1);
	size_t first = n < ring->size - off ? n : ring->size - off;
	size_t left = copy_from_user(ring->buf + off, buf, first);

	if (left || first == n)
		return left + (n - first);
	return copy_from_user(ring->buf, buf + first, n - first);
}

/*
 * pipe_ring_ready - what a sleeper waits for, read without the mutex: a
 * writer (for_write) room for need bytes or the reader gone; a reader
 * bytes or the writer gone.  A stale answer is safe: the caller re-tests
 * under the mutex.
 */
static bool pipe_ring_ready(const struct pipe_ring *ring, bool for_write,
			    unsigned long need)
{
	unsigned long used = pipe_ring_used(ring);

	if (for_write)
		return READ_ONCE(ring->reader_gone) ||
		       (used <= ring->size && ring->size - used >= need);
	return READ_ONCE(ring->writer_gone) || used;
}

/*
 * pipe_ring_wait - step [4] of both algorithms: sleep on the side's
 * queue until pipe_ring_ready: 0, or -EINTR for a kernel signal.
 * Context: task, sleeps.  Locking: ring->mutex not held.
 */
static int pipe_ring_wait(struct pipe_ring *ring, bool for_write,
			  unsigned long need)
{
	wait_queue_head_t *wq = for_write ? &ring->wr_wait : &ring->rd_wait;
	struct wait_queue_entry we = { .task = NULL };
	int ret = 0;

	might_sleep();
	BUG_ON(rt_mutex_owner(&ring->mutex) == current);
	for (;;) {
		prepare_to_wait(wq, &we, TASK_INTERRUPTIBLE);
		if (pipe_ring_ready(ring, for_write, need))
			break;
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		schedule();
	}
	finish_wait(wq, &we);
	return ret;
}

/*
 * pipe_ring_read - up to count bytes into buf (steps in the header): the
 * bytes read, 0 at end of file, -EAGAIN, -EINTR, -EFAULT when none could
 * be copied.  Context: task, may sleep.  Locking: takes ring->mutex.
 */
long pipe_ring_read(struct pipe_ring *ring, char __user *buf, size_t count,
		    bool nonblock)
{
	long ret;

	might_sleep();
	rt_mutex_lock(&ring->mutex);
	for (;;) {
		unsigned long used = ring->head - ring->tail;

		if (used) {					/* [1] */
			size_t n = count < used ? count : used;

			n -= ring_copy_out(ring, buf, n);
			WRITE_ONCE(ring->tail, ring->tail + n);
			ret = n ? (long)n : -EFAULT;
			break;
		}
		ret = 0;
		if (ring->writer_gone)				/* [2] */
			break;
		ret = -EAGAIN;
		if (nonblock)					/* [3] */
			break;
		rt_mutex_unlock(&ring->mutex);			/* [4] */
		ret = pipe_ring_wait(ring, false, 1);
		rt_mutex_lock(&ring->mutex);
		if (ret)
			break;
	}
	rt_mutex_unlock(&ring->mutex);
	if (ret > 0)
		wake_up_all(&ring->wr_wait);	/* room: pairs with [4] of write */
	return ret;
}

/*
 * pipe_ring_write - count bytes from buf (steps in the header): count,
 * or the bytes written before the reader went, O_NONBLOCK found the ring
 * full, a signal came or a fault; -EPIPE, -EAGAIN, -EINTR, -EFAULT when
 * none were.  Context: task, may sleep.  Locking: takes ring->mutex.
 */
long pipe_ring_write(struct pipe_ring *ring, const char __user *buf,
		     size_t count, bool nonblock)
{
	size_t done = 0;
	bool wake = false;
	long ret = 0;

	might_sleep();
	rt_mutex_lock(&ring->mutex);
	while (done < count) {
		unsigned long room = ring->size - (ring->head - ring->tail);
		size_t want = count - done;
		unsigned long need = count <= PIPE_BUF ? want : 1;

		ret = -EPIPE;
		if (ring->reader_gone)				/* [1] */
			break;
		if (room >= need) {				/* [2] */
			size_t n = want < room ? want : room;
			size_t left = ring_copy_in(ring, buf + done, n);

			WRITE_ONCE(ring->head, ring->head + (n - left));
			done += n - left;
			wake |= n != left;
			ret = -EFAULT;
			if (left)
				break;
			ret = 0;
			continue;
		}
		ret = -EAGAIN;
		if (nonblock)					/* [3] */
			break;
		rt_mutex_unlock(&ring->mutex);			/* [4] */
		if (wake)
			wake_up_all(&ring->rd_wait);
		wake = false;
		ret = pipe_ring_wait(ring, true, need);
		rt_mutex_lock(&ring->mutex);
		if (ret)
			break;
	}
	rt_mutex_unlock(&ring->mutex);
	if (wake)
		wake_up_all(&ring->rd_wait);	/* bytes: pairs with [4] of read */
	return done ? (long)done : ret;
}

/* pipe_ring_side_gone - set *gone under the mutex, so a reader or writer
 * holding it sees one answer for its whole step, then wake the other
 * side's sleepers (wq) to see it. */
static void pipe_ring_side_gone(struct pipe_ring *ring, bool *gone,
				wait_queue_head_t *wq)
{
	rt_mutex_lock(&ring->mutex);
	WRITE_ONCE(*gone, true);
	rt_mutex_unlock(&ring->mutex);
	wake_up_all(wq);
}

/*
 * pipe_ring_close_reader - the reading side is gone: writers get -EPIPE.
 * pipe_ring_close_writer - the writing side is gone: readers get 0 once
 * the ring is empty.  Context: task, may sleep.
 * Locking: takes ring->mutex.
 */
void pipe_ring_close_reader(struct pipe_ring *ring)
{
	might_sleep();
	pipe_ring_side_gone(ring, &ring->reader_gone, &ring->wr_wait);
}

void pipe_ring_close_writer(struct pipe_ring *ring)
{
	might_sleep();
	pipe_ring_side_gone(ring, &ring->writer_gone, &ring->rd_wait);
}
