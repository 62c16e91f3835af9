/*
 * tests/kernel/test_user_exec.c - program loading (issue 29 item 5): PIE
 * programs, PT_INTERP through a symlink, the initial stack's argv, envp
 * and auxv, programs by path, and Linux's errno for every bad input.
 *
 * The good cases run the programs of user/pie/ (user/user.mk), which
 * check their own initial stack and report by exit status (what failed
 * is printed above the KTAP line).  The bad cases write crafted ELF
 * images into the file system under /t_exec.*, start them, expect the
 * errno load_elf_binary gives (kernel/user/elf_loader.h) and that the
 * kernel's memory is back after the failed starts; they need no
 * initramfs (but for -E2BIG, which needs a program that loads: /hello).
 */
#include "kernel/ktest.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/deferred.h"
#include "kernel/user/elf.h"
#include "kernel/user/process.h"
#include "lib/errno.h"
#include "lib/string.h"

static char *const exec_envp[] = { "HOME=/", "TERM=linux", "RTK_EXEC=yes",
				   NULL };

/* start_and_wait - run argv (NULL-terminated) with exec_envp: its wait
 * status, or the negative errno of a start that failed. */
static int start_and_wait(char *const argv[])
{
	struct process *p;
	int argc = 0, err = 0, status;

	while (argv[argc])
		argc++;
	p = process_spawn_env(argc, argv, exec_envp, &err);
	if (!p)
		return err;
	status = process_wait(p);
	process_put(p);
	return status;
}

/* start_or_skip - start_and_wait, the test skipped when argv[0] is not
 * in the file system (no initramfs). */
static int start_or_skip(struct ktest *t, char *const argv[])
{
	int ret = start_and_wait(argv);

	if (ret == -ENOENT)
		ktest_skip(t, "no initramfs or no user/pie program (boot with -initrd)");
	return ret;
}

/* t_pie checks AT_PHDR, AT_ENTRY, AT_RANDOM, AT_PAGESZ, AT_PLATFORM,
 * AT_EXECFN, argv and envp itself (user/pie/t_pie.c), by name and by
 * path. */
static void test_exec_static_pie_sees_linux_auxv_argv_envp(struct ktest *t)
{
	char *const by_name[] = { "t_pie", "alpha", "beta", NULL };
	char *const by_path[] = { "/t_pie", "alpha", "beta", NULL };

	KTEST_EXPECT_EQ(t, start_or_skip(t, by_name), W_EXITCODE(0, 0));
	KTEST_EXPECT_EQ(t, start_or_skip(t, by_path), W_EXITCODE(0, 0));
}

/*
 * Scenario: /t_pie_interp is a PIE whose PT_INTERP names
 * /lib64/ld-rtk-test.so, a symlink to ../t_ldso.  The kernel must load
 * both and start t_ldso, which checks AT_BASE is its own load base and
 * AT_ENTRY / AT_PHDR the program's (exit 100 + failures otherwise), then
 * jumps to AT_ENTRY; t_pie then checks its side, AT_BASE included
 * (exit = its failures).  Expected: exit 0.
 */
static void test_exec_pt_interp_starts_interpreter_at_at_base(struct ktest *t)
{
	char *const argv[] = { "/t_pie_interp", "alpha", "beta", NULL };

	KTEST_EXPECT_EQ(t, start_or_skip(t, argv), W_EXITCODE(0, 0));
}

/* rtk's own static ET_EXEC programs by path and through a symlink. */
static void test_exec_static_program_by_path_and_symlink(struct ktest *t)
{
	char *const by_path[] = { "/hello", "x", NULL };
	char *const by_link[] = { "/t_exec.hello", NULL };
	struct inode *root;

	KTEST_EXPECT_EQ(t, start_or_skip(t, by_path), W_EXITCODE(0, 0));
	root = get_fs_root(&init_fs);
	KTEST_ASSERT(t, root, "no root");
	KTEST_EXPECT_EQ(t, do_symlinkat("hello", root, root, "/t_exec.hello"), 0);
	KTEST_EXPECT_EQ(t, start_and_wait(by_link), W_EXITCODE(0, 0));
	do_unlinkat(root, root, "/t_exec.hello");
	iput(root);
}

/* A one-segment ELF at 0x400000, with a PT_INTERP naming interp unless
 * that is NULL.  Never run: each case breaks something first. */
struct test_elf {
	struct elf64_ehdr eh;
	struct elf64_phdr ph[2];
	char interp[48];
};

