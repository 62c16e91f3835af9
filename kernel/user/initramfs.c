/*
 * kernel/user/initramfs.c - the user programs the boot loader brought,
 * found by path in the root file system (kernel/fs/), and listed from
 * the boot modules themselves.
 *
 * fs_init unpacked every boot module into the tree; a program is a
 * regular file there.  Its bytes stay in the boot module until a write
 * copies them (kernel/fs/inode.c), so what initramfs_find returns is the
 * module's own copy for every program nobody wrote to.  The listing
 * walks the archives with the cpio parser (kernel/fs/cpio.c) to show what
 * was brought, whatever happened to the tree since.
 * Linux counterpart: none (Linux's loader opens the file: fs/exec.c).
 */
#include "kernel/user/initramfs.h"
#include "kernel/fs/cpio.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/tree_lock.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"

int initramfs_for_each(void (*fn)(const char *name, size_t size, void *arg),
		       void *arg)
{
	int n = 0, found = 0;

	for (int i = 0; i < boot_info.nr_modules; i++) {
		const char *base = phys_to_virt(boot_info.modules[i].start);
		size_t len = boot_info.modules[i].end - boot_info.modules[i].start;
		struct cpio_member m;
		size_t pos = 0;

		found++;
		while (cpio_next(base, len, &pos, &m) == 1) {
			if (!S_ISREG(m.mode))
				continue;
			if (fn)
				fn(cpio_strip_root(m.name), m.size, arg);
			n++;
		}
	}
	return found ? n : -ENOENT;
}

int initramfs_find(const char *name, const void **data, size_t *size)
{
	struct inode *root, *inode;
	int ret = -ENOENT;

	root = get_fs_root(&init_fs);
	if (!root)
		return -ENOENT;
	fs_tree_read_lock();
	if (vfs_path_lookup(root, root, name, LOOKUP_FOLLOW, &inode))
		goto out_unlock;
	if (S_ISREG(inode->i_mode) && inode->i_size) {
		*data = inode->i_data;
		*size = inode->i_size;
		ret = 0;
	}
	iput(inode);
out_unlock:
	fs_tree_read_unlock();
	iput(root);
	return ret;
}
