/*
 * kernel/user/elf_tables.c - a new program's initial stack: argc, argv,
 * envp and the auxiliary vector, as Linux's create_elf_tables lays it out
 * (x86-64 psABI 3.4.1 figure 3.9, 3.4.3 the auxv).
 *
 * From USER_STACK_TOP down:
 *	a NULL word			Linux's end marker
 *	AT_EXECFN's path		bprm->filename
 *	the envp strings, the argv strings
 *	"x86_64"			AT_PLATFORM
 *	16 random bytes			AT_RANDOM (glibc's stack guard and
 *					pointer guard: it reads them blindly)
 *	(padding to 16)
 *	AT_NULL 0, auxv pairs ...	ascending addresses from argc:
 *	NULL, envp[envc - 1] .. envp[0]
 *	NULL, argv[argc - 1] .. argv[0]
 *	argc				<- RSP, 16-byte aligned (psABI 3.4.1)
 *
 * create_elf_tables():
 *   [1] the stack mapped (USER_STACK_PAGES below USER_STACK_TOP);
 *   [2] the strings copied up there, their user addresses kept;
 *   [3] the platform string and the random bytes;
 *   [4] the vector built in kernel memory, its base rounded down to 16,
 *       copied in; bprm->p = its base.
 * Linux counterpart: fs/binfmt_elf.c create_elf_tables, fs/exec.c
 * copy_strings.  rtk leaves out AT_SYSINFO_EHDR (no vDSO), AT_HWCAP2,
 * AT_MINSIGSTKSZ, AT_RSEQ_*; AT_RANDOM's bytes are not from an entropy
 * pool (rtk has none): a mix of the boot clock, not for cryptography.
 */
#include "kernel/user/elf_loader.h"
#include "kernel/user/elf.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/user_mm.h"
#include "kernel/sched/sched.h"
#include "kernel/time/ktime.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

#define ELF_PLATFORM	"x86_64"
#define ELF_CLKTCK	100	/* USER_HZ: times(2)'s tick, what glibc expects */
#define ELF_NR_AUXV	18	/* the pairs below, AT_NULL included */

/* copy_to_new_mm - write len bytes at user address uaddr of mm, page by
 * page through the direct map (mm is not loaded on any CPU).
 * Context: task; mm not running.  Locking: none (nobody else sees mm). */
static int copy_to_new_mm(struct mm_struct *mm, unsigned long uaddr,
			  const void *src, size_t len)
{
	const u8 *s = src;

	while (len) {
		size_t chunk = PAGE_SIZE - (uaddr & ~PAGE_MASK);
		u8 *dst = user_page_kaddr(mm, uaddr);

		if (!dst)
			return -EFAULT;
		if (chunk > len)
			chunk = len;
		memcpy(dst, s, chunk);
		s += chunk;
		uaddr += chunk;
		len -= chunk;
	}
	return 0;
}

/* push_string - step [2]: s below *p; its user address in *uaddr. */
static int push_string(struct mm_struct *mm, unsigned long *p,
		       const char *s, u64 *uaddr)
{
	size_t len = strlen(s) + 1;

	*p -= len;
	*uaddr = *p;
	return copy_to_new_mm(mm, *p, s, len);
}

/* arg_bytes - what argv and envp cost against ELF_ARG_MAX. */
static size_t arg_bytes(const struct linux_binprm *bprm)
{
	size_t n = strlen(bprm->filename) + 1;

	for (int i = 0; i < bprm->argc; i++)
		n += strlen(bprm->argv[i]) + 1 + sizeof(u64);
	for (int i = 0; i < bprm->envc; i++)
		n += strlen(bprm->envp[i]) + 1 + sizeof(u64);
	return n;
}

/* fill_random - AT_RANDOM's 16 bytes: splitmix64 over the boot clock and
 * a per-call counter (distinct per exec; predictable, see the header).
 * Context: any.  Locking: none (the counter is atomic). */
