/*
 * kernel/fs/pipe.c - pipe(2) and pipe2(2): one byte ring
 * (kernel/fs/pipe_ring.h, 64 KiB as Linux's default pipe) with a read
 * end and a write end, each a struct file on one S_IFIFO inode.
 *
 * What a program sees, as on Linux (fs/pipe.c):
 *   - read blocks until there are bytes and returns what is there; once
 *     the last writer is gone (the write end's file released: every fd
 *     on it closed, in every process that inherited it) read drains the
 *     ring, then returns 0;
 *   - write blocks while the ring is full and moves every byte; a write
 *     of at most PIPE_BUF (4096) bytes is never interleaved with another
 *     writer's; once the last reader is gone it fails with -EPIPE and
 *     raises SIGPIPE (whose default action ends the writer; ignored, the
 *     write just fails) -- sent to the writer's process through
 *     kill_process, where Linux sends it to the writing thread;
 *   - O_NONBLOCK (pipe2 or F_SETFL): -EAGAIN instead of blocking;
 *   - poll: the read end POLLIN | POLLRDNORM with bytes, POLLHUP once
 *     the writer is gone; the write end POLLOUT | POLLWRNORM with room
 *     for PIPE_BUF bytes (Linux: a free page slot of the 16; so a write
 *     of PIPE_BUF after POLLOUT never blocks on either), POLLERR once
 *     the reader is gone (Linux's pipe_poll);
 *   - fstat says S_IFIFO; lseek and pread64 -ESPIPE; reading the write
 *     end or writing the read end -EBADF (their access modes).
 * Lifetime: struct pipe (the ring and a count of unreleased ends) is one
 * allocation; each end's release closes its side of the ring and the
 * second frees it (as kernel/fs/af_unix.c's pair).  fork and dup share
 * a file, so "the last writer" is the write end's last fput.
 * Linux counterpart: fs/pipe.c (do_pipe2, create_pipe_files, pipe_read,
 * pipe_write, pipe_poll, pipe_release).  Left out: named pipes (mkfifo),
 * F_SETPIPE_SZ / F_GETPIPE_SZ, O_DIRECT packet mode, splice.
 */
#include "kernel/fs/fdtable.h"
#include "kernel/fs/pipe_ring.h"
#include "kernel/fs/poll.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/user/process.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"

struct pipe {
	struct pipe_ring ring;
	int count;			/* atomic: ends not yet released */
};

static struct pipe *pipe_of(const struct file *file)
{
	return (struct pipe *)file->private_data;
}

static bool pipe_nonblock(const struct file *file)
{
	return READ_ONCE(file->f_flags) & O_NONBLOCK;
}

static long pipe_read(struct file *file, char __user *buf, size_t count,
		      loff_t *pos)
{
	return pipe_ring_read(&pipe_of(file)->ring, buf, count,
			      pipe_nonblock(file));
}

/*
 * pipe_write - pipe_ring_write, and SIGPIPE when the reader is gone: on
 * -EPIPE, or after a partial write the reader's going cut short (Linux
 * raises it in both cases).  Context: task, may sleep.
 */
static long pipe_write(struct file *file, const char __user *buf,
		       size_t count, loff_t *pos)
{
	struct pipe_ring *ring = &pipe_of(file)->ring;
	long ret;

	might_sleep();
	ret = pipe_ring_write(ring, buf, count, pipe_nonblock(file));
	if (ret == -EPIPE ||
	    (ret >= 0 && (size_t)ret < count && READ_ONCE(ring->reader_gone)))
		kill_process(current_process(), SIGPIPE);
	return ret;
}

/*
 * pipe_poll - see the header.  Context: task.  Locking: none (the ring's
 * lockless views; a change after them wakes the queue queued first).
 */
static unsigned int pipe_poll(struct file *file, poll_table *pt)
{
	struct pipe_ring *ring = &pipe_of(file)->ring;
	unsigned int mask = 0;

	if (file_readable(file)) {
		poll_wait(file, &ring->rd_wait, pt);
		if (pipe_ring_has_data(ring))
			mask |= POLLIN | POLLRDNORM;
		if (READ_ONCE(ring->writer_gone))
			mask |= POLLHUP;
	}
	if (file_writable(file)) {
		poll_wait(file, &ring->wr_wait, pt);
		/* room for a PIPE_BUF write, as Linux's free slot */
		if (pipe_ring_used(ring) + PIPE_BUF <= ring->size)
			mask |= POLLOUT | POLLWRNORM;
		if (READ_ONCE(ring->reader_gone))
			mask |= POLLERR;
	}
	return mask;
}

