/*
 * kernel/fs/fs_struct.h - a process's view of the file system: its root
 * ("/" and where ".." stops) and its working directory.
 *
 * The article ("A realtime preemption overview", section "Miscellaneous"
 * of its summary of PREEMPT_RT primitives) lists INIT_FS(name) among the
 * initializers that now take the variable's name: under PREEMPT_RT the
 * rwlock_t inside is an rt_mutex-based lock with PI that needs its own
 * name (RW_LOCK_UNLOCKED(name.lock)), so a static fs_struct can no longer
 * be initialised by a constant alone.  init_fs is that static object.
 * Linux counterpart: include/linux/fs_struct.h (2.6.x: rwlock_t lock,
 * int umask, root and pwd as dentry + vfsmount; later a spinlock and a
 * seqcount).  Left out: umask's use (no permissions), altroot.
 */
#ifndef KERNEL_FS_FS_STRUCT_H
#define KERNEL_FS_FS_STRUCT_H

#include "kernel/fs/fs.h"
#include "kernel/locking/rwlock.h"

struct fs_struct {
	int users;			/* tasks sharing it (atomic); part 2's
					 * fork copies it, CLONE_FS shares it */
	rwlock_t lock;			/* root, pwd, umask: read_lock to read
					 * (and iget), write_lock to change */
	int umask;			/* open(O_CREAT) and mkdir apply it
					 * (sys_open.c, sys_namei.c) */
	struct inode *root;		/* referenced; NULL before fs_init */
	struct inode *pwd;		/* referenced; NULL before fs_init */
};

#define INIT_FS(name)                                                        \
	{ .users = 1, .lock = RW_LOCK_UNLOCKED(name.lock), .umask = 0022 }

extern struct fs_struct init_fs;

struct task_struct;
struct fs_struct *task_fs(struct task_struct *p);
struct fs_struct *get_fs_struct(struct fs_struct *fs);
struct fs_struct *copy_fs_struct(struct fs_struct *fs);
void exit_fs(struct task_struct *p);
struct inode *get_fs_root(struct fs_struct *fs);
struct inode *get_fs_pwd(struct fs_struct *fs);
void set_fs_pwd(struct fs_struct *fs, struct inode *dir);
int path_lookupat(struct inode *start, const char *path, unsigned int flags,
		  struct inode **out);
int fs_chdir(const char *path);
/* prepend_path - write dir's path from root into the end of buf
 * (PATH_MAX bytes, NUL last): the start of the string in buf, or NULL
 * with *err -ENOENT (dir unlinked, or not below root) or -ENAMETOOLONG.
 * Context: task.  Locking: takes and drops the tree lock (read)
 * (kernel/fs/cwd.c). */
char *prepend_path(struct inode *root, struct inode *dir, char *buf,
		   int *err);
void fs_init(void);

#endif /* KERNEL_FS_FS_STRUCT_H */
