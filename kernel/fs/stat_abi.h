/*
 * kernel/fs/stat_abi.h - struct stat and struct linux_dirent64 from
 * inodes (kernel/fs/stat_abi.c).
 */
#ifndef KERNEL_FS_STAT_ABI_H
#define KERNEL_FS_STAT_ABI_H

#include "kernel/fs/inode.h"
#include "kernel/user/uapi.h"

#define ROOTFS_DEV 1		/* st_dev of every inode: one file system */
#define STAT_BLKSIZE 4096	/* st_blksize: a page */

u64 new_encode_dev(dev_t dev);
void cp_new_stat(const struct inode *inode, struct stat *st);
unsigned int fs_umode_to_dtype(umode_t mode);
size_t dirent64_emit(void *buf, size_t room, u64 ino, s64 off, umode_t mode,
		     const char *name, size_t len);

#endif /* KERNEL_FS_STAT_ABI_H */