static void make_elf(struct test_elf *img, const char *interp)
{
	memset(img, 0, sizeof(*img));
	memcpy(img->eh.e_ident, "\177ELF\2\1\1", 7);
	img->eh.e_type = ET_EXEC;
	img->eh.e_machine = EM_X86_64;
	img->eh.e_version = 1;
	img->eh.e_entry = 0x400000;
	img->eh.e_phoff = offsetof(struct test_elf, ph);
	img->eh.e_ehsize = sizeof(img->eh);
	img->eh.e_phentsize = sizeof(struct elf64_phdr);
	img->eh.e_phnum = 1;
	img->ph[0].p_type = PT_LOAD;
	img->ph[0].p_flags = PF_R | PF_X;
	img->ph[0].p_vaddr = 0x400000;
	img->ph[0].p_filesz = sizeof(*img);
	img->ph[0].p_memsz = sizeof(*img);
	img->ph[0].p_align = 0x1000;
	if (interp) {
		strscpy(img->interp, interp, sizeof(img->interp));
		img->eh.e_phnum = 2;
		img->ph[1].p_type = PT_INTERP;
		img->ph[1].p_offset = offsetof(struct test_elf, interp);
		img->ph[1].p_filesz = strlen(interp) + 1;
	}
}

/* put_file - a regular file at path with len bytes of data. */
static void put_file(struct ktest *t, struct inode *root, const char *path,
		     const void *data, size_t len)
{
	struct inode *inode;
	int err = path_openat(root, root, path, O_CREAT | O_WRONLY | O_TRUNC,
			      0755, &inode);

	KTEST_ASSERT(t, !err, "create %s: %d", path, err);
	KTEST_EXPECT_EQ(t, inode_write(inode, data, len, 0), (long)len);
	iput(inode);
}

/* expect_spawn_errno - starting path must fail with err. */
static void expect_spawn_errno(struct ktest *t, const char *path, int err,
			       const char *what)
{
	char *const argv[] = { (char *)path, NULL };
	int ret = start_and_wait(argv);

	KTEST_EXPECT(t, ret == err, "%s (%.40s, %zu bytes): expected %d, got %d",
		     what, path, strlen(path), err, ret);
}

/* kernel_pages - free + slab pages and slab objects, once the delayed
 * releases of the failed starts are done. */
static void kernel_pages(unsigned long *pages, unsigned long *objs)
{
	unsigned long slab_pages;

	deferred_flush();
	slab_drain_all();
	kmem_cache_totals(objs, &slab_pages);
	*pages = pmm_nr_free_pages() + slab_pages;
}

static const char *const bad_files[] = {
	"/t_exec.magic", "/t_exec.phoff", "/t_exec.filesz", "/t_exec.khalf",
	"/t_exec.phnum", "/t_exec.wx", "/t_exec.eof", "/t_exec.empty",
	"/t_exec.nointerp", "/t_exec.text", "/t_exec.notelf",
	"/t_exec.nested", "/t_exec.nested_ld", "/t_exec.nonul",
	"/t_exec.loop1", "/t_exec.loop2", "/t_exec.viloop", "/t_exec.short",
	"/t_exec.shortld", "/t_exec.dirld",
};

/* expect_e2big - an environment over a quarter of the stack (Linux's
 * limit on argv + envp, elf_tables.c ELF_ARG_MAX) is -E2BIG, for a
 * program that loads. */
static void expect_e2big(struct ktest *t)
{
	const size_t len = 64 * 1024;
	char *big = kmalloc(len, GFP_KERNEL);
	char *envp[] = { big, NULL };
	char *argv[] = { "/hello", NULL };
	struct process *p;
	int err = 0;

	KTEST_ASSERT(t, big, "no memory");
	memset(big, 'x', len - 1);
	big[len - 1] = '\0';
	memcpy(big, "BIG=", 4);
	p = process_spawn_env(1, argv, envp, &err);
	if (!p && err == -ENOENT) {	/* no initramfs: nothing loads */
		kfree(big);
		return;
	}
	KTEST_EXPECT(t, !p && err == -E2BIG, "64 KiB of envp: expected -E2BIG, got %d",
		     err);
	if (p) {
		process_wait(p);
		process_put(p);
	}
	kfree(big);
}

/* Each malformed program, missing or broken interpreter, symlink loop
 * and over-long path gets Linux's errno; nothing is left allocated. */
