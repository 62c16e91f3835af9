/*
 * tests/host/test_mmap_checks.c - mmap's and mprotect's argument checks
 * (kernel/mm/mmap_checks.c) give Linux's errno for each bad argument, in
 * Linux's order when several are bad, and the page count otherwise.
 * The values were checked against Linux 6.x with user/tests/t_mmap.c
 * run on the host.
 */
#include "tests/host/check.h"
#include "kernel/mm/mmap_checks.h"
#include "kernel/user/uapi.h"
#include "lib/errno.h"

#define TASK 0x00007FFFFFFFF000UL	/* x86_64's USER_ADDR_END */
#define PG MMAP_PAGE_SIZE
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)
#define RW (PROT_READ | PROT_WRITE)

static unsigned long np;

static int args(unsigned long addr, unsigned long len, unsigned long prot,
		unsigned long flags, unsigned long off)
{
	np = 0;
	return mmap_check_args(addr, len, prot, flags, off, TASK, &np);
}

static void test_mmap_args_round_len_up_to_pages(void)
{
	CHECK_EQ(args(0, 1, RW, ANON, 0), 0);
	CHECK_EQ(np, 1UL);
	CHECK_EQ(args(0, PG, RW, ANON, 0), 0);
	CHECK_EQ(np, 1UL);
	CHECK_EQ(args(0, 128UL << 20, PROT_NONE, ANON | MAP_NORESERVE, 0), 0);
	CHECK_EQ(np, 32768UL);
	CHECK_EQ(args(0x10000, 30, RW, MAP_SHARED | MAP_FIXED, PG), 0);
	CHECK_EQ(np, 1UL);
}

static void test_mmap_bad_args_get_linux_errnos(void)
{
	CHECK_EQ(args(0, PG, RW, ANON, 100), -EINVAL);	/* offset */
	CHECK_EQ(args(0, 0, RW, ANON, 0), -EINVAL);	/* len 0 */
	CHECK_EQ(args(0, PG, RW, MAP_ANONYMOUS, 0), -EINVAL);	/* no type */
	CHECK_EQ(args(0, PG, RW, 0x0f | MAP_ANONYMOUS, 0), -EINVAL);
	CHECK_EQ(args(0, 1UL << 62, PROT_READ, ANON, 0), -ENOMEM);
	CHECK_EQ(args(0, -1UL, PROT_READ, ANON, 0), -ENOMEM);	/* wraps */
	CHECK_EQ(args(0x10001, PG, RW, ANON | MAP_FIXED, 0), -EINVAL);
	CHECK_EQ(args(TASK - PG, 2 * PG, RW, ANON | MAP_FIXED, 0), -ENOMEM);
	CHECK_EQ(args(TASK, PG, RW, ANON | MAP_FIXED_NOREPLACE, 0), -ENOMEM);
	CHECK_EQ(args(0, PG, 0x40, ANON, 0), -EINVAL);	/* unknown prot */
	CHECK_EQ(args(0, PG, PROT_WRITE | PROT_EXEC, ANON, 0), -EACCES);
	/* several wrong: the offset first, then the type, then len */
	CHECK_EQ(args(0, 0, 0x40, 0, 100), -EINVAL);
	CHECK_EQ(args(0x10001, 0, RW, ANON | MAP_FIXED, 0), -EINVAL);
	CHECK_EQ(args(0x10001, 1UL << 62, RW, ANON | MAP_FIXED, 0), -ENOMEM);
}

static int file(unsigned int mode, unsigned int acc, unsigned long prot,
		unsigned long flags)
{
	return mmap_check_file(mode, acc, prot, flags, 0, PG);
}

static void test_mmap_file_needs_a_regular_file_open_for_it(void)
{
	unsigned int reg = S_IFREG | 0644;

	CHECK_EQ(file(reg, O_RDONLY, PROT_READ, MAP_PRIVATE), 0);
	CHECK_EQ(file(reg, O_RDONLY, RW, MAP_PRIVATE), 0);
	CHECK_EQ(file(reg, O_RDONLY, RW, MAP_SHARED), -EACCES);
	CHECK_EQ(file(reg, O_RDONLY, PROT_READ, MAP_SHARED), 0);
	CHECK_EQ(file(reg, O_RDWR, RW, MAP_SHARED), 0);
	CHECK_EQ(file(reg, O_WRONLY, PROT_READ, MAP_PRIVATE), -EACCES);
	CHECK_EQ(file(S_IFCHR | 0666, O_RDWR, PROT_READ, MAP_PRIVATE), -ENODEV);
	CHECK_EQ(file(S_IFDIR | 0755, O_RDONLY, PROT_READ, MAP_PRIVATE),
		 -ENODEV);
	/* the range must end below 2^63 (Linux's MAX_LFS_FILESIZE) */
	CHECK_EQ(mmap_check_file(reg, O_RDONLY, PROT_READ, MAP_PRIVATE,
				 1UL << 60, PG), 0);
	CHECK_EQ(mmap_check_file(reg, O_RDONLY, PROT_READ, MAP_PRIVATE,
				 (1UL << 63) - PG, PG), -EOVERFLOW);
	CHECK_EQ(mmap_check_file(reg, O_RDONLY, PROT_READ, MAP_PRIVATE,
				 -PG, PG), -EOVERFLOW);
}

static int mprot(unsigned long start, unsigned long len, unsigned long prot)
{
	np = 99;
	return mprotect_check_args(start, len, prot, TASK, &np);
}

static void test_mprotect_args_as_linux(void)
{
	CHECK_EQ(mprot(0x10000, 132 * 1024, RW), 0);
	CHECK_EQ(np, 33UL);
	CHECK_EQ(mprot(0x10001, PG, RW), -EINVAL);
	CHECK_EQ(mprot(0x10000, 0, 0x40), 0);	/* len 0 before prot */
	CHECK_EQ(np, 0UL);
	CHECK_EQ(mprot(0x10000, PG, 0x40), -EINVAL);
	CHECK_EQ(mprot(TASK - PG, 2 * PG, PROT_READ), -ENOMEM);
	CHECK_EQ(mprot(0x10000, -1UL, PROT_READ), -ENOMEM);
	CHECK_EQ(mprot(0x10000, PG, PROT_WRITE | PROT_EXEC), -EACCES);
}

int main(void)
{
	return check_run("mmap_checks", (struct check_case[]){
		CHECK_CASE(test_mmap_args_round_len_up_to_pages),
		CHECK_CASE(test_mmap_bad_args_get_linux_errnos),
		CHECK_CASE(test_mmap_file_needs_a_regular_file_open_for_it),
		CHECK_CASE(test_mprotect_args_as_linux),
		{ 0 } });
}
