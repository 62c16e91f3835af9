/*
 * kernel/fs/tty_console.h - /dev/console's file operations for programs
 * (kernel/fs/tty_console.c: the line discipline and termios calls).
 */
#ifndef KERNEL_FS_TTY_CONSOLE_H
#define KERNEL_FS_TTY_CONSOLE_H

#include "lib/compiler.h"

struct file_operations;

/* console_fops - what chrdev_fops (devices.c) gives for 5:1. */
extern const struct file_operations console_fops;

/* tty_console_init - the console's termios at Linux's defaults.
 * Context: boot, before the first program runs. */
void tty_console_init(void);

#endif /* KERNEL_FS_TTY_CONSOLE_H */
