/*
 * kernel/fs/inode.c - inodes: allocation, references, and the bytes of a
 * regular file (read, write, truncate) with copy on first write.
 *
 * A file unpacked from the initramfs keeps pointing into the boot module
 * (i_capacity == 0): reading it costs no memory, and the module's bytes
 * are never written.  The first write, or a truncate that grows it,
 * copies the file into kmalloc'd memory (i_capacity > 0), which from then
 * on grows by doubling.  A truncate that shrinks a module-backed file only
 * shortens the view.
 * Lifetime: the name in the tree holds one reference while i_nlink > 0
 * (dropped by vfs_unlink/vfs_rmdir in dir.c); every holder of a looked-up
 * inode holds one more (iget, iput).  The last iput frees it: by then no
 * name leads to it, so nobody can iget it again.
 * Linux counterpart: fs/inode.c (new_inode, iget/iput), mm/filemap.c and
 * fs/libfs.c simple_write_begin for ramfs; mmap's page cache is
 * kernel/mm/filemap.c (freed here with the inode).
 */
#include "kernel/fs/inode.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/slab.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

static unsigned long last_ino;	/* under the tree lock, for writing */

/*
 * new_inode - a fresh inode of mode with one reference (the caller's,
 * which becomes the tree's when it is linked), or NULL without memory.
 * Context: task.  Locking: the tree lock held for writing (last_ino).
 */
struct inode *new_inode(umode_t mode)
{
	struct inode *inode;

	fs_tree_assert_write_held();
	inode = kzalloc(sizeof(*inode), GFP_KERNEL);
	if (!inode)
		return NULL;
	inode->i_ino = ++last_ino;
	inode->i_mode = mode;
	inode->i_count = 1;
	inode->i_nlink = S_ISDIR(mode) ? 2 : 1;
	inode->i_parent = inode;
	INIT_LIST_HEAD(&inode->i_entries);
	return inode;
}

/* iget - take a reference.  Context: any.  Locking: the caller holds one
 * already, or the tree lock while the inode is linked. */
struct inode *iget(struct inode *inode)
{
	BUG_ON(__atomic_fetch_add(&inode->i_count, 1, __ATOMIC_RELAXED) <= 0);
	return inode;
}

/*
 * iput - drop a reference; the last one frees the inode and its data.
 * A directory must be empty by then (rmdir checks it; a root is never
 * freed while the kernel runs).
 * Context: task.  Locking: none needed (see the lifetime rule above).
 */
void iput(struct inode *inode)
{
	int left = __atomic_sub_fetch(&inode->i_count, 1, __ATOMIC_ACQ_REL);

	BUG_ON(left < 0);
	if (left)
		return;
	BUG_ON(inode->i_nlink && !S_ISDIR(inode->i_mode));
	BUG_ON(!list_empty(&inode->i_entries));
	truncate_inode_pages_final(inode);
	if (inode->i_capacity)
		kfree(inode->i_data);
	kfree(inode);
}

/* inode_data_in_module - its bytes are still the boot module's (or it has
 * none): no write has copied them yet.  Locking: the tree lock held. */
bool inode_data_in_module(const struct inode *inode)
{
	fs_tree_assert_held();
	return inode->i_capacity == 0;
}

/*
 * inode_set_module_data - point a new file or symlink at bytes it does not
 * own (the boot module's, or a constant): they must outlive the inode and
 * are never written through it.
 * Context: task.  Locking: the tree lock held for writing.
 */
void inode_set_module_data(struct inode *inode, const void *data, size_t size)
{
	fs_tree_assert_write_held();
	BUG_ON(inode->i_capacity);
	inode->i_data = size ? data : NULL;
	inode->i_size = size;
}

/*
 * inode_reserve - make the data writable and at least size bytes long in
 * memory (the copy on first write); bytes past the old i_size read as 0.
 * i_size is not changed.  0, -ENOMEM, -EFBIG.
 * Locking: the tree lock held for writing.
 */
static int inode_reserve(struct inode *inode, size_t size)
{
	size_t cap = inode->i_capacity ? inode->i_capacity : 64;

	fs_tree_assert_write_held();
	if (size > FS_MAX_FILE_SIZE)
		return -EFBIG;
	if (inode->i_capacity && size <= inode->i_capacity)
		return 0;
	while (cap < size)
		cap *= 2;
	return __inode_move_data(inode, cap);
}

/*
 * __inode_move_data - move the bytes into a new kmalloc'd block of cap
 * (>= i_size) bytes, zero past i_size; the old block is freed, or kept
 * when a MAP_SHARED mapping may still use it (kernel/mm/filemap.c).
 * 0 or -ENOMEM.  Locking: the tree lock held for writing.
 */
