/*
 * kernel/fs/inode.h - the in-memory inode of rtk's one file system (the
 * tree unpacked from the initramfs, see kernel/fs/fs.h) and the
 * directory entry that names it.
 *
 * An inode is a directory (a list of named entries and its parent), a
 * regular file or a symlink (bytes: still in the boot module until the
 * first write, then in kmalloc'd memory), or a character device (rdev).
 * Linux counterpart: include/linux/fs.h struct inode, include/linux/
 * dcache.h struct dentry (rtk has no dentry cache: a directory's entries
 * are the only names, as in ramfs, whose dentries are pinned).  Left out:
 * uid/gid, times, hard links (a name per inode); the page cache is
 * only mmap's (kernel/mm/filemap.h): read and write use i_data.
 */
#ifndef KERNEL_FS_INODE_H
#define KERNEL_FS_INODE_H

#include "lib/list.h"
#include "lib/types.h"
#include "kernel/user/uapi.h"

struct proc_entry;

typedef unsigned int umode_t;
typedef u32 dev_t;

/* File types and permission bits (S_IF*, S_IS*): kernel/user/uapi.h. */

/* dev_t as Linux's kernel-internal one: 12 bits major, 20 bits minor. */
#define MINORBITS 20
#define MKDEV(ma, mi) (((dev_t)(ma) << MINORBITS) | (dev_t)(mi))
#define MAJOR(dev) ((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev) ((unsigned int)((dev) & ((1U << MINORBITS) - 1)))

#define NAME_MAX 255		/* bytes in one path component */
#define PATH_MAX 4096		/* bytes in a path, with its NUL */
/* A file grows at most to this (-EFBIG): kmalloc hands out physically
 * contiguous pages, and 64 MiB is already USER_MAX_PAGES' whole budget. */
#define FS_MAX_FILE_SIZE (64UL << 20)

struct page_cache;

struct inode {
	/* fixed at creation */
	unsigned long i_ino;		/* unique in the tree, from 1 */
	umode_t i_mode;			/* S_IFxxx | permission bits */
	dev_t i_rdev;			/* character devices: major:minor */

	/* atomic (__atomic builtins), see iget/iput in inode.c */
	int i_count;			/* references: 1 for the name in the
					 * tree while linked, 1 per holder */

	/* under the tree lock (kernel/fs/tree_lock.h) */
	unsigned int i_nlink;		/* names: 1 (files), 2 + subdirs (dirs),
					 * 0 once unlinked */
	size_t i_size;			/* bytes (files, symlinks); entries
					 * (directories) */
	const char *i_data;		/* files, symlinks: the bytes; NULL when
					 * i_size is 0 */
	size_t i_capacity;		/* bytes kmalloc'd at i_data, zero past
					 * i_size; 0: i_data
					 * points into the boot module (or
					 * nowhere) and is never written */
	struct page_cache *i_pages;	/* regular files: the pages mmap uses,
					 * NULL until the first mmap
					 * (kernel/mm/filemap.h) */
	struct inode *i_parent;		/* directories: "..", itself at a root */
	const struct proc_entry *i_proc;	/* generated files and links
						 * (procfs.h): set at boot */
	struct list_head i_entries;	/* directories: struct fs_dirent.d_child */
};

/* One name in a directory.  Under the tree lock. */
struct fs_dirent {
	struct list_head d_child;	/* in the parent's i_entries, in
					 * creation order (getdents' order) */
	struct inode *d_inode;		/* what the name names (holds the
					 * tree's reference) */
	unsigned int d_namelen;		/* 1..NAME_MAX */
	char d_name[];			/* d_namelen bytes and a NUL */
};

struct inode *new_inode(umode_t mode);
struct inode *iget(struct inode *inode);
void iput(struct inode *inode);
bool inode_data_in_module(const struct inode *inode);
long __inode_read(struct inode *inode, void *buf, size_t len, size_t off);
long __inode_write(struct inode *inode, const void *buf, size_t len,
		   size_t off);
int __inode_truncate(struct inode *inode, size_t size);
int __inode_move_data(struct inode *inode, size_t cap);
long inode_read(struct inode *inode, void *buf, size_t len, size_t off);
long inode_write(struct inode *inode, const void *buf, size_t len, size_t off);
int inode_truncate(struct inode *inode, size_t size);
void inode_set_module_data(struct inode *inode, const void *data, size_t size);

#endif /* KERNEL_FS_INODE_H */
