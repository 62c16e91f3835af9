/*
 * kernel/fs/fdtable.c - the fd table (kernel/fs/fdtable.h): allocating,
 * installing, replacing and closing fds, growing the table, sharing and
 * copying it, and closing everything at the last task's exit.
 *
 * Rule: a struct file leaves the table under file_lock, and is put
 * (fput) only after the lock is dropped -- fput may sleep in iput and a
 * device's release, and file_lock is a spinlock_t (spinning on !RT).
 * For the same reason expand_files allocates with the lock dropped:
 *
 *	CPU0 (open: table full)		CPU1 (open, same table)
 *	expand_files: unlock, kmalloc	expand_files: unlock, kmalloc
 *	lock; grow, max_fds = 128	lock; max_fds already 128:
 *	unlock; free the old arrays	  free its own arrays, rescan
 *
 * so every caller rescans after an expansion (the "goto repeat" in
 * alloc_fd and replace_fd).  Exercised (made likely, not forced: no
 * race window hook here) by user/tests/t_files.c racing_growth, four
 * threads growing one table 64 -> 512 at once.
 * Linux counterpart: fs/file.c.
 */
#include "kernel/fs/fdtable.h"
#include "kernel/user/process.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "lib/bitmap.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

static bool table_alloc(unsigned int nr, struct file ***fd,
			unsigned long **cloexec)
{
	*fd = kzalloc(nr * sizeof(**fd), GFP_KERNEL);
	*cloexec = kzalloc(nr / 8, GFP_KERNEL);
	if (*fd && *cloexec)
		return true;
	kfree(*fd);
	kfree(*cloexec);
	return false;
}

/* files_alloc - an empty table, one user.  NULL: no memory.
 * Context: task, may sleep. */
struct files_struct *files_alloc(void)
{
	struct files_struct *files = kzalloc(sizeof(*files), GFP_KERNEL);

	might_sleep();
	if (!files)
		return NULL;
	if (!table_alloc(NR_OPEN_DEFAULT, &files->fd, &files->close_on_exec)) {
		kfree(files);
		return NULL;
	}
	files->count = 1;
	files->max_fds = NR_OPEN_DEFAULT;
	spin_lock_init(&files->file_lock);
	return files;
}

/* get_files_struct - one more task shares files (CLONE_FILES).
 * Context: any. */
struct files_struct *get_files_struct(struct files_struct *files)
{
	BUG_ON(__atomic_fetch_add(&files->count, 1, __ATOMIC_RELAXED) <= 0);
	return files;
}

/*
 * expand_files - make slot nr exist: 0 if it did, 1 if the table grew
 * (the lock was dropped meanwhile: the caller rescans), -EMFILE past
 * FD_TABLE_MAX, -ENOMEM.  See the diagram at the top.
 * Locking: files->file_lock held on entry and on return, dropped inside.
 */
static int expand_files(struct files_struct *files, unsigned int nr)
{
	unsigned int size = files->max_fds;
	struct file **fd, **old_fd;
	unsigned long *cloexec, *old_cloexec;

	BUG_ON(!spin_is_locked(&files->file_lock));
	if (nr < files->max_fds)
		return 0;
	if (nr >= FD_TABLE_MAX)
		return -EMFILE;
	while (size <= nr)
		size *= 2;
	spin_unlock(&files->file_lock);
	if (!table_alloc(size, &fd, &cloexec)) {
		spin_lock(&files->file_lock);
		return -ENOMEM;
	}
	spin_lock(&files->file_lock);
	if (files->max_fds >= size) {	/* another thread grew it first */
		old_fd = fd;
		old_cloexec = cloexec;
	} else {
		memcpy(fd, files->fd, files->max_fds * sizeof(*fd));
		memcpy(cloexec, files->close_on_exec, files->max_fds / 8);
		old_fd = files->fd;
		old_cloexec = files->close_on_exec;
		files->fd = fd;
		files->close_on_exec = cloexec;
		files->max_fds = size;
	}
	spin_unlock(&files->file_lock);
	kfree(old_fd);
	kfree(old_cloexec);
	spin_lock(&files->file_lock);
	return 1;
}

static void __set_cloexec(struct files_struct *files, unsigned int fd, bool on)
{
	if (on)
		__set_bit(fd, files->close_on_exec);
	else
		__clear_bit(fd, files->close_on_exec);
}

