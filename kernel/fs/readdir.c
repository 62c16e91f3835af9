/*
 * kernel/fs/readdir.c - getdents64(2): a directory's entries as struct
 * linux_dirent64 records (kernel/fs/stat_abi.c).
 *
 * The position counts entries, as Linux's dcache_readdir: 0 is ".", 1 is
 * "..", n >= 2 the (n-2)th name in creation order.  One call fills at
 * most a page (returning fewer records than fit is allowed; callers read
 * until 0), under the tree lock, into a kernel buffer copied out after.
 * A name removed between two calls shifts the later ones down by one, so
 * one entry may be skipped (Linux's cursor dentry avoids that; rtk has
 * no dentries).  A buffer too small for the next record is -EINVAL, a
 * removed directory -ENOENT, a file that is no directory -ENOTDIR.
 * Linux counterpart: fs/readdir.c (getdents64, filldir64, iterate_dir),
 * fs/libfs.c (dcache_readdir).
 */
#include "kernel/fs/fdtable.h"
#include "kernel/fs/stat_abi.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

/*
 * dir_fill - pack dir's entries from *pos into buf (room bytes): the
 * bytes used (0: the end, or -EINVAL when the next one does not fit,
 * -ENOENT for a removed directory); *pos advances past each one packed.
 * Locking: the tree lock held.
 */
static long dir_fill(struct inode *dir, char *buf, size_t room, loff_t *pos)
{
	const struct fs_dirent *de;
	size_t used = 0, n;
	loff_t i = 2;

	fs_tree_assert_held();
	if (!dir->i_nlink)
		return -ENOENT;
	if (*pos == 0) {
		n = dirent64_emit(buf, room, dir->i_ino, 1, S_IFDIR, ".", 1);
		if (!n)
			return -EINVAL;
		used += n;
		*pos = 1;
	}
	if (*pos == 1) {
		n = dirent64_emit(buf + used, room - used, dir->i_parent->i_ino,
				  2, S_IFDIR, "..", 2);
		if (!n)
			return used ? (long)used : -EINVAL;
		used += n;
		*pos = 2;
	}
	list_for_each_entry(de, &dir->i_entries, d_child) {
		if (i++ < *pos)
			continue;
		n = dirent64_emit(buf + used, room - used, de->d_inode->i_ino,
				  *pos + 1, de->d_inode->i_mode, de->d_name,
				  de->d_namelen);
		if (!n)
			return used ? (long)used : -EINVAL;
		used += n;
		*pos += 1;
	}
	return (long)used;
}

long sys_getdents64(unsigned int fd, void __user *dirent, unsigned int count)
{
	struct file *file = fget(fd);
	size_t room = count < PAGE_SIZE ? count : PAGE_SIZE;
	loff_t pos;
	char *buf;
	long ret;

	might_sleep();
	if (!file)
		return -EBADF;
	ret = -ENOTDIR;
	if (!S_ISDIR(file->f_inode->i_mode))
		goto out_put;
	ret = -EFAULT;
	if (!access_ok(dirent, count))
		goto out_put;
	ret = -ENOMEM;
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		goto out_put;
	rt_mutex_lock(&file->f_pos_lock);
	pos = file->f_pos;
	fs_tree_read_lock();
	ret = dir_fill(file->f_inode, buf, room, &pos);
	fs_tree_read_unlock();
	if (ret > 0 && copy_to_user(dirent, buf, (size_t)ret))
		ret = -EFAULT;
	else if (ret >= 0)
		file->f_pos = pos;
	rt_mutex_unlock(&file->f_pos_lock);
	kfree(buf);
out_put:
	fput(file);
	return ret;
}
