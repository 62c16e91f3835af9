/*
 * kernel/user/elf_loader.c - the ELF64 loader: a program (ET_EXEC at its
 * own addresses, or ET_DYN, a PIE, at ELF_ET_DYN_BASE) and its program
 * interpreter (PT_INTERP, glibc's ld.so) read from the file system.
 *
 * load_elf_binary():
 *   [1] open the file by path (symlinks followed: open_exec), from "/"
 *       or the caller's root and cwd;
 *   [2] the ELF header and the phdr table (elf_check.c checks both);
 *   [3] PT_INTERP's path, NUL-terminated;
 *   [4] the bias (ET_DYN: the span's low end at ELF_ET_DYN_BASE) and the
 *       span below USER_MMAP_TOP;
 *   [5] each PT_LOAD mapped (elf_map);
 *   [6] the interpreter, if any: the same steps for it, placed so that it
 *       ends at ELF_INTERP_TOP (Linux with ASLR off puts ld.so there, top
 *       down from the mmap base); the entry is then the interpreter's;
 *   [7] what create_elf_tables puts in the auxv.
 * Other program headers (PT_GNU_STACK, PT_NOTE, PT_GNU_RELRO ...) are
 * ignored: the stack is always NX, RELRO is the program's mprotect.
 * Spec: System V gABI ch. 5 (program loading, PT_INTERP).
 * Linux counterpart: fs/binfmt_elf.c (load_elf_binary, load_elf_interp,
 * load_elf_phdrs, elf_map), fs/exec.c (open_exec).  rtk leaves out ASLR,
 * brk (#! is binfmt_script.c's), the page cache (a segment is a copy of the
 * file's bytes: elf_map), and an interpreter's own PT_INTERP, which
 * Linux ignores and rtk refuses (-ELIBBAD).  Linux (since 4.13) puts an
 * ET_DYN without PT_INTERP (a static PIE, ld.so run as a command) at the
 * mmap base, not at ELF_ET_DYN_BASE; rtk puts every ET_DYN program there.
 * A page two segments share is refused (-ENOEXEC): no ELF that GNU ld
 * links with -z separate-code (Debian's rt-tests, glibc) has one.
 */
#include "kernel/user/elf_loader.h"
#include "kernel/user/elf.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/user_mm.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

/* The stack's guard page: no segment reaches it (user_mm.h's layout). */
#define ELF_STACK_GUARD (USER_STACK_TOP - (USER_STACK_PAGES + 1) * PAGE_SIZE)

/* Where the loader reads an image from: Linux's struct file. */
struct elf_file {
	struct inode *inode;	/* a reference (open_exec), or NULL */
	const u8 *data;		/* without an inode: the image in memory */
	u64 size;		/* its bytes, read once at open */
};

/* One image's headers, read and checked ([2]). */
struct elf_image {
	struct elf64_ehdr eh;
	struct elf64_phdr *ph;	/* kmalloc'd, eh.e_phnum entries */
	struct elf_layout lay;
};

/* elf_read - len bytes at pos of f into buf: 0, -EIO when the file is
 * shorter (Linux's elf_read).  Context: task, may sleep.  Locking:
 * inode_read takes and drops the tree lock. */
static int elf_read(const struct elf_file *f, void *buf, size_t len, u64 pos)
{
	long n;

	might_sleep();
	if (pos > f->size || len > f->size - pos)
		return -EIO;
	if (!f->inode) {
		memcpy(buf, f->data + pos, len);
		return 0;
	}
	n = inode_read(f->inode, buf, len, pos);
	return n == (long)len ? 0 : n < 0 ? (int)n : -EIO;
}

int open_exec(const struct linux_binprm *bprm, const char *name,
	      struct inode **inode)
{
	struct inode *root, *pwd;
	int err = 0;

	might_sleep();
	if (!*name && !bprm->empty_path)
		return -ENOENT;
	root = bprm->root ? iget(bprm->root) : get_fs_root(&init_fs);
	if (!root)
		return -ENOENT;
	pwd = bprm->pwd ? bprm->pwd : root;
	if (!*name)
		*inode = iget(pwd);	/* AT_EMPTY_PATH: the fd's file */
	else
		err = filename_lookup(root, pwd, name, LOOKUP_FOLLOW, inode);
	iput(root);
	if (err)
		return err;
	if (!S_ISREG((*inode)->i_mode) || !((*inode)->i_mode & 0111)) {
		iput(*inode);
		return -EACCES;
	}
	return 0;
}

/* elf_open - open_exec into an elf_file.  Context: task, sleeps. */
static int elf_open(const struct linux_binprm *bprm, const char *name,
		    struct elf_file *f)
{
	int err = open_exec(bprm, name, &f->inode);