/*
 * alloc_fd - install file (the caller's reference passes to the table)
 * at the lowest free fd >= start: the fd, or -EMFILE when none is free
 * below limit (RLIMIT_NOFILE), -ENOMEM; on failure the reference stays
 * the caller's.  Linux's get_unused_fd_flags + fd_install in one hold.
 * Context: task, may sleep.  Locking: takes and drops files->file_lock.
 */
int alloc_fd(struct files_struct *files, struct file *file,
	     unsigned int start, unsigned int limit, bool cloexec)
{
	unsigned int fd;
	int ret;

	might_sleep();
	spin_lock(&files->file_lock);
repeat:
	fd = start > files->next_fd ? start : files->next_fd;
	while (fd < files->max_fds && files->fd[fd])
		fd++;
	ret = -EMFILE;
	if (fd >= limit)
		goto out;
	ret = expand_files(files, fd);
	if (ret < 0)
		goto out;
	if (ret > 0)
		goto repeat;
	files->fd[fd] = file;
	__set_cloexec(files, fd, cloexec);
	if (start <= files->next_fd)
		files->next_fd = fd + 1;
	ret = (int)fd;
out:
	spin_unlock(&files->file_lock);
	return ret;
}

/*
 * replace_fd - install file (the caller's reference passes) at fd,
 * closing what was there (dup2, dup3): fd, or -EMFILE / -ENOMEM when the
 * table cannot reach it.  The caller checked fd against RLIMIT_NOFILE.
 * Context: task, may sleep.  Locking: takes and drops file_lock; the old
 * file is put after.
 */
int replace_fd(struct files_struct *files, unsigned int fd, struct file *file,
	       bool cloexec)
{
	struct file *old;
	int ret;

	might_sleep();
	spin_lock(&files->file_lock);
	do {
		ret = expand_files(files, fd);
	} while (ret > 0);
	if (ret < 0) {
		spin_unlock(&files->file_lock);
		return ret;
	}
	old = files->fd[fd];
	files->fd[fd] = file;
	__set_cloexec(files, fd, cloexec);
	spin_unlock(&files->file_lock);
	if (old)
		fput(old);
	return (int)fd;
}

/*
 * close_fd - remove fd from the table and put its file: 0 or -EBADF.
 * Context: task, may sleep.  Locking: takes and drops file_lock.
 */
int close_fd(struct files_struct *files, unsigned int fd)
{
	struct file *file = NULL;

	might_sleep();
	spin_lock(&files->file_lock);
	if (fd < files->max_fds) {
		file = files->fd[fd];
		files->fd[fd] = NULL;
		__clear_bit(fd, files->close_on_exec);
		if (file && fd < files->next_fd)
			files->next_fd = fd;
	}
	spin_unlock(&files->file_lock);
	if (!file)
		return -EBADF;
	fput(file);
	return 0;
}

/* fget_files - fd's file with a reference for the caller (fput), or
 * NULL.  Context: any task.  Locking: takes and drops file_lock. */
struct file *fget_files(struct files_struct *files, unsigned int fd)
{
	struct file *file = NULL;

	spin_lock(&files->file_lock);
	if (fd < files->max_fds && files->fd[fd])
		file = get_file(files->fd[fd]);
	spin_unlock(&files->file_lock);
	return file;
}

/* get_close_on_exec / set_close_on_exec - F_GETFD / F_SETFD: the bit
 * (0 or 1) or 0; -EBADF for a closed fd.  Locking: file_lock. */
int get_close_on_exec(struct files_struct *files, unsigned int fd)
{
	int ret = -EBADF;

	spin_lock(&files->file_lock);
	if (fd < files->max_fds && files->fd[fd])
		ret = test_bit(fd, files->close_on_exec);
	spin_unlock(&files->file_lock);
	return ret;
}

int set_close_on_exec(struct files_struct *files, unsigned int fd, bool on)
{
	int ret = -EBADF;

	spin_lock(&files->file_lock);
	if (fd < files->max_fds && files->fd[fd]) {
		__set_cloexec(files, fd, on);
		ret = 0;
	}
	spin_unlock(&files->file_lock);
	return ret;
}

/* files_has_free_fd - is an fd below limit free (or beyond the table,
 * to be grown)?  open asks before it creates anything, so a full table
 * is -EMFILE with no side effect, as Linux (which reserves the fd
 * first).  Locking: file_lock. */
