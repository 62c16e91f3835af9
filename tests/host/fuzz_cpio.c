/*
 * tests/host/fuzz_cpio.c - libFuzzer target for the initramfs unpack
 * (kernel/fs/cpio.c, kernel/fs/unpack.c) and the path walk over what it
 * made (kernel/fs/namei.c), built by `make fuzz` with clang
 * -fsanitize=fuzzer,address,undefined.
 *
 * Input: the archive bytes, copied into a buffer of exactly their size so
 * ASan reports any read past the end.  Each input is unpacked into a tree
 * of its own; every member name it holds is then looked up (following
 * and not following links, which must end in 0 or one of the walk's
 * errnos), and the tree is torn down (LeakSanitizer catches a lost
 * reference).  A malformed archive must be refused, never crash.
 * Seeds: tests/host/fuzz_cpio_corpus/ (a small archive of every type).
 */
#include "kernel/fs/cpio.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/fs/unpack.h"
#include "kernel/mm/slab.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

extern bool fake_printk_quiet;

static bool walk_errno(int err)
{
	return err == 0 || err == -ENOENT || err == -ENOTDIR ||
	       err == -ELOOP || err == -ENAMETOOLONG;
}

static void walk_members(struct inode *root, const char *buf, size_t len)
{
	struct cpio_member m;
	struct inode *inode;
	size_t pos = 0;
	int err;

	while (cpio_next(buf, len, &pos, &m) == 1) {
		for (unsigned int flags = 0; flags <= LOOKUP_FOLLOW; flags++) {
			err = filename_lookup(root, root, m.name, flags, &inode);
			BUG_ON(!walk_errno(err));
			if (!err)
				iput(inode);
		}
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);
int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	char *buf = kmalloc(size, GFP_KERNEL);
	struct inode *root;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	fake_printk_quiet = true;
	fs_tree_write_lock();
	root = fs_new_root();
	fs_tree_write_unlock();
	unpack_to_rootfs(root, buf, size, "fuzz");
	walk_members(root, buf, size);
	fs_tree_write_lock();
	fs_kill_tree(root);
	fs_tree_write_unlock();
	kfree(buf);
	return 0;
}
