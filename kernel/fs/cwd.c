/*
 * kernel/fs/cwd.c - chdir(2) and getcwd(2): setting the working
 * directory, and naming it again by walking up to the root.
 *
 * getcwd builds the name from the end: each directory's name is the
 * entry in its parent (i_parent) that points at it -- rtk has no dentry
 * to ask, so the parent's list is searched, under the tree lock so no
 * rename or rmdir moves the chain meanwhile.  A cwd that was removed is
 * -ENOENT (Linux's answer), a buffer too small -ERANGE.  The result
 * counts its NUL, as Linux's syscall does (glibc turns it into a
 * pointer).
 * Linux counterpart: fs/open.c (ksys_chdir), fs/d_path.c (getcwd,
 * prepend_path).
 */
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/fs/user_path.h"
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

long sys_chdir(const char __user *filename)
{
	char *path;
	int ret;

	might_sleep();
	path = getname(filename, &ret);
	if (!path)
		return ret;
	ret = fs_chdir(path);
	putname(path);
	return ret;
}

/* dir_name_in_parent - the entry of dir->i_parent naming dir, or NULL.
 * Locking: the tree lock held. */
static const struct fs_dirent *dir_name_in_parent(struct inode *dir)
{
	const struct fs_dirent *de;

	fs_tree_assert_held();
	list_for_each_entry(de, &dir->i_parent->i_entries, d_child)
		if (de->d_inode == dir)
			return de;
	return NULL;
}

/* prepend_path - see fs_struct.h (getcwd's, and execve's for a relative
 * program path: /proc/self/exe). */
char *prepend_path(struct inode *root, struct inode *dir, char *buf,
			  int *err)
{
	char *p = buf + PATH_MAX - 1;
	const struct fs_dirent *de;

	*p = '\0';
	*err = 0;
	fs_tree_read_lock();
	if (!dir->i_nlink)
		*err = -ENOENT;
	while (!*err && dir != root) {
		de = dir->i_parent != dir ? dir_name_in_parent(dir) : NULL;
		if (!de) {
			*err = -ENOENT;
			break;
		}
		if ((size_t)(p - buf) < de->d_namelen + 1) {
			*err = -ENAMETOOLONG;
			break;
		}
		p -= de->d_namelen;
		memcpy(p, de->d_name, de->d_namelen);
		*--p = '/';
		dir = dir->i_parent;
	}
	fs_tree_read_unlock();
	if (*err)
		return NULL;
	if (!*p)
		*--p = '/';		/* the root itself */
	return p;
}

long sys_getcwd(char __user *ubuf, unsigned long size)
{
	struct fs_struct *fs = task_fs(current);
	struct inode *root, *pwd;
	char *buf, *p;
	size_t len;
	int err = -ENOMEM;

	might_sleep();
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return err;
	root = get_fs_root(fs);
	pwd = get_fs_pwd(fs);
	err = -ENOENT;
	if (!root || !pwd)
		goto out;
	p = prepend_path(root, pwd, buf, &err);
	if (!p)
		goto out;
	len = (size_t)(buf + PATH_MAX - p);	/* with the NUL */
	err = -ERANGE;
	if (len > size)
		goto out;
	err = copy_to_user(ubuf, p, len) ? -EFAULT : (int)len;
out:
	if (pwd)
		iput(pwd);
	if (root)
		iput(root);
	kfree(buf);
	return err;
}
