/*
 * kernel/fs/af_unix.c - socketpair(AF_UNIX, SOCK_STREAM): two connected
 * stream sockets, each end a struct file, made of two byte rings crossed
 * (kernel/fs/pipe_ring.h):
 *
 *	end 0 --write--> ring[0] --read--> end 1
 *	end 0 <--read--- ring[1] <--write-- end 1
 *
 * What a program sees, as on Linux: read blocks until there are bytes
 * and returns what is there (a partial read); write blocks while the
 * peer's ring is full; once the peer is closed, read drains the ring and
 * then returns 0, write returns -EPIPE (SIGPIPE is issue 29 part 2),
 * poll says POLLIN | POLLHUP | POLLRDHUP (and POLLOUT: a write would not
 * block); O_NONBLOCK (SOCK_NONBLOCK, F_SETFL) gives -EAGAIN.  fstat says
 * S_IFSOCK; lseek and pread64 are -ESPIPE, ioctl -ENOTTY.
 *
 * Lifetime: the pair (both ends and both rings) is one allocation; each
 * end's release (the last fput of its file) closes its sides of the two
 * rings, and the second release frees the pair.  A poller holds a
 * reference to the file it waits on (poll.c), so an end is never
 * released under a poll entry.
 * Linux counterpart: net/socket.c (__sys_socketpair, __sock_create's
 * checks, sock_alloc_file), net/unix/af_unix.c (unix_create,
 * unix_socketpair, unix_stream_sendmsg, unix_stream_read_generic,
 * unix_poll, unix_release_sock).  Left out: socket(2), bind/connect/
 * listen (names in the tree), SOCK_DGRAM and SOCK_SEQPACKET (-EOPNOTSUPP
 * here, Linux has them), sendmsg/recvmsg and SCM_RIGHTS, shutdown(2),
 * the ECONNRESET a peer closed with unread bytes gives on Linux; a
 * socket inode's st_nlink is 0 (Linux's sockfs says 1: rtk's iput wants
 * an unnamed inode unlinked).  POLLOUT means "room in the ring" where
 * Linux's unix_writable wants three quarters of the send buffer free.
 */
#include "kernel/fs/fdtable.h"
#include "kernel/fs/pipe_ring.h"
#include "kernel/fs/poll.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"

#define AF_MAX 46		/* families are below this (Linux's) */
/* each direction's bytes: Linux's pipe size (a unix socket's default
 * send buffer, ~208 KiB, counts skb overhead, not bytes) */
#define UNIX_STREAM_RING_SIZE PIPE_RING_SIZE

struct unix_pair;

/* One end: a socket file's private_data. */
struct unix_sock {
	struct pipe_ring *rx;		/* what this end reads */
	struct pipe_ring *tx;		/* what this end writes */
	struct unix_pair *pair;
};

struct unix_pair {
	struct unix_sock sk[2];
	struct pipe_ring ring[2];	/* ring[i]: written by sk[i] */
	int count;			/* atomic: ends not yet released */
};

static struct unix_sock *unix_sk(const struct file *file)
{
	return (struct unix_sock *)file->private_data;
}

static bool unix_nonblock(const struct file *file)
{
	return READ_ONCE(file->f_flags) & O_NONBLOCK;
}

static long unix_stream_read(struct file *file, char __user *buf,
			     size_t count, loff_t *pos)
{
	return pipe_ring_read(unix_sk(file)->rx, buf, count,
			      unix_nonblock(file));
}

static long unix_stream_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *pos)
{
	return pipe_ring_write(unix_sk(file)->tx, buf, count,
			       unix_nonblock(file));
}

/*
 * unix_stream_poll - Linux's unix_poll for a connected stream socket:
 * POLLIN with bytes to read; POLLOUT with room to write; the peer gone
 * adds POLLHUP | POLLRDHUP | POLLIN (read returns 0) and POLLOUT (write
 * returns -EPIPE at once).  Context: task.  Locking: none (the ring's
 * lockless views; a change after them wakes the queues queued first).
 */
