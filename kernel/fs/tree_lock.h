/*
 * kernel/fs/tree_lock.h - the one lock of the file-system tree.
 *
 * One rw_semaphore covers every directory's entries, every inode's
 * i_nlink, i_size and data, for the whole tree.  Why one: the tree is a
 * few hundred inodes in memory, walks are short and writes are rare
 * (boot's unpack, /dev/shm, `busybox --install`), so a per-directory lock
 * (Linux's inode->i_rwsem, with the lock-free RCU walk in front) would buy
 * nothing measurable and cost the lock-ordering rules of rename and of
 * walking up "..".  Why a rw_semaphore and not rwlock_t: a writer
 * kmallocs (the copy on first write, up to FS_MAX_FILE_SIZE) and copies
 * megabytes inside it; it must be preemptible under every model, and
 * under rt it gives PI like Linux's i_rwsem does.  The price under rt:
 * rt_rw's one-reader rule (kernel/locking/rt_rw.h) serialises walks too;
 * a walk is a few microseconds, and read(2) copies at most a page into
 * a kernel buffer under it (kernel/fs/file.c: the user copy comes after).
 *
 * The kernel's implementation is kernel/fs/tree_lock.c; the host tests
 * link a single-threaded fake (tests/host/fake_kernel.c) that checks the
 * same assertions, so kernel/fs/inode.c, dir.c, namei.c and unpack.c
 * build unchanged on both.
 */
#ifndef KERNEL_FS_TREE_LOCK_H
#define KERNEL_FS_TREE_LOCK_H

#include "lib/bug.h"
#include "lib/types.h"

/* Context: task, may sleep.  Readers may nest with readers of the same
 * task only where rt_rw.h allows it: rtk's fs code never nests. */
void fs_tree_read_lock(void);
void fs_tree_read_unlock(void);
void fs_tree_write_lock(void);
void fs_tree_write_unlock(void);

/* fs_tree_is_locked - somebody holds it (read or write); the current
 * task is the writer (fs_tree_is_write_locked).  For the assertions. */
bool fs_tree_is_locked(void);
bool fs_tree_is_write_locked(void);

/* The Locking: lines of kernel/fs/ back their claims with these. */
#define fs_tree_assert_held() BUG_ON(!fs_tree_is_locked())
#define fs_tree_assert_write_held() BUG_ON(!fs_tree_is_write_locked())

#endif /* KERNEL_FS_TREE_LOCK_H */
