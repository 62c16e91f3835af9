/*
 * kernel/user/initramfs.h - the programs the boot loader brought: a
 * Linux initramfs image (cpio "newc") loaded as a boot module (QEMU
 * -initrd, GRUB module2), unpacked at boot into the root file system
 * (kernel/fs/fs.h).
 */
#ifndef KERNEL_USER_INITRAMFS_H
#define KERNEL_USER_INITRAMFS_H

#include "lib/types.h"

/* initramfs_find - the bytes of the regular file at path name in the root
 * file system, walked from "/" ("hello", "./hello" and "/hello" are the
 * same; symlinks followed): 0, or -ENOENT (no such non-empty file, or no
 * root yet).  The bytes stay valid while the file is neither written,
 * truncated nor unlinked (tests only: the loader, elf_loader.c, reads
 * a program through its inode instead).
 * Context: task, may sleep (the tree lock). */
int initramfs_find(const char *name, const void **data, size_t *size);

/* initramfs_for_each - call fn for every regular file (name, size) of the
 * boot modules' archives; returns how many there were, -ENOENT when there
 * is no image.  Context: any; never sleeps. */
int initramfs_for_each(void (*fn)(const char *name, size_t size, void *arg),
		       void *arg);

#endif /* KERNEL_USER_INITRAMFS_H */
