/*
 * tests/host/test_stat_abi.c - the records kernel/fs/stat_abi.c packs
 * for user space, checked against x86_64 Linux's layout: struct stat is
 * 144 bytes with its fields at Linux's offsets (arch/x86/include/uapi/
 * asm/stat.h), dev_t is encoded as new_encode_dev does, and a
 * linux_dirent64 record is padded to 8 with its name NUL-terminated and
 * refused when it does not fit.
 */
#include "tests/host/check.h"
#include "kernel/fs/stat_abi.h"
#include "kernel/fs/tree_lock.h"
#include "kernel/mm/slab.h"
#include "lib/compiler.h"
#include "lib/string.h"

static void test_struct_stat_has_linux_x86_64_layout(void)
{
	CHECK_EQ(sizeof(struct stat), 144);
	CHECK_EQ(offsetof(struct stat, st_ino), 8);
	CHECK_EQ(offsetof(struct stat, st_nlink), 16);
	CHECK_EQ(offsetof(struct stat, st_mode), 24);
	CHECK_EQ(offsetof(struct stat, st_uid), 28);
	CHECK_EQ(offsetof(struct stat, st_rdev), 40);
	CHECK_EQ(offsetof(struct stat, st_size), 48);
	CHECK_EQ(offsetof(struct stat, st_blksize), 56);
	CHECK_EQ(offsetof(struct stat, st_blocks), 64);
	CHECK_EQ(offsetof(struct stat, st_atime), 72);
	CHECK_EQ(offsetof(struct stat, st_ctime_nsec), 112);
	CHECK_EQ(offsetof(struct stat, __reserved), 120);
	CHECK_EQ(offsetof(struct linux_dirent64, d_reclen), 16);
	CHECK_EQ(offsetof(struct linux_dirent64, d_type), 18);
	CHECK_EQ(offsetof(struct linux_dirent64, d_name), 19);
	CHECK_EQ(sizeof(struct termios), 36);
}

static void test_dev_t_is_encoded_as_new_encode_dev(void)
{
	CHECK_EQ(new_encode_dev(MKDEV(5, 1)), 0x501);
	CHECK_EQ(new_encode_dev(MKDEV(1, 3)), 0x103);
	CHECK_EQ(new_encode_dev(MKDEV(10, 62)), 0xa3e);
	/* minor 300: its low byte first, the rest above the major */
	CHECK_EQ(new_encode_dev(MKDEV(8, 300)), 0x10082c);
}

static void test_cp_new_stat_of_a_file_a_device_and_a_directory(void)
{
	struct inode *file, *dev, *dir;
	struct stat st;

	fs_tree_write_lock();
	file = new_inode(S_IFREG | 0644);
	dev = new_inode(S_IFCHR | 0600);
	dir = new_inode(S_IFDIR | 0755);

	file->i_size = 4097;
	file->i_nlink = 1;
	cp_new_stat(file, &st);
	CHECK_EQ(st.st_mode, S_IFREG | 0644);
	CHECK_EQ(st.st_ino, file->i_ino);
	CHECK_EQ(st.st_size, 4097);
	CHECK_EQ(st.st_blksize, 4096);
	CHECK_EQ(st.st_blocks, 16);	/* two pages, in 512-byte units */
	CHECK_EQ(st.st_nlink, 1);
	CHECK_EQ(st.st_rdev, 0);
	dev->i_rdev = MKDEV(5, 1);
	cp_new_stat(dev, &st);
	CHECK_EQ(st.st_rdev, 0x501);
	CHECK_EQ(st.st_size, 0);
	dir->i_size = 3;		/* entries, not bytes */
	cp_new_stat(dir, &st);
	CHECK_EQ(st.st_size, 0);
	CHECK_EQ(st.st_blocks, 0);
	fs_tree_write_unlock();
	file->i_nlink = 0;		/* as if unlinked: iput frees it */
	dev->i_nlink = 0;
	iput(file);
	iput(dev);
	iput(dir);
}

static void test_dirent64_records_are_padded_and_refused_when_full(void)
{
	char buf[64];
	struct linux_dirent64 *d = (void *)buf;

	memset(buf, 0x55, sizeof(buf));
	CHECK_EQ(dirent64_emit(buf, sizeof(buf), 7, 1, S_IFDIR, ".", 1), 24);
	CHECK_EQ(d->d_ino, 7);
	CHECK_EQ(d->d_off, 1);
	CHECK_EQ(d->d_reclen, 24);
	CHECK_EQ(d->d_type, DT_DIR);
	CHECK_STR(d->d_name, ".");
	CHECK_EQ(buf[23], 0);		/* padding zeroed */
	/* 19 + 5 + NUL = 25 -> 32 */
	CHECK_EQ(dirent64_emit(buf, 32, 8, 2, S_IFREG, "hello", 5), 32);
	CHECK_EQ(d->d_type, DT_REG);
	CHECK_STR(d->d_name, "hello");
	CHECK_EQ(dirent64_emit(buf, 31, 8, 2, S_IFREG, "hello", 5), 0);
	CHECK_EQ(fs_umode_to_dtype(S_IFLNK | 0777), 10);
	CHECK_EQ(fs_umode_to_dtype(S_IFCHR), 2);
}

int main(void)
{
	return check_run("stat_abi", (struct check_case[]){
		CHECK_CASE(test_struct_stat_has_linux_x86_64_layout),
		CHECK_CASE(test_dev_t_is_encoded_as_new_encode_dev),
		CHECK_CASE(test_cp_new_stat_of_a_file_a_device_and_a_directory),
		CHECK_CASE(test_dirent64_records_are_padded_and_refused_when_full),
		{ 0 } });
}