/* pipe_release - an end goes (its file's last fput): its side of the
 * ring closes; the second frees the pipe.  Context: task, may sleep. */
static void pipe_release(struct file *file)
{
	struct pipe *pipe = pipe_of(file);

	might_sleep();
	if (file_readable(file))
		pipe_ring_close_reader(&pipe->ring);
	if (file_writable(file))
		pipe_ring_close_writer(&pipe->ring);
	if (__atomic_sub_fetch(&pipe->count, 1, __ATOMIC_ACQ_REL))
		return;
	pipe_ring_destroy(&pipe->ring);
	kfree(pipe);
}

static const struct file_operations pipe_fops = {
	.read = pipe_read,
	.write = pipe_write,
	.poll = pipe_poll,
	.release = pipe_release,
};

/*
 * create_pipe_files - the two ends, file[0] O_RDONLY and file[1]
 * O_WRONLY (plus O_NONBLOCK from flags), on one new S_IFIFO inode.
 * 0 or -ENOMEM.  Context: task, may sleep.  Locking: takes the tree
 * lock for writing (new_inode numbers inodes under it).
 */
static int create_pipe_files(struct file *file[2], int flags)
{
	struct inode *inode;
	struct pipe *pipe;
	int err = -ENOMEM;

	might_sleep();
	pipe = kzalloc(sizeof(*pipe), GFP_KERNEL);
	if (!pipe)
		return -ENOMEM;
	if (pipe_ring_init(&pipe->ring, PIPE_RING_SIZE))
		goto out_free;
	fs_tree_write_lock();
	inode = new_inode(S_IFIFO | 0600);
	fs_tree_write_unlock();
	if (!inode)
		goto out_ring;
	inode->i_nlink = 0;		/* in no directory, as a socket's */
	/* each file holds one inode reference: the second is taken here */
	file[0] = alloc_file(iget(inode), O_RDONLY | (flags & O_NONBLOCK),
			     &pipe_fops, &err);
	if (!file[0]) {
		iput(inode);
		iput(inode);
		goto out_ring;
	}
	file[0]->private_data = (long)pipe;
	file[1] = alloc_file(inode, O_WRONLY | (flags & O_NONBLOCK),
			     &pipe_fops, &err);
	if (!file[1]) {
		iput(inode);
		pipe->count = 1;	/* file[0]'s release frees the pipe */
		fput(file[0]);
		return err;
	}
	file[1]->private_data = (long)pipe;
	pipe->count = 2;
	return 0;

out_ring:
	pipe_ring_destroy(&pipe->ring);
out_free:
	kfree(pipe);
	return err;
}

/*
 * sys_pipe2 - [1] flags other than O_CLOEXEC and O_NONBLOCK: -EINVAL;
 * [2] the pipe and its two files (-ENOMEM); [3] two fds (-EMFILE, the
 * lowest free ones, read end first); [4] the fds to fildes: -EFAULT,
 * with both fds closed again (Linux's do_pipe2 writes before it
 * installs; no other thread can have used them: rtk installs first,
 * so one could, see af_unix.c's socketpair for the same order).
 * Context: task, may sleep.  Locking: none held.
 */
long sys_pipe2(int __user *fildes, int flags)
{
	struct files_struct *files = current->files;
	struct file *file[2] = { NULL, NULL };
	int fds[2], err;

	might_sleep();
	if (flags & ~(O_CLOEXEC | O_NONBLOCK))				/* [1] */
		return -EINVAL;
	err = create_pipe_files(file, flags);				/* [2] */
	if (err)
		return err;
	fds[0] = alloc_fd(files, file[0], 0, rlimit_nofile(),		/* [3] */
			  flags & O_CLOEXEC);
	if (fds[0] < 0) {
		fput(file[0]);
		fput(file[1]);
		return fds[0];
	}
	fds[1] = alloc_fd(files, file[1], 0, rlimit_nofile(),
			  flags & O_CLOEXEC);
	if (fds[1] < 0) {
		close_fd(files, (unsigned int)fds[0]);
		fput(file[1]);
		return fds[1];
	}
	if (copy_to_user(fildes, fds, sizeof(fds))) {			/* [4] */
		close_fd(files, (unsigned int)fds[1]);
		close_fd(files, (unsigned int)fds[0]);
		return -EFAULT;
	}
	return 0;
}

long sys_pipe(int __user *fildes)
{
	return sys_pipe2(fildes, 0);
}