static unsigned int unix_stream_poll(struct file *file, poll_table *pt)
{
	struct unix_sock *sk = unix_sk(file);
	unsigned int mask = 0;

	poll_wait(file, &sk->rx->rd_wait, pt);
	poll_wait(file, &sk->tx->wr_wait, pt);
	if (READ_ONCE(sk->rx->writer_gone))
		mask |= POLLHUP | POLLRDHUP | POLLIN | POLLRDNORM;
	if (pipe_ring_has_data(sk->rx))
		mask |= POLLIN | POLLRDNORM;
	if (READ_ONCE(sk->tx->reader_gone) || pipe_ring_has_room(sk->tx))
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	return mask;
}

/*
 * unix_release_sock - an end goes: the peer's reads see end of file
 * once its ring is drained, its writes -EPIPE; the second end to go
 * frees the pair.  Context: task, may sleep.  Locking: takes each
 * ring's mutex in turn (pipe_ring_close_*).
 */
static void unix_release_sock(struct unix_sock *sk)
{
	struct unix_pair *pair = sk->pair;

	might_sleep();
	pipe_ring_close_writer(sk->tx);
	pipe_ring_close_reader(sk->rx);
	if (__atomic_sub_fetch(&pair->count, 1, __ATOMIC_ACQ_REL))
		return;
	pipe_ring_destroy(&pair->ring[0]);
	pipe_ring_destroy(&pair->ring[1]);
	kfree(pair);
}

static void unix_stream_release(struct file *file)
{
	unix_release_sock(unix_sk(file));
}

static const struct file_operations unix_stream_fops = {
	.read = unix_stream_read,
	.write = unix_stream_write,
	.poll = unix_stream_poll,
	.release = unix_stream_release,
};

/*
 * unix_pair_alloc - two connected ends with their rings, both unreleased:
 * NULL without memory.  Context: task, may sleep.
 */
static struct unix_pair *unix_pair_alloc(void)
{
	struct unix_pair *pair = kzalloc(sizeof(*pair), GFP_KERNEL);

	might_sleep();
	if (!pair)
		return NULL;
	if (pipe_ring_init(&pair->ring[0], UNIX_STREAM_RING_SIZE))
		goto out_free;
	if (pipe_ring_init(&pair->ring[1], UNIX_STREAM_RING_SIZE))
		goto out_ring0;
	for (int i = 0; i < 2; i++) {
		pair->sk[i].tx = &pair->ring[i];
		pair->sk[i].rx = &pair->ring[1 - i];
		pair->sk[i].pair = pair;
	}
	pair->count = 2;
	return pair;

out_ring0:
	pipe_ring_destroy(&pair->ring[0]);
out_free:
	kfree(pair);
	return NULL;
}

/*
 * sock_alloc_file - a file for end sk on a fresh S_IFSOCK inode, O_RDWR
 * plus O_NONBLOCK from flags: NULL with *err (-ENOMEM); the end is not
 * released then.  Context: task, may sleep.  Locking: takes the tree
 * lock for writing (new_inode numbers inodes under it).
 */
static struct file *sock_alloc_file(struct unix_sock *sk, int flags,
				    int *err)
{
	struct inode *inode;
	struct file *file;

	might_sleep();
	fs_tree_write_lock();
	inode = new_inode(S_IFSOCK | 0777);
	fs_tree_write_unlock();
	*err = -ENOMEM;
	if (!inode)
		return NULL;
	inode->i_nlink = 0;		/* in no directory (see the header) */
	file = alloc_file(inode, O_RDWR | (flags & O_NONBLOCK),
			  &unix_stream_fops, err);
	if (!file) {
		iput(inode);
		return NULL;
	}
	file->private_data = (long)sk;
	return file;
}

