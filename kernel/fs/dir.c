/*
 * kernel/fs/dir.c - directories: the named entries of one directory and
 * the operations that add or remove one (create, mkdir, symlink, mknod,
 * unlink, rmdir), each on a directory inode and one name component.
 *
 * A directory's entries are a list in creation order, searched linearly:
 * the largest directory expected is /bin after `busybox --install -s`
 * (~300 names), a few microseconds per lookup.  ".." is i_parent, "." the
 * directory itself; neither is stored as an entry.
 * Linux counterpart: fs/namei.c vfs_create, vfs_mkdir, vfs_symlink,
 * vfs_mknod, vfs_unlink, vfs_rmdir with fs/ramfs/inode.c and fs/libfs.c
 * (simple_lookup, simple_unlink, simple_rmdir) as the file system under
 * them.  Like Linux's, they expect the caller to hold the parent locked
 * (here the tree lock, for writing) and the name to be one component.
 * Left out: permissions (rtk runs everything as root), rename, hard links.
 */
#include "kernel/fs/fs.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/mm/slab.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

static bool is_dot_or_dotdot(const char *name, size_t len)
{
	return (len == 1 && name[0] == '.') ||
	       (len == 2 && name[0] == '.' && name[1] == '.');
}

static struct fs_dirent *dir_find(struct inode *dir, const char *name,
				  size_t len)
{
	struct fs_dirent *de;

	list_for_each_entry(de, &dir->i_entries, d_child)
		if (de->d_namelen == len && !memcmp(de->d_name, name, len))
			return de;
	return NULL;
}

/*
 * dir_lookup - the inode dir names name[0..len) (one component, not "."
 * or ".."; the path walk handles those), without taking a reference: the
 * caller iget()s it before dropping the tree lock.  NULL when absent.
 * Context: task.  Locking: the tree lock held.
 */
struct inode *dir_lookup(struct inode *dir, const char *name, size_t len)
{
	struct fs_dirent *de;

	fs_tree_assert_held();
	BUG_ON(!S_ISDIR(dir->i_mode));
	de = dir_find(dir, name, len);
	return de ? de->d_inode : NULL;
}

/*
 * dir_add - the common part of every create: check the name, make an
 * inode of mode, link it under dir.  On success *out holds a reference
 * for the caller (if out) beside the tree's.  0, -ENOTDIR, -ENOENT (dir
 * was removed, or an empty name), -ENAMETOOLONG, -EEXIST, -ENOMEM.
 * Locking: the tree lock held for writing.
 */
static int dir_add(struct inode *dir, const char *name, size_t len,
		   umode_t mode, struct inode **new)
{
	struct fs_dirent *de;
	struct inode *inode;

	fs_tree_assert_write_held();
	if (!S_ISDIR(dir->i_mode))
		return -ENOTDIR;
	if (!dir->i_nlink || !len)	/* rmdir'ed under a cwd */
		return -ENOENT;
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	if (is_dot_or_dotdot(name, len) || dir_find(dir, name, len))
		return -EEXIST;
	de = kmalloc(sizeof(*de) + len + 1, GFP_KERNEL);
	if (!de)
		return -ENOMEM;
	inode = new_inode(mode);
	if (!inode) {
		kfree(de);
		return -ENOMEM;
	}
	memcpy(de->d_name, name, len);
	de->d_name[len] = '\0';
	de->d_namelen = len;
	de->d_inode = inode;	/* the reference new_inode gave */
	list_add_tail(&de->d_child, &dir->i_entries);
	dir->i_size++;
	if (S_ISDIR(mode)) {
		inode->i_parent = iget(dir);	/* ".." pins the parent */
		dir->i_nlink++;
	}
	*new = inode;
	return 0;
}

static int dir_add_out(struct inode *dir, const char *name, size_t len,
		       umode_t mode, struct inode **out)
{
	struct inode *inode;
	int ret = dir_add(dir, name, len, mode, &inode);

	if (!ret && out)
		*out = iget(inode);
	return ret;
}

/*
 * vfs_create - a new empty regular file name in dir (mode: permission
 * bits).  *out (if out) gets a reference.  0 or dir_add's errors; an
 * existing name is -EEXIST (path_openat turns that into an open without
 * O_EXCL).
 * Context: task.  Locking: the tree lock held for writing.
 */
int vfs_create(struct inode *dir, const char *name, size_t len, umode_t mode,
	       struct inode **out)
{
	fs_tree_assert_write_held();
	return dir_add_out(dir, name, len, S_IFREG | (mode & 07777), out);
}

/* vfs_mkdir - a new empty directory; as vfs_create.
 * Context: task.  Locking: the tree lock held for writing. */
int vfs_mkdir(struct inode *dir, const char *name, size_t len, umode_t mode,
	      struct inode **out)
{
	fs_tree_assert_write_held();
	return dir_add_out(dir, name, len, S_IFDIR | (mode & 07777), out);
}

/*
 * vfs_mknod - a new character device (mode S_IFCHR | bits) with rdev, or
 * a regular file for S_IFREG; other types -EINVAL (rtk has no block
 * devices, fifos or sockets in the tree yet).
 * Context: task.  Locking: the tree lock held for writing.
 */
