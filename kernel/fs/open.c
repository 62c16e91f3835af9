/*
 * kernel/fs/open.c - what open(2) resolves a path to: path_openat, the
 * lookup-or-create of O_CREAT/O_EXCL, O_NOFOLLOW, O_DIRECTORY and
 * O_TRUNC on top of the walk (kernel/fs/namei.c) and the directory
 * operations (kernel/fs/dir.c), all under the tree lock at once so that
 * "is it there? create it" cannot race with another create.
 * The struct file, the fd and the access mode's enforcement are
 * kernel/fs/sys_open.c's (do_sys_openat); path_openat hands back the
 * inode only.
 * Linux counterpart: fs/namei.c path_openat, open_last_lookups,
 * lookup_open, do_open (handle_truncate); fs/open.c do_sys_open above it.
 */
#include "kernel/fs/fs.h"
#include "kernel/fs/tree_lock.h"
#include "lib/errno.h"

/*
 * open_create - O_CREAT's last component (Linux: open_last_lookups,
 * lookup_open): a missing name is created; an existing one is -EEXIST
 * with O_EXCL (a symlink too, not followed), else opened; a symlink is
 * followed unless O_NOFOLLOW, and a dangling one's target created, as
 * Linux does (links counted with the walk's, MAXSYMLINKS: -ELOOP).  A
 * trailing slash ("new/") is -EISDIR.  *out gets a reference.
 * Locking: the tree lock held for writing.
 */
static int open_create(struct inode *root, struct path_last *last,
		       int open_flags, umode_t mode, struct inode **out)
{
	struct inode *inode;
	int ret;

	fs_tree_assert_write_held();
	for (;;) {
		if (last->trailing_slash)
			return -EISDIR;
		inode = dir_lookup(last->dir, last->name, last->len);
		if (!inode)
			return vfs_create(last->dir, last->name, last->len,
					  mode, out);
		if (open_flags & O_EXCL)
			return -EEXIST;
		if (!S_ISLNK(inode->i_mode) || (open_flags & O_NOFOLLOW)) {
			*out = iget(inode);
			return 0;
		}
		if (last->links >= MAXSYMLINKS)
			return -ELOOP;
		ret = vfs_path_parent_len(root, last->dir, inode->i_data,
					  inode->i_size, last->links + 1, last);
		if (ret)
			return ret == -EEXIST ? -EISDIR : ret;
	}
}

/*
 * path_openat - the inode open(2) of path with open_flags would open,
 * creating or truncating it: O_CREAT makes a missing regular file (mode:
 * permission bits; see open_create), O_EXCL with O_CREAT refuses an
 * existing name (-EEXIST, even a symlink), O_NOFOLLOW refuses a
 * final symlink (-ELOOP), O_DIRECTORY wants a directory (-ENOTDIR; with
 * O_CREAT -EINVAL, as Linux since 6.4), O_TRUNC empties a regular file (-EISDIR for a directory opened for
 * writing).  *out gets a reference; the file object is vfs_open's
 * (kernel/fs/file.c).
 * Context: task, may sleep.  Locking: takes and drops the tree lock
 * (write when it may change the tree, else read).
 */
int path_openat(struct inode *root, struct inode *start, const char *path,
		int open_flags, umode_t mode, struct inode **out)
{
	unsigned int flags = open_flags & O_NOFOLLOW ? 0 : LOOKUP_FOLLOW;
	bool writer = open_flags & (O_CREAT | O_TRUNC);
	struct inode *inode = NULL;
	struct path_last last;
	int ret;

	if ((open_flags & (O_CREAT | O_DIRECTORY)) == (O_CREAT | O_DIRECTORY))
		return -EINVAL;	/* Linux 6.4 on: it made a file, then -ENOTDIR */
	if (open_flags & O_DIRECTORY)
		flags |= LOOKUP_DIRECTORY;
	if (writer)
		fs_tree_write_lock();
	else
		fs_tree_read_lock();
	if (open_flags & O_CREAT) {
		ret = vfs_path_parent(root, start, path, &last);
		if (!ret)
			ret = open_create(root, &last, open_flags, mode, &inode);
		if (ret == -EEXIST && !(open_flags & O_EXCL))
			ret = -EISDIR;	/* "/", "x/..": a directory */
	} else {
		ret = vfs_path_lookup(root, start, path, flags, &inode);
	}
	if (ret)
		goto out_unlock;
	ret = -ELOOP;
	if (S_ISLNK(inode->i_mode))	/* only with O_NOFOLLOW */
		goto out_put;
	ret = -ENOTDIR;
	if ((open_flags & O_DIRECTORY) && !S_ISDIR(inode->i_mode))
		goto out_put;
	ret = -EISDIR;
	if (S_ISDIR(inode->i_mode) &&
	    ((open_flags & O_ACCMODE) != O_RDONLY || (open_flags & O_CREAT)))
		goto out_put;
	if ((open_flags & O_TRUNC) && S_ISREG(inode->i_mode) &&
	    (open_flags & O_ACCMODE) != O_RDONLY) {
		ret = __inode_truncate(inode, 0);
		if (ret)
			goto out_put;
	}
	ret = 0;
	*out = inode;
	goto out_unlock;

out_put:
	iput(inode);
out_unlock:
	if (writer)
		fs_tree_write_unlock();
	else
		fs_tree_read_unlock();
	return ret;
}
