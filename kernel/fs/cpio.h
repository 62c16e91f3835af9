/*
 * kernel/fs/cpio.h - the cpio "newc" format the initramfs comes in, read
 * in place: one member at a time, never past the end of the buffer.
 * Users: kernel/fs/unpack.c (the archive into the tree) and
 * kernel/user/initramfs.c (the `programs` listing).
 * Spec: Linux's Documentation/driver-api/early-userspace/
 * buffer-format.rst ("newc"); tools/mkcpio.py writes it.
 */
#ifndef KERNEL_FS_CPIO_H
#define KERNEL_FS_CPIO_H

#include "lib/types.h"

#define CPIO_HDR_LEN 110
#define CPIO_MAGIC "070701"

struct cpio_member {
	const char *name;	/* NUL-terminated, inside the archive */
	const void *data;	/* size bytes, inside the archive */
	size_t size;
	u32 mode;		/* S_IFxxx | permission bits */
	u32 rdev_major, rdev_minor;	/* character devices */
};

int cpio_next(const char *base, size_t len, size_t *pos,
	      struct cpio_member *m);
const char *cpio_strip_root(const char *name);

#endif /* KERNEL_FS_CPIO_H */