int vfs_mknod(struct inode *dir, const char *name, size_t len, umode_t mode,
	      dev_t rdev, struct inode **out)
{
	struct inode *inode;
	int ret;

	fs_tree_assert_write_held();
	if (!S_ISCHR(mode) && !S_ISREG(mode))
		return -EINVAL;
	ret = dir_add(dir, name, len, mode, &inode);
	if (ret)
		return ret;
	inode->i_rdev = S_ISCHR(mode) ? rdev : 0;
	if (out)
		*out = iget(inode);
	return 0;
}

/*
 * vfs_symlink - a new symlink name in dir whose target is the first
 * tlen bytes of target, copied (0 < tlen < PATH_MAX: else -ENOENT or
 * -ENAMETOOLONG, Linux's errors for an empty or too long target).
 * Context: task.  Locking: the tree lock held for writing.
 */
int vfs_symlink(struct inode *dir, const char *name, size_t len,
		const char *target, size_t tlen, struct inode **out)
{
	struct inode *inode;
	char *copy;
	int ret;

	fs_tree_assert_write_held();
	if (!tlen)
		return -ENOENT;
	if (tlen >= PATH_MAX)
		return -ENAMETOOLONG;
	copy = kmalloc(tlen, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	ret = dir_add(dir, name, len, S_IFLNK | 0777, &inode);
	if (ret) {
		kfree(copy);
		return ret;
	}
	memcpy(copy, target, tlen);
	inode->i_data = copy;
	inode->i_size = tlen;
	inode->i_capacity = tlen;
	if (out)
		*out = iget(inode);
	return 0;
}

/*
 * dir_remove - unlink de from dir and drop the tree's reference (the
 * inode lives on while somebody holds it: an open file, item 2).
 * Locking: the tree lock held for writing.
 */
static void dir_remove(struct inode *dir, struct fs_dirent *de)
{
	struct inode *inode = de->d_inode;

	fs_tree_assert_write_held();
	list_del(&de->d_child);
	dir->i_size--;
	if (S_ISDIR(inode->i_mode)) {
		dir->i_nlink--;
		inode->i_nlink = 0;
		inode->i_parent = inode;
		iput(dir);		/* the ".." reference */
	} else {
		inode->i_nlink--;
	}
	kfree(de);
	iput(inode);
}

/*
 * vfs_unlink - remove the name of a non-directory: 0, -ENOENT, -ENOTDIR
 * (dir is not one), -EISDIR (Linux's unlink(2) answer for a directory),
 * -EPERM for a generated file of /proc or /sys (procfs.h), as Linux's
 * procfs and sysfs refuse it.
 * Context: task.  Locking: the tree lock held for writing.
 */
int vfs_unlink(struct inode *dir, const char *name, size_t len)
{
	struct fs_dirent *de;

	fs_tree_assert_write_held();
	if (!S_ISDIR(dir->i_mode))
		return -ENOTDIR;
	if (is_dot_or_dotdot(name, len))
		return -EISDIR;
	de = dir_find(dir, name, len);
	if (!de)
		return -ENOENT;
	if (S_ISDIR(de->d_inode->i_mode))
		return -EISDIR;
	if (de->d_inode->i_proc)
		return -EPERM;
	dir_remove(dir, de);
	return 0;
}

/*
 * vfs_rmdir - remove an empty directory: 0, -ENOENT, -ENOTDIR, -ENOTEMPTY,
 * -EINVAL for "." and -ENOTEMPTY for ".." (Linux's rmdir(2) answers).
 * Context: task.  Locking: the tree lock held for writing.
 */
int vfs_rmdir(struct inode *dir, const char *name, size_t len)
{
	struct fs_dirent *de;

	fs_tree_assert_write_held();
	if (!S_ISDIR(dir->i_mode))
		return -ENOTDIR;
	if (len == 1 && name[0] == '.')
		return -EINVAL;
	if (is_dot_or_dotdot(name, len))
		return -ENOTEMPTY;
	de = dir_find(dir, name, len);
	if (!de)
		return -ENOENT;
	if (!S_ISDIR(de->d_inode->i_mode))
		return -ENOTDIR;
	if (!list_empty(&de->d_inode->i_entries))
		return -ENOTEMPTY;
	dir_remove(dir, de);
	return 0;
}

/*
 * fs_new_root - an empty directory that is its own parent: the root of a
 * tree (the boot's, fs_struct.c; each host test's own).  NULL without
 * memory.  Context: task.  Locking: the tree lock held for writing.
 */
struct inode *fs_new_root(void)
{
	fs_tree_assert_write_held();
	return new_inode(S_IFDIR | 0755);
}

/*
 * fs_kill_tree - remove every name below root, then drop the caller's
 * reference to root (Linux: kill_litter_super).  Inodes still held
 * elsewhere live on, unlinked.  Recursive: a tree's depth is bounded by
 * PATH_MAX / 2 levels, and only tests tear a tree down.
 * Context: task.  Locking: the tree lock held for writing.
 */
void fs_kill_tree(struct inode *root)
{
	fs_tree_assert_write_held();
	while (!list_empty(&root->i_entries)) {
		struct fs_dirent *de = list_first_entry(&root->i_entries,
							struct fs_dirent,
							d_child);

		if (S_ISDIR(de->d_inode->i_mode))
			fs_kill_tree(iget(de->d_inode));
		dir_remove(root, de);
	}
	iput(root);
}