static void fill_random(u64 out[2])
{
	static u64 calls;
	u64 x = (u64)ktime_get() ^
		(__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) << 32);

	for (int i = 0; i < 2; i++) {
		u64 z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		out[i] = z ^ (z >> 31);
	}
}

int create_elf_tables(struct mm_struct *mm, struct linux_binprm *bprm)
{
	unsigned long p = USER_STACK_TOP - sizeof(u64);
	u64 execfn, platform, random, *vec, *w, rnd[2];
	size_t nwords;
	int err;

	might_sleep();
	BUG_ON(bprm->argc < 0 || bprm->envc < 0 || !bprm->filename);
	if (arg_bytes(bprm) > ELF_ARG_MAX)
		return -E2BIG;
	nwords = 1 + bprm->argc + 1 + bprm->envc + 1 + 2 * ELF_NR_AUXV;
	vec = kmalloc(nwords * sizeof(u64), GFP_KERNEL);
	if (!vec)
		return -ENOMEM;
	err = user_map_anon(mm, USER_STACK_TOP - USER_STACK_PAGES * PAGE_SIZE,
			    USER_STACK_PAGES, MAP_WRITE);		/* [1] */
	if (err)
		goto out_free;
	w = vec;
	*w++ = (u64)bprm->argc;
	err = push_string(mm, &p, bprm->filename, &execfn);		/* [2] */
	/* envp first, so the argv strings end up lowest (Linux's order) */
	for (int i = bprm->envc - 1; !err && i >= 0; i--)
		err = push_string(mm, &p, bprm->envp[i],
				  &w[bprm->argc + 1 + i]);
	for (int i = bprm->argc - 1; !err && i >= 0; i--)
		err = push_string(mm, &p, bprm->argv[i], &w[i]);
	if (!err)
		err = push_string(mm, &p, ELF_PLATFORM, &platform);	/* [3] */
	if (err)
		goto out_free;
	fill_random(rnd);
	p = ALIGN_DOWN(p - sizeof(rnd), 16);
	random = p;
	err = copy_to_new_mm(mm, random, rnd, sizeof(rnd));
	if (err)
		goto out_free;
	w += bprm->argc;						/* [4] */
	*w++ = 0;
	w += bprm->envc;
	*w++ = 0;
#define NEW_AUX_ENT(id, val) do { *w++ = (id); *w++ = (u64)(val); } while (0)
	NEW_AUX_ENT(AT_HWCAP, arch_elf_hwcap());
	NEW_AUX_ENT(AT_PAGESZ, PAGE_SIZE);
	NEW_AUX_ENT(AT_CLKTCK, ELF_CLKTCK);
	NEW_AUX_ENT(AT_PHDR, bprm->phdr);
	NEW_AUX_ENT(AT_PHENT, sizeof(struct elf64_phdr));
	NEW_AUX_ENT(AT_PHNUM, bprm->phnum);
	NEW_AUX_ENT(AT_BASE, bprm->interp_base);
	NEW_AUX_ENT(AT_FLAGS, 0);
	NEW_AUX_ENT(AT_ENTRY, bprm->e_entry);
	NEW_AUX_ENT(AT_UID, 0);
	NEW_AUX_ENT(AT_EUID, 0);
	NEW_AUX_ENT(AT_GID, 0);
	NEW_AUX_ENT(AT_EGID, 0);
	NEW_AUX_ENT(AT_SECURE, 0);
	NEW_AUX_ENT(AT_RANDOM, random);
	NEW_AUX_ENT(AT_EXECFN, execfn);
	NEW_AUX_ENT(AT_PLATFORM, platform);
	NEW_AUX_ENT(AT_NULL, 0);
#undef NEW_AUX_ENT
	BUG_ON(w != vec + nwords);
	p = ALIGN_DOWN(p - nwords * sizeof(u64), 16);
	err = copy_to_new_mm(mm, p, vec, nwords * sizeof(u64));
	if (!err)
		bprm->p = p;
out_free:
	kfree(vec);
	return err;
}
