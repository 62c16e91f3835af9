/*
 * kernel/fs/user_path.h - paths from system calls: the user string and
 * the directory fd it is relative to (kernel/fs/user_path.c).
 * Linux counterpart: include/linux/namei.h, include/linux/fs.h (getname).
 */
#ifndef KERNEL_FS_USER_PATH_H
#define KERNEL_FS_USER_PATH_H

#include "kernel/fs/fs.h"
#include "arch/x86_64/arch.h"

/* the root and start directory of one *at call, both referenced */
struct at_path {
	struct inode *root;
	struct inode *start;
};

char *getname_flags(const char __user *filename, bool empty_ok, int *err);
char *getname(const char __user *filename, int *err);
void putname(char *name);
int at_path_get(int dfd, const char *path, struct at_path *ap);
void at_path_put(struct at_path *ap);
int user_path_at(int dfd, const char __user *upath, unsigned int flags,
		 bool empty_ok, struct inode **out);

#endif /* KERNEL_FS_USER_PATH_H */
