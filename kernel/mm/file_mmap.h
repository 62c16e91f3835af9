/*
 * kernel/mm/file_mmap.h - mapping a file into a process: MAP_PRIVATE from
 * the page cache or as copies, MAP_SHARED on the file's own bytes
 * (kernel/mm/filemap.h has the pages), and the mm's hold on the files it
 * maps.
 *
 * Without VMAs nothing records which file a mapped page came from, so an
 * mm holds every inode it has ever mapped (struct mm_file_ref on
 * mm->mapped_files) until exit_mmap: a page cache or a shared file's
 * bytes are freed only after every mm that may still map them is gone
 * (cyclictest unlinks its /dev/shm file right after mapping it).  The
 * cost: an unmapped file stays in memory until its mapper exits.
 * Linux counterpart: mm/mmap.c do_mmap's file half, mm/filemap.c
 * generic_file_mmap, vma->vm_file's reference.
 */
#ifndef KERNEL_MM_FILE_MMAP_H
#define KERNEL_MM_FILE_MMAP_H

#include "lib/types.h"

struct mm_struct;
struct inode;

/* __do_mmap_file - map npages of inode from file page pgoff at addr,
 * where nothing is mapped: MAP_WRITE / MAP_EXEC in map_flags (and
 * MAP_PAGE_NOWRITE for a shared mapping of a read-only fd), shared for
 * MAP_SHARED.  All or nothing.  0, -ENOMEM, -EINVAL.
 * Context: task, sleeps.  Locking: mmap_lock held; takes the tree lock. */
int __do_mmap_file(struct mm_struct *mm, unsigned long addr,
		   unsigned long npages, unsigned int map_flags,
		   struct inode *inode, unsigned long pgoff, bool shared);

/* mm_hold_file - mm keeps a reference to inode until exit_mmap (once per
 * inode).  0 or -ENOMEM.  Locking: mmap_lock held. */
int mm_hold_file(struct mm_struct *mm, struct inode *inode);

/* mm_dup_files - a fork's mm (new, nobody else's yet) holds every inode
 * old holds.  0 or -ENOMEM (those held so far stay on mm, for its
 * mmput).  Context: task.  Locking: old's mmap_lock held. */
int mm_dup_files(struct mm_struct *mm, struct mm_struct *old);

/* mm_drop_files - drop every inode mm held (exit_mmap, after the
 * pages).  Context: task, sleeps.  Locking: mmap_lock held. */
void mm_drop_files(struct mm_struct *mm);

#endif /* KERNEL_MM_FILE_MMAP_H */
