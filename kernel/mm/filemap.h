/*
 * kernel/mm/filemap.h - a file's pages for mmap: the page cache of a
 * file still in the boot module, the zero page past EOF, and the pinned
 * data of a file mapped MAP_SHARED.
 *
 * The page cache (struct page_cache, at inode->i_pages) holds
 * page-aligned copies of an initramfs file's bytes (cpio data is only
 * 4-byte aligned, so the module cannot be mapped in place), filled page
 * by page at first mmap and immutable after: every process that maps the
 * file read-only or executable maps the same physical pages, marked
 * MAP_PAGE_CACHE so that munmap and exit never free them.  They are
 * freed with the inode (truncate_inode_pages_final), which every mm that
 * mapped the file keeps alive until it exits (kernel/mm/file_mmap.c).
 * A file that has been written since (its bytes in kmalloc'd memory) is
 * never served from the cache: its private mappings get copies.
 * MAP_SHARED maps the file's own bytes: filemap_pin_shared moves them to
 * page-aligned memory once, and from then on a growth of the file keeps
 * the old block (retired, freed with the inode) instead of freeing it
 * under a mapping.
 * Linux counterpart: mm/filemap.c (read_mapping_page, the page cache),
 * mm/truncate.c (truncate_inode_pages_final), ZERO_PAGE.  Left out:
 * coherence of an existing cache mapping with a later write to the file
 * (Linux's page cache is the file; rtk's is a snapshot), writeback.
 */
#ifndef KERNEL_MM_FILEMAP_H
#define KERNEL_MM_FILEMAP_H

#include "lib/types.h"

struct inode;

/* filemap_read_page - the page cache page of page index of a regular
 * file still in the boot module; the zero page at or past EOF.  0 with
 * *page, -ENOENT when the file's bytes are no longer the module's (the
 * caller copies them), -ENOMEM.  Both kinds of page are mapped with
 * MAP_PAGE_CACHE.  Context: task, sleeps.  Locking: takes the fs tree
 * lock for writing. */
int filemap_read_page(struct inode *inode, unsigned long index, void **page);

/* filemap_pin_shared - make the file's bytes page-aligned memory of at
 * least end bytes (zero past i_size) that stays allocated while the
 * inode lives; *base is its kernel address.  0, -ENOMEM, -EFBIG.
 * Context: task, sleeps.  Locking: takes the tree lock for writing. */
int filemap_pin_shared(struct inode *inode, size_t end, char **base);

/* mapping_retire_data - called by inode_reserve instead of kfree when a
 * file with a page cache outgrows its data block: true when the block
 * was kept (the file is pinned MAP_SHARED), false when the caller frees
 * it.  Locking: the tree lock held for writing. */
bool mapping_retire_data(struct inode *inode, const char *old);

/* truncate_inode_pages_final - free the inode's page cache and retired
 * blocks; from iput, when no mm maps the file any more.  Context: task. */
void truncate_inode_pages_final(struct inode *inode);

/* filemap_cache_pages - pages held by page caches now (tests). */
unsigned long filemap_cache_pages(void);

#endif /* KERNEL_MM_FILEMAP_H */
