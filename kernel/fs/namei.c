/*
 * kernel/fs/namei.c - the path walk, and the calls that take a path.
 *
 * vfs_path_lookup walks a path from root ("/") or start (relative), one
 * component at a time, under the tree lock:
 *
 *   [1] The path must be shorter than PATH_MAX and not empty.
 *   [2] Take the next component from the innermost pending string (the
 *       path itself, or a symlink's target pushed in [6]); a string that
 *       is used up is popped.  The component is the last one when no
 *       pending string has anything but slashes left.
 *   [3] A component longer than NAME_MAX: -ENAMETOOLONG.  Only a
 *       directory can be walked through: -ENOTDIR.
 *   [4] "." stays; ".." goes to the parent, except at root (the process's
 *       root, or the tree's), where it stays.
 *   [5] Look the name up in the directory: -ENOENT if absent.
 *   [6] A symlink, unless it is the last component and the caller did not
 *       ask for LOOKUP_FOLLOW (a trailing slash asks too): count it
 *       (more than MAXSYMLINKS in one walk: -ELOOP, as Linux), push its
 *       target; an absolute target restarts at root, a relative one goes
 *       on from the directory that holds the link.
 *   [7] Anything else becomes the current inode.
 *   [8] At the end: LOOKUP_DIRECTORY (or a trailing slash) wants a
 *       directory; the result gets a reference.
 *
 * vfs_path_parent is the same walk stopped before the last component, for
 * the calls that create or remove a name.  The do_*at calls (and
 * path_openat in open.c) take the tree lock around a walk and a dir.c
 * operation, so the two are atomic.
 * Linux counterpart: fs/namei.c (link_path_walk, walk_component,
 * step_into, pick_link, follow_dotdot, path_lookupat, path_parentat,
 * filename_create, do_unlinkat, do_rmdir, do_mkdirat, do_symlinkat),
 * without the RCU walk and mounts.
 */
#include "kernel/fs/fs.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/fs/procfs.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

/* One pending string: the path, or a symlink target still to walk. */
struct walk_str {
	const char *s;
	size_t len;
};

struct nameidata {
	struct inode *root, *cur;
	struct walk_str stack[MAXSYMLINKS + 1];	/* [0]: the path itself */
	int depth;			/* entries in stack */
	int links;			/* symlinks followed, for -ELOOP */
	const char *name;		/* the component just taken */
	size_t len;
	bool last, trailing_slash;	/* of that component */
	bool slash_end;			/* the path ends in '/': so does the
					 * last component, wherever it is */
	bool link_buf_used;		/* a generated link's target is in
					 * link_buf (one per walk) */
	char link_buf[PROC_LINK_MAX];
};

static void skip_slashes(struct walk_str *w)
{
	while (w->len && *w->s == '/') {
		w->s++;
		w->len--;
	}
}

/* walk_next_component - step [2]: false when nothing is left. */
static bool walk_next_component(struct nameidata *nd)
{
	struct walk_str *w;
	int i;

	for (;;) {
		if (!nd->depth)
			return false;
		w = &nd->stack[nd->depth - 1];
		skip_slashes(w);
		if (w->len)
			break;
		nd->depth--;
	}
	nd->name = w->s;
	while (w->len && *w->s != '/') {
		w->s++;
		w->len--;
	}
	nd->len = w->s - nd->name;
	nd->trailing_slash = w->len != 0;
	skip_slashes(w);
	nd->last = true;
	for (i = 0; i < nd->depth; i++) {
		skip_slashes(&nd->stack[i]);
		if (nd->stack[i].len)
			nd->last = false;
	}
	if (nd->last && nd->slash_end)	/* "link-to-file/": the slash */
		nd->trailing_slash = true;	/* applies to its target */
	return true;
}

/* walk_init - step [1] for the len bytes at path (no NUL needed: a
 * symlink's target is walked in place), links already followed. */
static int walk_init(struct nameidata *nd, struct inode *root,
		     struct inode *start, const char *path, size_t len,
		     int links)
{
	if (len >= PATH_MAX)						/* [1] */
		return -ENAMETOOLONG;
	if (!len)
		return -ENOENT;
	nd->root = root;
	nd->cur = path[0] == '/' ? root : start;
	nd->stack[0] = (struct walk_str){ path, len };
	nd->depth = 1;
	nd->links = links;
	nd->name = NULL;
	nd->len = 0;
	nd->last = nd->trailing_slash = false;
	nd->slash_end = path[len - 1] == '/';
	nd->link_buf_used = false;
	return 0;
}

