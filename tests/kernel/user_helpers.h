/*
 * tests/kernel/user_helpers.h - the user-mode suites' shared steps
 * (user_helpers.c): run a program of the initramfs, skip without it, and
 * check that its exit gave the kernel's memory back.
 */
#ifndef TESTS_KERNEL_USER_HELPERS_H
#define TESTS_KERNEL_USER_HELPERS_H

#include "lib/types.h"

struct ktest;
struct process;

/* user_have_program - false, and the case skipped, when name is not in
 * the initramfs (a boot without -initrd). */
bool user_have_program(struct ktest *t, const char *name);

/* user_spawn - start "name arg..." (a space-separated line, split in
 * place; at most 8 words); NULL on error (a failed expectation). */
struct process *user_spawn(struct ktest *t, char *line);

/* user_run - spawn cmd, wait, return the wait status (-1: no process). */
int user_run(struct ktest *t, const char *cmd);

/* user_expect_exit_zero - run program name (no arguments), which exits
 * with its count of failed checks; skips when it is absent. */
void user_expect_exit_zero(struct ktest *t, const char *name);

struct mem_snap {
	unsigned long pages;	/* free + slab pages */
	unsigned long objs;	/* slab objects in use */
	int mms;		/* mm_structs alive */
};

/* user_count_exiting - sched_for_each_task callback: counts (int *arg)
 * the tasks that are TASK_DEAD or PF_EXITING. */
struct task_struct;
void user_count_exiting(struct task_struct *p, void *arg);

/* user_exits_settled - wait until no exited thread is still on its way
 * out, then run the delayed releases (the race is drawn at the body). */
void user_exits_settled(void);

/* user_snap - the memory figures once every exit has settled. */
void user_snap(struct mem_snap *s);

/* user_expect_pages_back - pages and slab objects as in a (b: taken now). */
void user_expect_pages_back(struct ktest *t, const struct mem_snap *a,
			    struct mem_snap *b);

/* user_expect_same - pages, slab objects and mm_structs as in a. */
void user_expect_same(struct ktest *t, const struct mem_snap *a);

#endif /* TESTS_KERNEL_USER_HELPERS_H */
