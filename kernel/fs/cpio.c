/*
 * kernel/fs/cpio.c - parse a cpio "newc" archive in place.
 *
 * Each member: a 110-byte ASCII header ("070701", then 13 eight-digit
 * hex fields: ino mode uid gid nlink mtime filesize devmajor devminor
 * rdevmajor rdevminor namesize check), the NUL-terminated name, padding
 * to 4 bytes (counted from the header's start), the data, padding to 4.
 * The member named "TRAILER!!!" ends the archive.
 * Pure (lib/ only): host-tested by tests/host/test_namei.c.
 * Spec: Linux's Documentation/driver-api/early-userspace/
 * buffer-format.rst.  Linux counterpart: init/initramfs.c parse_header
 * and the do_header/do_name/do_copy states; Linux parses a stream in
 * chunks, rtk has the whole archive mapped.
 */
#include "kernel/fs/cpio.h"
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Field offsets in the header: 6 bytes of magic, then 8 per field. */
#define CPIO_FIELD(n) (6 + 8 * (n))
#define CPIO_MODE CPIO_FIELD(1)
#define CPIO_FILESIZE CPIO_FIELD(6)
#define CPIO_RDEVMAJOR CPIO_FIELD(9)
#define CPIO_RDEVMINOR CPIO_FIELD(10)
#define CPIO_NAMESIZE CPIO_FIELD(11)

/* hex8 - one header field; false if it is not 8 hex digits. */
static bool hex8(const char *s, u32 *val)
{
	u32 v = 0;

	for (int i = 0; i < 8; i++) {
		char c = s[i];
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		v = v << 4 | (u32)d;
	}
	*val = v;
	return true;
}

/*
 * cpio_next - parse the member at *pos in [base, base + len): fill m and
 * advance *pos.  Returns 1 for a member, 0 at the trailer, -EINVAL for a
 * malformed or truncated archive (never reads past len; *pos is left at
 * the bad header, for the message).
 * Context: any; never sleeps.
 */
int cpio_next(const char *base, size_t len, size_t *pos,
	      struct cpio_member *m)
{
	size_t off = *pos, name_off, data_off;
	u32 namesize, filesize;
	const char *h;

	if (len < CPIO_HDR_LEN || off > len - CPIO_HDR_LEN)
		return -EINVAL;
	h = base + off;
	if (memcmp(h, CPIO_MAGIC, 6) || !hex8(h + CPIO_MODE, &m->mode) ||
	    !hex8(h + CPIO_FILESIZE, &filesize) ||
	    !hex8(h + CPIO_RDEVMAJOR, &m->rdev_major) ||
	    !hex8(h + CPIO_RDEVMINOR, &m->rdev_minor) ||
	    !hex8(h + CPIO_NAMESIZE, &namesize) || namesize == 0)
		return -EINVAL;
	name_off = off + CPIO_HDR_LEN;
	if (namesize > len - name_off || base[name_off + namesize - 1] != '\0')
		return -EINVAL;
	data_off = ALIGN_UP(name_off + namesize, 4);
	if (data_off > len || filesize > len - data_off)
		return -EINVAL;
	m->name = base + name_off;
	m->data = base + data_off;
	m->size = filesize;
	*pos = ALIGN_UP(data_off + filesize, 4);
	return strcmp(m->name, "TRAILER!!!") ? 1 : 0;
}

/* cpio_strip_root - a member's name without leading "/" and "./" (cpio
 * archives spell the root either way). */
const char *cpio_strip_root(const char *name)
{
	while (name[0] == '/' || (name[0] == '.' && name[1] == '/'))
		name += name[0] == '/' ? 1 : 2;
	return name;
}