	if (err)
		return err;
	f->data = NULL;
	f->size = READ_ONCE(f->inode->i_size);
	return 0;
}

static void close_exec(struct elf_file *f)
{
	if (f->inode)
		iput(f->inode);
}

/* load_elf_phdrs - step [2]: the header, the phdr table, the checks.
 * 0, -ENOEXEC, -EIO (shorter than a header), -ENOMEM.  Context: task,
 * sleeps.  Locking: none held (elf_read takes the tree lock). */
static int load_elf_phdrs(const struct elf_file *f, struct elf_image *img)
{
	size_t size;
	int err;

	might_sleep();
	img->ph = NULL;
	err = elf_read(f, &img->eh, sizeof(img->eh), 0);
	if (err)
		return err;	/* -EIO: the caller says what a short file is */
	if (elf_check_ehdr(&img->eh) || elf_phdrs_size(&img->eh, &size))
		return -ENOEXEC;
	img->ph = kmalloc(size, GFP_KERNEL);
	if (!img->ph)
		return -ENOMEM;
	err = elf_read(f, img->ph, size, img->eh.e_phoff);
	if (!err)
		err = elf_check_phdrs(&img->eh, img->ph, f->size, &img->lay);
	if (err) {
		kfree(img->ph);
		img->ph = NULL;
		return err == -EIO ? -ENOEXEC : err;	/* as Linux's NULL */
	}
	return 0;
}

/*
 * elf_map - map one PT_LOAD at p_vaddr + bias: fresh zeroed pages with
 * its permissions (NX unless PF_X), the file's p_filesz bytes copied in,
 * the rest (.bss) left zero.  The one place a segment becomes pages:
 * with the shared page cache this maps the file's pages instead, and
 * copies only the page a segment's file bytes and .bss share.
 * 0, -ENOEXEC (overlaps another segment), -EIO, -ENOMEM.
 * Context: task, sleeps; mm not running.  Locking: user_map_anon takes
 * mm->mmap_lock.
 */
static int elf_map(struct mm_struct *mm, const struct elf_file *f,
		   const struct elf64_phdr *ph, u64 bias)
{
	unsigned long vaddr = ph->p_vaddr + bias, start, end;
	unsigned int flags = 0;
	u64 done = 0;
	int err;

	might_sleep();
	start = ALIGN_DOWN(vaddr, PAGE_SIZE);
	end = ALIGN_UP(vaddr + ph->p_memsz, PAGE_SIZE);
	if (ph->p_flags & PF_W)
		flags |= MAP_WRITE;
	if (ph->p_flags & PF_X)
		flags |= MAP_EXEC;
	err = user_map_anon(mm, start, (end - start) / PAGE_SIZE, flags);
	if (err)
		return err == -EEXIST || err == -EINVAL ? -ENOEXEC : err;
	while (done < ph->p_filesz) {
		unsigned long va = vaddr + done;
		size_t chunk = PAGE_SIZE - (va & ~PAGE_MASK);
		u8 *dst = user_page_kaddr(mm, va);

		BUG_ON(!dst);		/* just mapped, and mm runs nowhere */
		if (chunk > ph->p_filesz - done)
			chunk = ph->p_filesz - done;
		err = elf_read(f, dst, chunk, ph->p_offset + done);
		if (err)
			return err;
		done += chunk;
	}
	return 0;
}

/* elf_map_segments - step [5]: every PT_LOAD of img at bias.  Context:
 * task, sleeps.  Locking: none held (elf_map's). */
static int elf_map_segments(struct mm_struct *mm, const struct elf_file *f,
			    const struct elf_image *img, u64 bias)
{
	might_sleep();
	for (int i = 0; i < img->eh.e_phnum; i++) {
		int err;

		if (img->ph[i].p_type != PT_LOAD || !img->ph[i].p_memsz)
			continue;
		err = elf_map(mm, f, &img->ph[i], bias);
		if (err)
			return err;	/* mm's pages go with the mm */
	}
	return 0;
}

/* read_interp_path - step [3]: PT_INTERP's string, kmalloc'd in *path.
 * 0, -ENOEXEC (no NUL at its end), -EIO, -ENOMEM.  Context: task,
 * sleeps.  Locking: none held. */
