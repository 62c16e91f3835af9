/*
 * kernel/user/initramfs.h - the programs the boot loader brought: a
 * Linux initramfs image (cpio "newc") loaded as a boot module (QEMU
 * -initrd, GRUB module2), read in place through the direct map.
 */
#ifndef KERNEL_USER_INITRAMFS_H
#define KERNEL_USER_INITRAMFS_H

#include "lib/types.h"

/* initramfs_find - the bytes of file name ("hello", "./hello" and
 * "/hello" are the same) in the first boot module holding it: 0, or
 * -ENOENT (no such file, or no initramfs).  Context: any; never sleeps. */
int initramfs_find(const char *name, const void **data, size_t *size);

/* initramfs_for_each - call fn for every regular file (name, size);
 * returns how many there were, -ENOENT when there is no image. */
int initramfs_for_each(void (*fn)(const char *name, size_t size, void *arg),
		       void *arg);

#endif /* KERNEL_USER_INITRAMFS_H */
