/*
 * kernel/fs/pipe_ring.h - a byte stream between a writing side and a
 * reading side: a power-of-two ring with blocking read and write, end of
 * file once the writer is gone and -EPIPE once the reader is gone.
 *
 * One ring carries one direction.  An AF_UNIX stream socketpair is two
 * rings crossed (kernel/fs/af_unix.c); pipe2 (issue 29 part 2) is one
 * ring with a file on each side.  The ring knows nothing of files: its
 * owner says which side is gone (pipe_ring_close_reader/_writer) and
 * turns its state into a poll mask.
 *
 * head and tail count bytes ever written and read (they wrap as unsigned
 * long, never in practice); head - tail is the bytes in the ring, and
 * byte n sits at buf[n & (size - 1)].
 * Linux counterpart: include/linux/pipe_fs_i.h (struct pipe_inode_info:
 * its mutex, rd_wait, wr_wait, head, tail, readers, writers), fs/pipe.c.
 * Left out: page-sized pipe_buffers and splice, F_SETPIPE_SZ, SIGPIPE
 * (part 2: the caller gets -EPIPE only).
 */
#ifndef KERNEL_FS_PIPE_RING_H
#define KERNEL_FS_PIPE_RING_H

#include "kernel/locking/rtmutex.h"
#include "kernel/sched/wait.h"
#include "arch/x86_64/arch.h"

/* Linux's default pipe size (PIPE_DEF_BUFFERS pages) */
#define PIPE_RING_SIZE (16 * 4096UL)
/* A write of at most PIPE_BUF bytes is not interleaved with others
 * (POSIX; Linux's limits.h value). */
#define PIPE_BUF 4096

struct pipe_ring {
	/* fixed at pipe_ring_init */
	char *buf;			/* size bytes, kmalloc'd */
	unsigned long size;		/* a power of two */

	/* woken on every change a sleeper waits for; poll waits here too */
	wait_queue_head_t rd_wait;	/* readers: data came, writer gone */
	wait_queue_head_t wr_wait;	/* writers: room came, reader gone */

	struct rt_mutex mutex;		/* protects everything below; held
					 * across the user copies (a sleeping
					 * lock in every model, as Linux's
					 * pipe->mutex) */
	unsigned long head;		/* bytes ever written */
	unsigned long tail;		/* bytes ever read */
	bool reader_gone;		/* writes get -EPIPE */
	bool writer_gone;		/* reads get 0 once the ring is empty */
	/* head, tail and the two flags are written under mutex with
	 * WRITE_ONCE and read without it (READ_ONCE) by the wait
	 * conditions and by poll */
};

int pipe_ring_init(struct pipe_ring *ring, unsigned long size);
void pipe_ring_destroy(struct pipe_ring *ring);
long pipe_ring_read(struct pipe_ring *ring, char __user *buf, size_t count,
		    bool nonblock);
long pipe_ring_write(struct pipe_ring *ring, const char __user *buf,
		     size_t count, bool nonblock);
void pipe_ring_close_reader(struct pipe_ring *ring);
void pipe_ring_close_writer(struct pipe_ring *ring);

/* Lockless views for poll and the wait conditions (a moment's truth:
 * the caller re-checks under the mutex, or waits on the queue first). */
static inline unsigned long pipe_ring_used(const struct pipe_ring *ring)
{
	/* tail first: it never passes head, so the difference read this
	 * way is never negative (a reader may have moved tail since) */
	unsigned long tail = READ_ONCE(ring->tail);

	return READ_ONCE(ring->head) - tail;
}

static inline bool pipe_ring_has_data(const struct pipe_ring *ring)
{
	return pipe_ring_used(ring) != 0;
}

static inline bool pipe_ring_has_room(const struct pipe_ring *ring)
{
	return pipe_ring_used(ring) < ring->size;
}

#endif /* KERNEL_FS_PIPE_RING_H */
