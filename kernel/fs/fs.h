/*
 * kernel/fs/fs.h - rtk's file system: the initramfs unpacked into a tree
 * of in-memory inodes (Linux's rootfs, a ramfs), its path walk, and the
 * calls that create and remove names.  The API the system calls of issue
 * 29 item 2 (openat, newfstatat, readlink, unlink, symlink, ftruncate,
 * getdents64, chdir ...) sit on.
 *
 * The files (read them in this order):
 *   inode.h, inode.c     struct inode; new_inode/iget/iput; inode_read,
 *                        inode_write, inode_truncate (copy on first write;
 *                        __inode_*: the same with the tree lock held)
 *   tree_lock.h, .c      the one rw_semaphore over the whole tree
 *   dir.c                one directory's entries: dir_lookup, vfs_create,
 *                        vfs_mkdir, vfs_mknod, vfs_symlink, vfs_unlink,
 *                        vfs_rmdir (one component, caller holds the lock)
 *   namei.c              the path walk and the path-taking calls
 *   open.c               path_openat: open(2)'s lookup-or-create
 *   cpio.h, cpio.c       the newc header parser (also kernel/user/initramfs.c)
 *   unpack.h, unpack.c   unpack_to_rootfs: the archive into the tree
 *   fs_struct.h, .c      struct fs_struct, INIT_FS(name), init_fs, the
 *                        boot-time root, path_lookupat from current's cwd
 * Files and fds (issue 29 item 2), on top:
 *   file.h, file.c       struct file, its operations; regular files, dirs
 *   fdtable.h, .c        the per-process fd table
 *   devices.c            /dev/console, /dev/null, /dev/cpu_dma_latency
 *   user_path.h, .c      getname, the *at calls' dfd
 *   read_write.c sys_open.c stat.c stat_abi.c readdir.c cwd.c fcntl.c
 *   sys_namei.c          the system calls
 * Sockets and poll (issue 29 item 3):
 *   pipe_ring.h, .c      a byte ring with blocking read/write (pipes too)
 *   af_unix.c            socketpair(AF_UNIX, SOCK_STREAM): two rings crossed
 *   poll.h, poll.c       poll_wait, vfs_poll; poll(2), ppoll(2)
 *
 * Layers.  inode.c, dir.c, namei.c, cpio.c and unpack.c take the root and
 * the start directory as arguments and know no task: they build on the
 * host too (tests/host/test_namei.c) with a fake tree lock.  fs_struct.c
 * adds the task's view: its root and cwd, read under fs_struct.lock.
 *
 * References.  A call that hands out an inode (*out) gives the caller a
 * reference: drop it with iput().  A name in the tree holds one more
 * while linked.  Inode pointers in between (the walk's) are valid only
 * under the tree lock.
 *
 * Flags.  LOOKUP_* are Linux's internal walk flags (include/linux/namei.h):
 * the last component's symlink is followed only with LOOKUP_FOLLOW (stat,
 * open without O_NOFOLLOW, chdir); lstat, readlink and unlink pass 0.
 * O_* are Linux's x86_64 open(2) values (include/uapi/asm-generic/fcntl.h).
 * Errors are Linux's: -ENOENT, -ENOTDIR, -ELOOP (40 links, MAXSYMLINKS),
 * -ENAMETOOLONG (a component > NAME_MAX, a path >= PATH_MAX), -EEXIST,
 * -EISDIR, -ENOTEMPTY, -EFBIG, -ENOMEM.
 * Left out: permissions, mounts, rename, hard links, times, uid/gid.
 */
#ifndef KERNEL_FS_FS_H
#define KERNEL_FS_FS_H

#include "kernel/fs/inode.h"
#include "kernel/user/uapi.h"

#define MAXSYMLINKS 40	/* Linux's include/linux/namei.h */

#define LOOKUP_FOLLOW 0x0001	/* follow a symlink as the last component */
#define LOOKUP_DIRECTORY 0x0002	/* the last component must be a directory */

/* O_*: kernel/user/uapi.h (shared with user space) */

/* ---- dir.c: one directory, one component; the tree lock held for
 * writing (dir_lookup: held) */
struct inode *dir_lookup(struct inode *dir, const char *name, size_t len);
int vfs_create(struct inode *dir, const char *name, size_t len, umode_t mode,
	       struct inode **out);
int vfs_mkdir(struct inode *dir, const char *name, size_t len, umode_t mode,
	      struct inode **out);
int vfs_mknod(struct inode *dir, const char *name, size_t len, umode_t mode,
	      dev_t rdev, struct inode **out);
int vfs_symlink(struct inode *dir, const char *name, size_t len,
		const char *target, size_t tlen, struct inode **out);
int vfs_unlink(struct inode *dir, const char *name, size_t len);
int vfs_rmdir(struct inode *dir, const char *name, size_t len);
struct inode *fs_new_root(void);
void fs_kill_tree(struct inode *root);

/* The last component of a path and the directory that holds it
 * (vfs_path_parent); valid under the tree lock. */
struct path_last {
	struct inode *dir;	/* no reference */
	const char *name;	/* len bytes, in the path or a link's target */
	size_t len;
	bool trailing_slash;	/* "name/" */
	int links;		/* symlinks followed to get here */
};

/* ---- namei.c: whole paths.  root: where "/" and ".." stop; start: where
 * a relative path begins (the cwd, or a directory fd's inode). */
int vfs_path_lookup(struct inode *root, struct inode *start,
		    const char *path, unsigned int flags, struct inode **out);
int vfs_path_parent(struct inode *root, struct inode *start,
		    const char *path, struct path_last *last);
int vfs_path_parent_len(struct inode *root, struct inode *start,
			const char *path, size_t len, int links,
			struct path_last *last);
/* the same, taking the tree lock themselves (path_openat: open.c) */
int filename_lookup(struct inode *root, struct inode *start,
		    const char *path, unsigned int flags, struct inode **out);
int path_openat(struct inode *root, struct inode *start, const char *path,
		int open_flags, umode_t mode, struct inode **out);
int do_mkdirat(struct inode *root, struct inode *start, const char *path,
	       umode_t mode);
int do_mknodat(struct inode *root, struct inode *start, const char *path,
	       umode_t mode, dev_t dev);
int do_symlinkat(const char *target, struct inode *root, struct inode *start,
		 const char *path);
int do_unlinkat(struct inode *root, struct inode *start, const char *path);
int do_rmdir(struct inode *root, struct inode *start, const char *path);
long vfs_readlink(struct inode *inode, char *buf, size_t len);

#endif /* KERNEL_FS_FS_H */
