/*
 * kernel/fs/unpack.h - a cpio "newc" archive unpacked into the tree
 * (see kernel/fs/unpack.c).
 */
#ifndef KERNEL_FS_UNPACK_H
#define KERNEL_FS_UNPACK_H

#include "kernel/fs/inode.h"

int unpack_to_rootfs(struct inode *root, const void *buf, size_t len,
		     const char *what);

#endif /* KERNEL_FS_UNPACK_H */