/*
 * walk_components - steps [2]..[7]; with parent, stop before the last
 * component, left in nd->name, nd->len (NULL when the path has none:
 * "/" or "///").  0 or an errno.
 * Locking: the tree lock held.
 */
static int walk_components(struct nameidata *nd, unsigned int flags,
			   bool parent)
{
	struct inode *next;

	fs_tree_assert_held();
	while (walk_next_component(nd)) {				/* [2] */
		if (nd->len > NAME_MAX)					/* [3] */
			return -ENAMETOOLONG;
		if (!S_ISDIR(nd->cur->i_mode))
			return -ENOTDIR;
		if (parent && nd->last)
			return 0;
		if (nd->len == 1 && nd->name[0] == '.')			/* [4] */
			continue;
		if (nd->len == 2 && nd->name[0] == '.' && nd->name[1] == '.') {
			if (nd->cur != nd->root)
				nd->cur = nd->cur->i_parent;
			continue;
		}
		next = dir_lookup(nd->cur, nd->name, nd->len);		/* [5] */
		if (!next)
			return -ENOENT;
		if (S_ISLNK(next->i_mode) &&				/* [6] */
		    (!nd->last || (flags & LOOKUP_FOLLOW) ||
		     nd->trailing_slash)) {
			struct walk_str target = { next->i_data, next->i_size };

			if (++nd->links > MAXSYMLINKS ||
			    nd->depth == ARRAY_SIZE(nd->stack))
				return -ELOOP;
			if (next->i_proc) {	/* /proc/self/exe: written now */
				long n;

				if (nd->link_buf_used)
					return -ELOOP;
				n = proc_link_target(next, nd->link_buf,
						     sizeof(nd->link_buf));
				if (n < 0)
					return (int)n;
				nd->link_buf_used = true;
				target = (struct walk_str){ nd->link_buf, (size_t)n };
			}
			nd->stack[nd->depth++] = target;
			if (target.len && target.s[0] == '/')
				nd->cur = nd->root;
			continue;
		}
		nd->cur = next;						/* [7] */
	}
	nd->name = NULL;
	nd->len = 0;
	return 0;
}

/*
 * vfs_path_lookup - the inode path names, walked from root (absolute) or
 * start (relative), following symlinks (the last one only with
 * LOOKUP_FOLLOW).  *out gets a reference.  0, -ENOENT, -ENOTDIR, -ELOOP,
 * -ENAMETOOLONG.
 * Context: task.  Locking: the tree lock held (read or write).
 */
int vfs_path_lookup(struct inode *root, struct inode *start,
		    const char *path, unsigned int flags, struct inode **out)
{
	struct nameidata nd;
	int ret;

	fs_tree_assert_held();
	ret = walk_init(&nd, root, start, path, strnlen(path, PATH_MAX), 0);
	if (!ret)
		ret = walk_components(&nd, flags, false);
	if (ret)
		return ret;
	if (((flags & LOOKUP_DIRECTORY) || nd.trailing_slash) &&	/* [8] */
	    !S_ISDIR(nd.cur->i_mode))
		return -ENOTDIR;
	*out = iget(nd.cur);
	return 0;
}

/*
 * vfs_path_parent_len - vfs_path_parent on the len bytes at path (no NUL
 * needed: open_create walks a symlink's target in place), counting links
 * already followed towards MAXSYMLINKS.
 * Context: task.  Locking: the tree lock held.
 */
int vfs_path_parent_len(struct inode *root, struct inode *start,
			const char *path, size_t len, int links,
			struct path_last *last)
{
	struct nameidata nd;
	int ret;

	fs_tree_assert_held();
	ret = walk_init(&nd, root, start, path, len, links);
	if (!ret)
		ret = walk_components(&nd, 0, true);
	if (ret)
		return ret;
	if (!nd.name)
		return -EEXIST;
	last->dir = nd.cur;
	last->name = nd.name;
	last->len = nd.len;
	last->trailing_slash = nd.trailing_slash;
	last->links = nd.links;
	return 0;
}

/*
 * vfs_path_parent - walk all but the last component of path: *last gets
 * the directory (no reference: valid under the tree lock) and the last
 * name, pointing into path or a symlink's target; it may be "." or "..",
 * which the dir.c calls refuse.  A path with no last name ("/") is
 * -EEXIST, the create calls' answer; the callers that remove translate
 * it.  Else the errors of vfs_path_lookup.
 * Context: task.  Locking: the tree lock held.
 */
int vfs_path_parent(struct inode *root, struct inode *start,
		    const char *path, struct path_last *last)
{
	fs_tree_assert_held();
	return vfs_path_parent_len(root, start, path, strnlen(path, PATH_MAX), 0,
				   last);
}

