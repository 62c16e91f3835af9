/*
 * kernel/user/initramfs.c - a cpio "newc" archive read in place.
 *
 * Each member: a 110-byte ASCII header ("070701", then 13 eight-digit
 * hex fields: ino mode uid gid nlink mtime filesize devmajor devminor
 * rdevmajor rdevminor namesize check), the NUL-terminated name, padding
 * to 4 bytes (counted from the header's start), the data, padding to 4.
 * The member named "TRAILER!!!" ends the archive.  Every boot module is
 * tried as one: rtk's only module is the initramfs.
 * Spec: the kernel's Documentation/driver-api/early-userspace/
 * buffer-format.rst ("newc").  Linux counterpart: init/initramfs.c
 * (which unpacks into a ramfs; rtk has no file system and only reads).
 */
#include "kernel/user/initramfs.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"

#define CPIO_HDR_LEN	110
#define CPIO_MAGIC	"070701"
#define S_IFMT		0170000
#define S_IFREG		0100000

struct cpio_member {
	const char *name;
	const void *data;
	size_t size;
	u32 mode;
};

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
 * malformed or truncated archive (never reads past len).
 */
static int cpio_next(const char *base, size_t len, size_t *pos,
		     struct cpio_member *m)
{
	size_t off = *pos, name_off, data_off;
	u32 namesize, filesize;

	if (len < CPIO_HDR_LEN || off > len - CPIO_HDR_LEN)
		return -EINVAL;
	if (memcmp(base + off, CPIO_MAGIC, 6) ||
	    !hex8(base + off + 14, &m->mode) ||
	    !hex8(base + off + 54, &filesize) ||
	    !hex8(base + off + 94, &namesize) || namesize == 0)
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

static const char *strip_root(const char *name)
{
	while (name[0] == '/' || (name[0] == '.' && name[1] == '/'))
		name += name[0] == '/' ? 1 : 2;
	return name;
}

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
			if ((m.mode & S_IFMT) != S_IFREG)
				continue;
			if (fn)
				fn(strip_root(m.name), m.size, arg);
			n++;
		}
	}
	return found ? n : -ENOENT;
}

int initramfs_find(const char *name, const void **data, size_t *size)
{
	name = strip_root(name);
	for (int i = 0; i < boot_info.nr_modules; i++) {
		const char *base = phys_to_virt(boot_info.modules[i].start);
		size_t len = boot_info.modules[i].end - boot_info.modules[i].start;
		struct cpio_member m;
		size_t pos = 0;

		while (cpio_next(base, len, &pos, &m) == 1) {
			if ((m.mode & S_IFMT) == S_IFREG &&
			    !strcmp(strip_root(m.name), name)) {
				*data = m.data;
				*size = m.size;
				return 0;
			}
		}
	}
	return -ENOENT;
}