static int read_interp_path(const struct elf_file *f,
			    const struct elf64_phdr *ph, char **path)
{
	char *s;
	int err;

	might_sleep();
	s = kmalloc(ph->p_filesz, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	err = elf_read(f, s, ph->p_filesz, ph->p_offset);
	if (!err && s[ph->p_filesz - 1] != '\0')
		err = -ENOEXEC;
	if (err) {
		kfree(s);
		return err;
	}
	*path = s;
	return 0;
}

/* load_elf_interp - step [6]: the interpreter at path, ending at
 * ELF_INTERP_TOP (an ET_EXEC one at its own addresses); *base = its
 * lowest mapped address (AT_BASE), *entry = its entry.  -ELIBBAD when it
 * is no loadable ELF, or names an interpreter itself.  Context: task,
 * sleeps.  Locking: none held; holds a reference to the interpreter's
 * inode while it reads it. */
static int load_elf_interp(struct mm_struct *mm, const char *path,
			   unsigned long *base, unsigned long *entry)
{
	static const struct linux_binprm from_root;	/* walk from "/" */
	struct elf_file f;
	struct elf_image img;
	u64 bias;
	int err;

	might_sleep();
	err = elf_open(&from_root, path, &f);
	if (err)
		return err;
	err = load_elf_phdrs(&f, &img);
	if (err == -ENOEXEC)
		err = -ELIBBAD;
	if (err)
		goto out_close;
	err = -ELIBBAD;
	if (img.lay.interp >= 0)
		goto out_free;
	bias = elf_load_bias(&img.eh, &img.lay,
			     ELF_INTERP_TOP - (img.lay.hi - img.lay.lo));
	if (elf_check_span(&img.lay, bias, ELF_MIN_VADDR, ELF_STACK_GUARD))
		goto out_free;
	err = elf_map_segments(mm, &f, &img, bias);
	if (err)
		goto out_free;
	*base = img.lay.lo + bias;
	*entry = img.eh.e_entry + bias;
out_free:
	kfree(img.ph);
out_close:
	close_exec(&f);
	return err;
}

/* __load_elf_binary - steps [2]-[7] for the opened f; allow_interp false
 * refuses a PT_INTERP (elf_load's in-memory images).  Context: task,
 * sleeps.  Locking: none held. */
static int __load_elf_binary(struct mm_struct *mm, const struct elf_file *f,
			     struct linux_binprm *bprm, bool allow_interp)
{
	struct elf_image img;
	char *interp = NULL;
	u64 bias;
	int err;

	might_sleep();
	err = load_elf_phdrs(f, &img);					/* [2] */
	if (err == -EIO)
		err = -ENOEXEC;	/* Linux: no binfmt knows a file this short */
	if (err)
		return err;
	if (img.lay.interp >= 0) {					/* [3] */
		err = -ENOEXEC;
		if (!allow_interp)
			goto out_free;
		err = read_interp_path(f, &img.ph[img.lay.interp], &interp);
		if (err)
			goto out_free;
	}
	bias = elf_load_bias(&img.eh, &img.lay, ELF_ET_DYN_BASE);	/* [4] */
	err = elf_check_span(&img.lay, bias, ELF_MIN_VADDR, USER_MMAP_TOP);
	if (err)
		goto out_interp;
	err = elf_map_segments(mm, f, &img, bias);			/* [5] */
	if (err)
		goto out_interp;
	/* the heap (brk) starts at the program's page-aligned end, the
	 * bias added (a PIE's) */
	mm->start_brk = mm->brk = img.lay.hi + bias;
	bprm->e_entry = img.eh.e_entry + bias;				/* [7] */
	bprm->entry = bprm->e_entry;
	bprm->phdr = img.lay.phdr_vaddr ? img.lay.phdr_vaddr + bias : 0;
	bprm->phnum = img.eh.e_phnum;
	bprm->interp_base = 0;
	if (interp)							/* [6] */
		err = load_elf_interp(mm, interp, &bprm->interp_base,
				      &bprm->entry);
out_interp:
	kfree(interp);
out_free:
	kfree(img.ph);
	return err;
}

int load_elf_binary(struct mm_struct *mm, struct linux_binprm *bprm)
{
	struct elf_file f;
	int err;

	might_sleep();
	BUG_ON(!bprm->filename);
	err = elf_open(bprm, bprm_path(bprm), &f);			/* [1] */
	if (err)
		return err;
	err = __load_elf_binary(mm, &f, bprm, true);
	close_exec(&f);
	return err;
}

int elf_load(struct mm_struct *mm, const void *image, size_t size,
	     unsigned long *entry)
{
	struct elf_file f = { .inode = NULL, .data = image, .size = size };
	struct linux_binprm bprm = { .filename = "" };
	int err;

	might_sleep();
	err = __load_elf_binary(mm, &f, &bprm, false);
	if (!err)
		*entry = bprm.entry;
	return err;
}