/* filename_lookup - vfs_path_lookup under the tree lock (read).
 * Context: task, may sleep.  Locking: takes and drops the tree lock. */
int filename_lookup(struct inode *root, struct inode *start,
		    const char *path, unsigned int flags, struct inode **out)
{
	int ret;

	fs_tree_read_lock();
	ret = vfs_path_lookup(root, start, path, flags, out);
	fs_tree_read_unlock();
	return ret;
}

/*
 * filename_create - take the tree lock for writing and walk path to its
 * last component (*last), for a call that adds or removes that name:
 * vfs_path_parent's result.  done_path_create drops the lock, whatever
 * filename_create returned.
 * Context: task, may sleep.  Locking: takes the tree lock (write);
 * done_path_create drops it.
 */
static int filename_create(struct inode *root, struct inode *start,
			   const char *path, struct path_last *last)
{
	fs_tree_write_lock();
	return vfs_path_parent(root, start, path, last);
}

static void done_path_create(void)
{
	fs_tree_write_unlock();
}

/*
 * do_mkdirat, do_mknodat, do_symlinkat - create the last name of path in
 * the directory the rest of it names: 0 or the errors of vfs_path_parent
 * and of dir.c (an existing name, even a dangling symlink: -EEXIST).
 * do_symlinkat's target is stored as given, not walked.
 * Context: task, may sleep.  Locking: filename_create/done_path_create.
 */
int do_mkdirat(struct inode *root, struct inode *start, const char *path,
	       umode_t mode)
{
	struct path_last l;
	int ret = filename_create(root, start, path, &l);

	if (!ret)
		ret = vfs_mkdir(l.dir, l.name, l.len, mode, NULL);
	done_path_create();
	return ret;
}

int do_mknodat(struct inode *root, struct inode *start, const char *path,
	       umode_t mode, dev_t dev)
{
	struct path_last l;
	int ret = filename_create(root, start, path, &l);

	if (!ret)
		ret = vfs_mknod(l.dir, l.name, l.len, mode, dev, NULL);
	done_path_create();
	return ret;
}

int do_symlinkat(const char *target, struct inode *root, struct inode *start,
		 const char *path)
{
	struct path_last l;
	int ret = filename_create(root, start, path, &l);

	if (!ret)
		ret = vfs_symlink(l.dir, l.name, l.len, target,
				  strnlen(target, PATH_MAX), NULL);
	done_path_create();
	return ret;
}

/*
 * do_unlinkat, do_rmdir - remove the last name of path (never following
 * it): 0, the errors of vfs_path_parent, vfs_unlink and vfs_rmdir; "/"
 * is -EISDIR for unlink, -EBUSY for rmdir, "file/" -ENOTDIR (Linux's
 * answers).
 * Context: task, may sleep.  Locking: filename_create/done_path_create.
 */
int do_unlinkat(struct inode *root, struct inode *start, const char *path)
{
	struct path_last l;
	int ret = filename_create(root, start, path, &l);
	struct inode *victim;

	if (!ret && l.trailing_slash) {	/* "file/": not a directory */
		victim = dir_lookup(l.dir, l.name, l.len);
		if (victim && !S_ISDIR(victim->i_mode))
			ret = -ENOTDIR;
	}
	if (!ret)
		ret = vfs_unlink(l.dir, l.name, l.len);
	done_path_create();
	return ret == -EEXIST ? -EISDIR : ret;
}

int do_rmdir(struct inode *root, struct inode *start, const char *path)
{
	struct path_last l;
	int ret = filename_create(root, start, path, &l);

	if (!ret)
		ret = vfs_rmdir(l.dir, l.name, l.len);
	done_path_create();
	return ret == -EEXIST ? -EBUSY : ret;
}

/*
 * vfs_readlink - copy up to len bytes of a symlink's target into buf, no
 * NUL added (readlink(2)): the count, or -EINVAL if inode is not a
 * symlink.  The caller looked inode up without LOOKUP_FOLLOW.
 * Context: task, may sleep.  Locking: takes and drops the tree lock.
 */
long vfs_readlink(struct inode *inode, char *buf, size_t len)
{
	char target[PROC_LINK_MAX];
	long n;

	if (!S_ISLNK(inode->i_mode))
		return -EINVAL;
	if (!inode->i_proc)
		return inode_read(inode, buf, len, 0);
	n = proc_link_target(inode, target, sizeof(target));
	if (n < 0)
		return n;
	if ((size_t)n > len)
		n = (long)len;
	memcpy(buf, target, (size_t)n);
	return n;
}