bool files_has_free_fd(struct files_struct *files, unsigned int limit)
{
	unsigned int fd;

	spin_lock(&files->file_lock);
	fd = files->next_fd;
	while (fd < files->max_fds && fd < limit && files->fd[fd])
		fd++;
	spin_unlock(&files->file_lock);
	return fd < limit && fd < FD_TABLE_MAX;
}

/* files_count_open - installed fds (tests).  Locking: file_lock. */
unsigned int files_count_open(struct files_struct *files)
{
	unsigned int n = 0;

	spin_lock(&files->file_lock);
	for (unsigned int fd = 0; fd < files->max_fds; fd++)
		n += files->fd[fd] != NULL;
	spin_unlock(&files->file_lock);
	return n;
}

/*
 * dup_fd - a copy of old for a task that does not share it (clone
 * without CLONE_FILES; part 2's fork): the same files, one more
 * reference each, the same close-on-exec bits.  NULL: no memory.
 * Context: task, may sleep.  Locking: takes old's file_lock.
 */
struct files_struct *dup_fd(struct files_struct *old)
{
	struct files_struct *files = files_alloc();

	might_sleep();
	if (!files)
		return NULL;
	spin_lock(&old->file_lock);
	while (files->max_fds < old->max_fds) {
		unsigned int want = old->max_fds;

		spin_unlock(&old->file_lock);
		spin_lock(&files->file_lock);
		if (expand_files(files, want - 1) < 0) {
			spin_unlock(&files->file_lock);
			put_files_struct(files);
			return NULL;
		}
		spin_unlock(&files->file_lock);
		spin_lock(&old->file_lock);
	}
	for (unsigned int fd = 0; fd < old->max_fds; fd++) {
		if (old->fd[fd])
			files->fd[fd] = get_file(old->fd[fd]);
		__set_cloexec(files, fd, test_bit(fd, old->close_on_exec));
	}
	files->next_fd = old->next_fd;
	spin_unlock(&old->file_lock);
	return files;
}

/*
 * put_files_struct - drop a user; the last closes every fd and frees the
 * table.  Context: task, may sleep.  Locking: none (the last user is
 * alone with the table).
 */
void put_files_struct(struct files_struct *files)
{
	might_sleep();
	if (__atomic_sub_fetch(&files->count, 1, __ATOMIC_ACQ_REL))
		return;
	for (unsigned int fd = 0; fd < files->max_fds; fd++)
		if (files->fd[fd])
			fput(files->fd[fd]);
	kfree(files->fd);
	kfree(files->close_on_exec);
	kfree(files);
}

/*
 * do_close_on_exec - close every fd with FD_CLOEXEC set (execve, past
 * its point of no return).  The files are put after the lock is dropped
 * (fput may sleep).  Context: task, may sleep.  Locking: takes and
 * drops file_lock once per fd closed.
 */
void do_close_on_exec(struct files_struct *files)
{
	might_sleep();
	for (unsigned int fd = 0;; fd++) {
		struct file *file = NULL;

		spin_lock(&files->file_lock);
		if (fd >= files->max_fds) {
			spin_unlock(&files->file_lock);
			break;
		}
		if (files->fd[fd] && test_bit(fd, files->close_on_exec)) {
			file = files->fd[fd];
			files->fd[fd] = NULL;
			__clear_bit(fd, files->close_on_exec);
			if (fd < files->next_fd)
				files->next_fd = fd;
		}
		spin_unlock(&files->file_lock);
		if (file)
			fput(file);
	}
}

/* exit_files - p stops using its table (do_exit; a clone's unwinding).
 * Context: task, may sleep. */
void exit_files(struct task_struct *p)
{
	struct files_struct *files = p->files;

	if (!files)
		return;
	p->files = NULL;
	put_files_struct(files);
}

/* fget - current's fd: its file with a reference, or NULL (no table:
 * a kernel thread).  Context: task. */
struct file *fget(unsigned int fd)
{
	struct files_struct *files = current->files;

	return files ? fget_files(files, fd) : NULL;
}

/* rlimit_nofile - current's RLIMIT_NOFILE soft limit, capped at
 * FD_TABLE_MAX (a 64-bit read: the limit changes under proc->lock, a
 * reader sees the old value or the new).  Context: a user task. */
unsigned int rlimit_nofile(void)
{
	struct process *proc = current_process();
	u64 cur;

	if (!proc)
		return FD_TABLE_MAX;
	cur = READ_ONCE(proc->rlim[RLIMIT_NOFILE].rlim_cur);
	return cur < FD_TABLE_MAX ? (unsigned int)cur : FD_TABLE_MAX;
}
