/*
 * kernel/fs/stat_abi.c - the records the file system hands to user
 * space, packed exactly as x86_64 Linux packs them: struct stat
 * (newfstatat, fstat) and struct linux_dirent64 (getdents64), both in
 * kernel/user/uapi.h.  Pure code: tests/host/test_stat_abi.c checks the
 * layout and the packing on the host.
 * Linux counterpart: fs/stat.c (cp_new_stat), include/linux/kdev_t.h
 * (new_encode_dev), fs/readdir.c (filldir64), include/linux/fs.h
 * (fs_umode_to_dtype).  Left out: times (rtk keeps none: 0), uid/gid (0,
 * everything is root's), st_dev per file system (one: ROOTFS_DEV).
 */
#include "kernel/fs/stat_abi.h"
#include "lib/compiler.h"
#include "lib/string.h"

/* new_encode_dev - the user-visible dev_t: minor's low byte, major, then
 * minor's upper bits, as Linux's. */
u64 new_encode_dev(dev_t dev)
{
	u64 major = MAJOR(dev), minor = MINOR(dev);

	return (minor & 0xff) | (major << 8) | ((minor & ~0xffULL) << 12);
}

/*
 * cp_new_stat - fill st from inode: type and mode, inode number, link
 * count, size (files and symlinks; 0 for directories and devices, as
 * ramfs), rdev, 4096-byte blocks counted in 512-byte units.
 * Locking: the tree lock held (i_size, i_nlink), or a snapshot will do.
 */
void cp_new_stat(const struct inode *inode, struct stat *st)
{
	bool has_bytes = S_ISREG(inode->i_mode) || S_ISLNK(inode->i_mode);
	u64 size = has_bytes ? inode->i_size : 0;

	memset(st, 0, sizeof(*st));
	st->st_dev = ROOTFS_DEV;
	st->st_ino = inode->i_ino;
	st->st_nlink = inode->i_nlink;
	st->st_mode = inode->i_mode;
	st->st_rdev = S_ISCHR(inode->i_mode) ? new_encode_dev(inode->i_rdev) : 0;
	st->st_size = (s64)size;
	st->st_blksize = STAT_BLKSIZE;
	st->st_blocks = (s64)(ALIGN_UP(size, STAT_BLKSIZE) / 512);
}

/* fs_umode_to_dtype - the DT_* of a mode: its S_IFMT bits shifted. */
unsigned int fs_umode_to_dtype(umode_t mode)
{
	return (mode & S_IFMT) >> 12;
}

/*
 * dirent64_emit - pack one linux_dirent64 (name len bytes, NUL added,
 * the record padded to 8) at buf with room bytes: its d_reclen, or 0
 * when it does not fit.  off is the position after this entry.
 */
size_t dirent64_emit(void *buf, size_t room, u64 ino, s64 off, umode_t mode,
		     const char *name, size_t len)
{
	size_t reclen = ALIGN_UP(offsetof(struct linux_dirent64, d_name) +
				 len + 1, 8);
	struct linux_dirent64 *d = buf;

	if (reclen > room)
		return 0;
	memset(d, 0, reclen);
	d->d_ino = ino;
	d->d_off = off;
	d->d_reclen = (u16)reclen;
	d->d_type = (u8)fs_umode_to_dtype(mode);
	memcpy(d->d_name, name, len);
	return reclen;
}
