/*
 * tests/host/fake_kernel.c - the kernel services the host-built kernel/fs
 * code calls: kmalloc/kfree (malloc, so ASan sees every overrun and
 * leak), printk (to stdout as a KTAP diagnostic, and kept for the test to
 * read), and the file-system tree lock of kernel/fs/tree_lock.h for one
 * thread: it checks that a lock is held where kernel/fs asserts it, and
 * that locks pair, as the kernel's does.  kernel/mm/filemap.c's two
 * calls from inode.c: the host tests never mmap, so an inode never has
 * a page cache here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/fs/tree_lock.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/bug.h"

char fake_printk_last[512];	/* the last message, level prefix dropped */
int fake_printk_count;
bool fake_printk_quiet;		/* keep fake_printk_last, print nothing */

void *kmalloc(size_t size, int flags)
{
	void *p = malloc(size ? size : 1);

	if (p && (flags & __GFP_ZERO))
		memset(p, 0, size);
	return p;
}

void kfree(const void *ptr)
{
	free((void *)ptr);
}

int vprintk(const char *fmt, va_list ap)
{
	int n;

	n = vsnprintf(fake_printk_last, sizeof(fake_printk_last), fmt, ap);
	fake_printk_count++;
	if (fake_printk_last[0] == KERN_SOH[0] && fake_printk_last[1])
		memmove(fake_printk_last, fake_printk_last + 2,
			strlen(fake_printk_last + 2) + 1);
	if (!fake_printk_quiet)
		printf("    # printk: %s", fake_printk_last);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

static int tree_readers;
static bool tree_writer;

void fs_tree_read_lock(void)
{
	BUG_ON(tree_writer);	/* one thread: this would deadlock */
	tree_readers++;
}

void fs_tree_read_unlock(void)
{
	BUG_ON(tree_readers <= 0);
	tree_readers--;
}

void fs_tree_write_lock(void)
{
	BUG_ON(tree_writer || tree_readers);
	tree_writer = true;
}

void fs_tree_write_unlock(void)
{
	BUG_ON(!tree_writer);
	tree_writer = false;
}

bool fs_tree_is_locked(void)
{
	return tree_writer || tree_readers;
}

bool fs_tree_is_write_locked(void)
{
	return tree_writer;
}

/* (kernel/mm/filemap.c is not host-built: no inode has a cache) */
void truncate_inode_pages_final(struct inode *inode)
{
}

bool mapping_retire_data(struct inode *inode, const char *old)
{
	return false;
}
