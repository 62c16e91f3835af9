/*
 * kernel/fs/unpack.c - unpack a cpio "newc" archive (the initramfs) into
 * the tree: directories, regular files, symlinks and character devices.
 *
 * A regular file's inode points at its bytes inside the archive, which
 * stays mapped for the kernel's life (the boot module is reserved memory):
 * unpacking copies no file data; the first write does (inode.c).
 *
 *   [1] Refuse what is not a newc archive, with a message that says what
 *       it is: gzip (1f 8b, Linux's default for initramfs images), other
 *       magic.  rtk has no inflate: write the archive uncompressed, which
 *       Linux accepts too.
 *   [2] For each member, create the directories its name passes through
 *       that the archive did not list first (Linux requires them; rtk's
 *       own tools/mkcpio.py lists none), refusing a ".." component.
 *   [3] Make the last component by type.  A name that exists already is
 *       replaced unless both are directories, as Linux's maybe_unlink.
 *   [4] A malformed or truncated header stops the unpack with a message
 *       and the offset: what came before stays.  A member that cannot be
 *       made (name too long, unknown type) is reported and skipped.
 * Pure (no task, no boot module): host-tested by tests/host/test_namei.c.
 * Linux counterpart: init/initramfs.c unpack_to_rootfs (do_name,
 * do_copy, do_symlink, maybe_unlink); left out: hard links (a member with
 * nlink > 1 is just another file), mtimes, uid/gid, compressed archives.
 */
#include "kernel/fs/unpack.h"
#include "kernel/fs/cpio.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

/* unpack_parent - step [2]: the directory holding the last component of
 * name (*last, *len), made as needed.  Locking: tree lock, write. */
static int unpack_parent(struct inode *root, const char *name,
			 struct inode **dir, const char **last, size_t *len)
{
	struct inode *cur = root, *next;
	const char *slash;
	int ret;

	while ((slash = strchr(name, '/'))) {
		size_t n = slash - name;

		if (n == 2 && name[0] == '.' && name[1] == '.')
			return -EINVAL;
		if (n && !(n == 1 && name[0] == '.')) {
			next = dir_lookup(cur, name, n);
			if (!next) {
				ret = vfs_mkdir(cur, name, n, 0755, NULL);
				if (ret)
					return ret;
				next = dir_lookup(cur, name, n);
			}
			if (!S_ISDIR(next->i_mode))
				return -ENOTDIR;
			cur = next;
		}
		name = slash + 1;
	}
	if (!strcmp(name, ".."))
		return -EINVAL;
	*dir = cur;
	*last = name;
	*len = strlen(name);
	return 0;
}

/* unpack_member - steps [2] and [3] for one member.  0 or an errno
 * (-EINVAL: a type rtk does not keep).  Locking: tree lock, write. */
static int unpack_member(struct inode *root, const struct cpio_member *m)
{
	umode_t perm = m->mode & 07777;
	struct inode *dir, *old, *inode;
	const char *name;
	size_t len;
	int ret;

	ret = unpack_parent(root, cpio_strip_root(m->name), &dir, &name, &len);
	if (ret)
		return ret;
	if (!len || (len == 1 && name[0] == '.'))	/* the root itself */
		return S_ISDIR(m->mode) ? 0 : -EINVAL;
	old = dir_lookup(dir, name, len);				/* [3] */
	if (old && S_ISDIR(old->i_mode) && S_ISDIR(m->mode))
		return 0;
	if (old) {
		ret = S_ISDIR(old->i_mode) ? vfs_rmdir(dir, name, len) :
					     vfs_unlink(dir, name, len);
		if (ret)
			return ret;
	}
	switch (m->mode & S_IFMT) {
	case S_IFDIR:
		return vfs_mkdir(dir, name, len, perm, NULL);
	case S_IFREG:
		ret = vfs_create(dir, name, len, perm, &inode);
		if (ret)
			return ret;
		inode_set_module_data(inode, m->data, m->size);
		iput(inode);
		return 0;
	case S_IFLNK:
		return vfs_symlink(dir, name, len, m->data, m->size, NULL);
	case S_IFCHR:
		return vfs_mknod(dir, name, len, S_IFCHR | perm,
				 MKDEV(m->rdev_major, m->rdev_minor), NULL);
	default:
		return -EINVAL;
	}
}

/*
 * unpack_to_rootfs - unpack the archive buf[0..len) under root; what names
 * it in the messages ("initramfs").  The number of members made, or
 * -EINVAL (not a newc archive, or a malformed header: logged), -ENOMEM.
 * Context: task, may sleep.  Locking: takes and drops the tree lock
 * (write) around the whole archive.
 */
int unpack_to_rootfs(struct inode *root, const void *buf, size_t len,
		     const char *what)
{
	const unsigned char *b = buf;
	struct cpio_member m;
	size_t pos = 0, at;
	int ret = 0, made = 0;

	if (len >= 2 && b[0] == 0x1f && b[1] == 0x8b) {			/* [1] */
		pr_err("%s: a gzip-compressed archive (magic 1f 8b): rtk unpacks only an uncompressed cpio \"newc\"; write it uncompressed\n",
		       what);
		return -EINVAL;
	}
	if (len < 6 || memcmp(buf, CPIO_MAGIC, 6)) {
		pr_err("%s: not a cpio \"newc\" archive (no magic \"070701\" at offset 0): ignored\n",
		       what);
		return -EINVAL;
	}
	fs_tree_write_lock();
	for (;;) {
		at = pos;
		if (pos >= len)		/* no trailer: Linux accepts that too */
			break;
		ret = cpio_next(buf, len, &pos, &m);
		if (ret == 0)
			break;
		if (ret < 0) {						/* [4] */
			pr_err("%s: malformed cpio header at offset %zu: unpacking stopped after %d members\n",
			       what, at, made);
			break;
		}
		ret = unpack_member(root, &m);
		if (ret == -ENOMEM)
			break;
		if (ret)
			pr_warn("%s: member \"%.64s\" (mode %o) skipped: error %d\n",
				what, m.name, m.mode, ret);
		else
			made++;
		ret = 0;
	}
	fs_tree_write_unlock();
	return ret < 0 ? ret : made;
}