int __inode_move_data(struct inode *inode, size_t cap)
{
	char *data;

	fs_tree_assert_write_held();
	BUG_ON(cap < inode->i_size);
	data = kmalloc(cap, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	if (inode->i_size)
		memcpy(data, inode->i_data, inode->i_size);
	memset(data + inode->i_size, 0, cap - inode->i_size);
	if (inode->i_capacity && !mapping_retire_data(inode, inode->i_data))
		kfree(inode->i_data);
	inode->i_data = data;
	inode->i_capacity = cap;
	return 0;
}

/* inode_check_regular - 0 for a regular file; -EISDIR for a directory,
 * -EINVAL otherwise (the errors of write(2) and ftruncate(2)). */
static int inode_check_regular(const struct inode *inode)
{
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	return S_ISREG(inode->i_mode) ? 0 : -EINVAL;
}

/*
 * __inode_read - copy up to len bytes at off of a regular file or symlink
 * into buf: the count (0 at or past the end), -EISDIR for a directory,
 * -EINVAL for a device (its driver reads, item 2).
 * Context: task.  Locking: the tree lock held (read or write).
 */
long __inode_read(struct inode *inode, void *buf, size_t len, size_t off)
{
	fs_tree_assert_held();
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode) && !S_ISLNK(inode->i_mode))
		return -EINVAL;
	if (off >= inode->i_size)
		return 0;
	if (len > inode->i_size - off)
		len = inode->i_size - off;
	memcpy(buf, inode->i_data + off, len);
	return (long)len;
}

/*
 * __inode_write - copy len bytes from buf into a regular file at off,
 * growing it (a hole before off reads as zeros): len, or -EISDIR,
 * -EINVAL (not a regular file), -EFBIG, -ENOMEM.  The first write copies
 * the file out of the boot module.
 * Context: task.  Locking: the tree lock held for writing.
 */
long __inode_write(struct inode *inode, const void *buf, size_t len,
		   size_t off)
{
	int ret;

	fs_tree_assert_write_held();
	ret = inode_check_regular(inode);
	if (ret)
		return ret;
	if (off > FS_MAX_FILE_SIZE || len > FS_MAX_FILE_SIZE - off)
		return -EFBIG;
	if (!len)
		return 0;
	ret = inode_reserve(inode, off + len);
	if (ret)
		return ret;
	memcpy((char *)inode->i_data + off, buf, len);
	if (off + len > inode->i_size)
		inode->i_size = off + len;
	return (long)len;
}

/*
 * __inode_truncate - set a regular file's size (O_TRUNC, ftruncate): new
 * bytes read as zeros.  Shrinking a module-backed file copies nothing.
 * 0, -EISDIR, -EINVAL (not a regular file), -EFBIG, -ENOMEM.
 * Context: task.  Locking: the tree lock held for writing.
 */
int __inode_truncate(struct inode *inode, size_t size)
{
	int ret;

	fs_tree_assert_write_held();
	ret = inode_check_regular(inode);
	if (ret)
		return ret;
	if (size <= inode->i_size) {
		if (inode->i_capacity)	/* stale bytes must read 0 if regrown */
			memset((char *)inode->i_data + size, 0,
			       inode->i_size - size);
		inode->i_size = size;
		if (!size && !inode->i_capacity)
			inode->i_data = NULL;
		return 0;
	}
	ret = inode_reserve(inode, size);
	if (ret)
		return ret;
	inode->i_size = size;
	return 0;
}

/*
 * inode_read, inode_write, inode_truncate - __inode_read & co. taking the
 * tree lock (read for a read, write otherwise): what read(2), write(2)
 * and ftruncate(2) of item 2 call with an open file's inode.
 * Context: task, may sleep.  Locking: takes and drops the tree lock.
 */
long inode_read(struct inode *inode, void *buf, size_t len, size_t off)
{
	long ret;

	fs_tree_read_lock();
	ret = __inode_read(inode, buf, len, off);
	fs_tree_read_unlock();
	return ret;
}

long inode_write(struct inode *inode, const void *buf, size_t len, size_t off)
{
	long ret;

	fs_tree_write_lock();
	ret = __inode_write(inode, buf, len, off);
	fs_tree_write_unlock();
	return ret;
}

int inode_truncate(struct inode *inode, size_t size)
{
	int ret;

	fs_tree_write_lock();
	ret = __inode_truncate(inode, size);
	fs_tree_write_unlock();
	return ret;
}