static void test_exec_bad_input_gets_linux_errno(struct ktest *t)
{
	static struct test_elf img;	/* 200 bytes: off the stack */
	static char text[96], longpath[PATH_MAX + 16];
	unsigned long pages0, objs0, pages1, objs1;
	struct inode *root = get_fs_root(&init_fs);
	int mms0;

	KTEST_ASSERT(t, root, "no root");
	kernel_pages(&pages0, &objs0);
	mms0 = mm_count_live();

	make_elf(&img, NULL);
	img.eh.e_ident[1] = 'X';
	put_file(t, root, "/t_exec.magic", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.magic", -ENOEXEC, "bad magic");

	make_elf(&img, NULL);
	img.eh.e_phoff = sizeof(img) - 8;
	put_file(t, root, "/t_exec.phoff", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.phoff", -ENOEXEC, "phdrs out of the file");

	make_elf(&img, NULL);
	img.ph[0].p_memsz = img.ph[0].p_filesz - 1;
	put_file(t, root, "/t_exec.filesz", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.filesz", -ENOEXEC, "p_filesz > p_memsz");

	make_elf(&img, NULL);
	img.ph[0].p_vaddr = 0xffff800000000000UL;
	put_file(t, root, "/t_exec.khalf", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.khalf", -ENOEXEC, "segment in the kernel half");

	make_elf(&img, NULL);
	img.eh.e_phnum = 0xffff;
	put_file(t, root, "/t_exec.phnum", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.phnum", -ENOEXEC, "e_phnum 65535");

	make_elf(&img, NULL);
	img.ph[0].p_flags = PF_R | PF_W | PF_X;
	put_file(t, root, "/t_exec.wx", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.wx", -ENOEXEC, "writable and executable");

	make_elf(&img, NULL);
	img.ph[0].p_filesz = img.ph[0].p_memsz = 0x10000;
	put_file(t, root, "/t_exec.eof", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.eof", -ENOEXEC, "segment past the end of the file");

	put_file(t, root, "/t_exec.empty", "", 0);
	expect_spawn_errno(t, "/t_exec.empty", -ENOEXEC, "empty file");

	make_elf(&img, "/t_exec.no-such-ld.so");
	put_file(t, root, "/t_exec.nointerp", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.nointerp", -ENOENT, "missing interpreter");

	memset(text, '#', sizeof(text));
	put_file(t, root, "/t_exec.text", text, sizeof(text));
	make_elf(&img, "/t_exec.text");
	put_file(t, root, "/t_exec.notelf", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.notelf", -ELIBBAD, "interpreter not ELF");

	put_file(t, root, "/t_exec.short", text, 16);
	make_elf(&img, "/t_exec.short");
	put_file(t, root, "/t_exec.shortld", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.shortld", -EIO, "interpreter shorter than a header");

	make_elf(&img, "/t_exec.nointerp");	/* an ELF with a PT_INTERP */
	put_file(t, root, "/t_exec.nested", &img, sizeof(img));
	make_elf(&img, "/t_exec.nested");
	put_file(t, root, "/t_exec.nested_ld", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.nested_ld", -ELIBBAD, "interpreter with PT_INTERP");

	make_elf(&img, "/t_exec.nointerp");
	img.interp[img.ph[1].p_filesz - 1] = 'x';	/* its NUL */
	put_file(t, root, "/t_exec.nonul", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.nonul", -ENOEXEC, "PT_INTERP without its NUL");

	KTEST_EXPECT_EQ(t, do_symlinkat("t_exec.loop2", root, root, "/t_exec.loop1"), 0);
	KTEST_EXPECT_EQ(t, do_symlinkat("t_exec.loop1", root, root, "/t_exec.loop2"), 0);
	expect_spawn_errno(t, "/t_exec.loop1", -ELOOP, "symlink loop");
	make_elf(&img, "/t_exec.loop1");
	put_file(t, root, "/t_exec.viloop", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.viloop", -ELOOP, "interpreter through a loop");

	memset(longpath, 'a', NAME_MAX + 2);
	longpath[0] = '/';
	longpath[NAME_MAX + 2] = '\0';
	expect_spawn_errno(t, longpath, -ENAMETOOLONG, "component over NAME_MAX");
	for (size_t i = 0; i < PATH_MAX + 8; i += 2) {
		longpath[i] = '/';
		longpath[i + 1] = 'a';
	}
	longpath[PATH_MAX + 8] = '\0';
	expect_spawn_errno(t, longpath, -ENAMETOOLONG, "path of PATH_MAX bytes");
	expect_spawn_errno(t, "/", -EACCES, "a directory");
	make_elf(&img, "/dev");	/* a directory every boot has */
	put_file(t, root, "/t_exec.dirld", &img, sizeof(img));
	expect_spawn_errno(t, "/t_exec.dirld", -EACCES, "a directory as interpreter");
	expect_e2big(t);
	expect_spawn_errno(t, "", -ENOENT, "an empty path");

	for (unsigned int i = 0; i < ARRAY_SIZE(bad_files); i++)
		do_unlinkat(root, root, bad_files[i]);
	iput(root);
	kernel_pages(&pages1, &objs1);
	KTEST_EXPECT(t, pages1 == pages0, "free+slab pages back to %lu, saw %lu",
		     pages0, pages1);
	KTEST_EXPECT(t, objs1 == objs0, "slab objects back to %lu, saw %lu",
		     objs0, objs1);
	KTEST_EXPECT_EQ(t, mm_count_live(), mms0);
}

KTEST_SUITE(user_exec,
	    KTEST_CASE(test_exec_static_pie_sees_linux_auxv_argv_envp),
	    KTEST_CASE(test_exec_pt_interp_starts_interpreter_at_at_base),
	    KTEST_CASE(test_exec_static_program_by_path_and_symlink),
	    KTEST_CASE(test_exec_bad_input_gets_linux_errno));
