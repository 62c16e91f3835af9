/*
 * kernel/user/binfmt_script.c - "#!" interpreter scripts, and the loop
 * that picks a binary format for every exec: execve and the kernel's own
 * process_spawn (the shell's `run`) go through exec_binprm.
 *
 * exec_binprm():
 *   [1] at each level (at most BINPRM_MAX_DEPTH + 1, then -ELOOP) the
 *       first BINPRM_BUF_SIZE bytes of the file to load (bprm->interp,
 *       else the path), opened as any exec (open_exec: -EACCES for a
 *       directory or a file without an x bit);
 *   [2] not "#!": it must be an ELF (load_elf_binary; -ENOEXEC else);
 *   [3] "#!": the line parsed as Linux's load_script does: spaces and
 *       tabs after "#!" skipped, the interpreter up to the next blank,
 *       everything after it (inner blanks kept, trailing ones cut) one
 *       optional argument; a line longer than the buffer is cut, unless
 *       the interpreter's name itself does not end in it (-ENOEXEC);
 *       an empty interpreter is -ENOEXEC;
 *   [4] argv becomes: interpreter, [argument], the script's path as it
 *       was opened, argv[1..] (argv[0] is dropped, as on Linux); the
 *       interpreter is opened now so that a missing one fails here
 *       (-ENOENT), and is the file of the next level.
 * AT_EXECFN and comm stay the original path's; /proc/self/exe is the
 * file finally loaded (process.c, exec.c), as Linux's exe_file.
 * Linux counterpart: fs/binfmt_script.c (load_script), fs/exec.c
 * (exec_binprm, search_binary_handler).  rtk has no binfmt_misc and no
 * module loading, and keeps the new argv in kernel memory (one buffer a
 * level, freed by bprm_release).
 */
#include "kernel/user/elf_loader.h"
#include "kernel/fs/fs.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* read_head - step [1]: up to BINPRM_BUF_SIZE bytes of the file at name
 * into buf, NUL-terminated; their count or -errno.  Context: task,
 * sleeps.  Locking: none held (the walk and the read take the tree
 * lock). */
static long read_head(const struct linux_binprm *bprm, const char *name,
		      char buf[BINPRM_BUF_SIZE + 1])
{
	struct inode *inode;
	long n;

	might_sleep();
	n = open_exec(bprm, name, &inode);
	if (n)
		return n;
	n = inode_read(inode, buf, BINPRM_BUF_SIZE, 0);
	iput(inode);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* parse_shebang - step [3] on buf (n bytes, "#!..."): *name and *arg
 * (NULL: none) point into buf, NUL-terminated.  0 or -ENOEXEC. */
static int parse_shebang(char *buf, long n, char **name, char **arg)
{
	char *end = memchr(buf, '\n', n), *cp;

	if (!end) {
		/* a cut line: the name must end inside it (Linux's
		 * next_terminator check), the argument may be cut */
		for (cp = buf + 2; cp < buf + n && is_blank(*cp); cp++)
			;
		while (cp < buf + n && !is_blank(*cp) && *cp)
			cp++;
		if (cp >= buf + n)
			return -ENOEXEC;
		end = buf + n;
	}
	*end = '\0';
	while (end > buf + 2 && (is_blank(end[-1]) || end[-1] == '\0'))
		*--end = '\0';
	for (cp = buf + 2; is_blank(*cp); cp++)
		;
	if (!*cp)
		return -ENOEXEC;
	*name = cp;
	while (*cp && !is_blank(*cp))
		cp++;
	*arg = NULL;
	if (!*cp)
		return 0;
	*cp++ = '\0';
	while (is_blank(*cp))
		cp++;
	if (*cp)
		*arg = cp;
	return 0;
}

/* load_script - steps [3]-[4] for the script at path, whose head is buf
 * (n bytes).  0, -ENOEXEC, -ENOMEM, open_exec's errors for the
 * interpreter.  Context: task, sleeps.  Locking: none held. */
static int load_script(struct linux_binprm *bprm, const char *path,
		       char *buf, long n)
{
	char *name, *arg, **argv, *s;
	struct inode *inode;
	size_t len;
	int err, argc, i = 0;

	might_sleep();
	err = parse_shebang(buf, n, &name, &arg);			/* [3] */
	if (err)
		return err;
	err = open_exec(bprm, name, &inode);				/* [4] */
	if (err)
		return err;
	iput(inode);
	/* interpreter, argument, path, argv[1..]: argc - 1 + 3 at most */
	argc = (bprm->argc > 0 ? bprm->argc - 1 : 0) + 2 + !!arg;
	len = strlen(name) + 1 + (arg ? strlen(arg) + 1 : 0) + strlen(path) + 1;
	argv = kmalloc((argc + 1) * sizeof(*argv) + len, GFP_KERNEL);
	if (!argv)
		return -ENOMEM;
	s = (char *)(argv + argc + 1);
	argv[i++] = strcpy(s, name);
	s += strlen(name) + 1;
	if (arg) {
		argv[i++] = strcpy(s, arg);
		s += strlen(arg) + 1;
	}
	argv[i++] = strcpy(s, path);
	for (int j = 1; j < bprm->argc; j++)
		argv[i++] = bprm->argv[j];
	argv[i] = NULL;
	BUG_ON(i != argc);
	bprm->script_buf[bprm->depth] = argv;
	bprm->argv = argv;
	bprm->argc = argc;
	bprm->interp = argv[0];
	return 0;
}

int exec_binprm(struct mm_struct *mm, struct linux_binprm *bprm)
{
	char *buf;
	long n;
	int err;

	might_sleep();
	buf = kmalloc(BINPRM_BUF_SIZE + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (bprm->depth = 0;; bprm->depth++) {
		const char *path = bprm_path(bprm);

		err = -ELOOP;
		if (bprm->depth > BINPRM_MAX_DEPTH)
			break;
		n = read_head(bprm, path, buf);				/* [1] */
		err = (int)n;
		if (n < 0)
			break;
		if (n < 2 || buf[0] != '#' || buf[1] != '!') {		/* [2] */
			err = load_elf_binary(mm, bprm);
			break;
		}
		/* a script run by fd: its argv names it /dev/fd/N */
		err = load_script(bprm, *path ? path : bprm->filename, buf,
				  n);					/* [3] */
		if (err)
			break;
	}
	kfree(buf);
	return err;
}

void bprm_release(struct linux_binprm *bprm)
{
	for (int i = 0; i < BINPRM_MAX_DEPTH + 1; i++) {
		kfree(bprm->script_buf[i]);
		bprm->script_buf[i] = NULL;
	}
}