/*
 * unix_socketpair_check - __sock_create's and unix_create's answers for
 * what rtk does not make: 0 for AF_UNIX SOCK_STREAM with protocol 0 or
 * PF_UNIX; -EAFNOSUPPORT for a family out of range or unknown; -EINVAL
 * for a type out of range; -EOPNOTSUPP for AF_INET and AF_INET6 (they
 * exist and refuse socketpair) and for the AF_UNIX types rtk leaves out;
 * -EPROTONOSUPPORT for another protocol; -ESOCKTNOSUPPORT for another
 * type.
 */
static int unix_socketpair_check(int family, int type, int protocol)
{
	if (family < 0 || family >= AF_MAX)
		return -EAFNOSUPPORT;
	if (type < 0 || type >= SOCK_MAX)
		return -EINVAL;
	if (family == AF_INET || family == AF_INET6)
		return -EOPNOTSUPP;
	if (family != AF_UNIX)
		return -EAFNOSUPPORT;
	if (protocol && protocol != AF_UNIX)
		return -EPROTONOSUPPORT;
	switch (type) {
	case SOCK_STREAM:
		return 0;
	case SOCK_DGRAM:
	case SOCK_SEQPACKET:
	case SOCK_RAW:
		return -EOPNOTSUPP;
	default:
		return -ESOCKTNOSUPPORT;
	}
}

/*
 * sys_socketpair - [1] the flags in type: -EINVAL for others than
 * SOCK_CLOEXEC and SOCK_NONBLOCK; [2] usockvec writable, else -EFAULT
 * (Linux writes the fds there before it looks at the family, so a bad
 * pointer wins over a bad family: rtk writes -1, -1); [3] family, type,
 * protocol (unix_socketpair_check); [4] the pair and its two files,
 * -ENOMEM; [5] two fds, -EMFILE; [6] the fds to usockvec (-EFAULT if
 * another thread unmapped it since [2]: the fds are closed again).
 * Context: task, may sleep.  Locking: none held.
 */
long sys_socketpair(int family, int type, int protocol, int __user *usockvec)
{
	int flags = type & ~SOCK_TYPE_MASK, fds[2] = { -1, -1 }, err;
	struct files_struct *files = current->files;
	struct file *file[2] = { NULL, NULL };
	struct unix_pair *pair;

	might_sleep();
	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))		/* [1] */
		return -EINVAL;
	type &= SOCK_TYPE_MASK;
	if (copy_to_user(usockvec, fds, sizeof(fds)))		/* [2] */
		return -EFAULT;
	err = unix_socketpair_check(family, type, protocol);	/* [3] */
	if (err)
		return err;
	pair = unix_pair_alloc();				/* [4] */
	if (!pair)
		return -ENOMEM;
	file[0] = sock_alloc_file(&pair->sk[0], flags, &err);
	if (!file[0])
		goto out_release_both;
	file[1] = sock_alloc_file(&pair->sk[1], flags, &err);
	if (!file[1])
		goto out_put0;
	fds[0] = alloc_fd(files, file[0], 0, rlimit_nofile(),	/* [5] */
			  flags & SOCK_CLOEXEC);
	err = fds[0];
	if (fds[0] < 0)
		goto out_put1;
	fds[1] = alloc_fd(files, file[1], 0, rlimit_nofile(),
			  flags & SOCK_CLOEXEC);
	err = fds[1];
	if (fds[1] < 0)
		goto out_close0;
	if (copy_to_user(usockvec, fds, sizeof(fds))) {	/* [6] */
		close_fd(files, (unsigned int)fds[1]);
		close_fd(files, (unsigned int)fds[0]);
		return -EFAULT;
	}
	return 0;

out_close0:
	close_fd(files, (unsigned int)fds[0]);	/* puts file[0]: end 0 goes */
	fput(file[1]);
	return err;
out_put1:
	fput(file[1]);
	fput(file[0]);
	return err;
out_put0:
	fput(file[0]);
	unix_release_sock(&pair->sk[1]);
	return err;
out_release_both:
	unix_release_sock(&pair->sk[1]);
	unix_release_sock(&pair->sk[0]);
	return err;
}
