/*
 * user/lib/pthread.c - threads: create with clone on an mmap'ed stack,
 * join by waiting on the TID word the kernel clears, the thread pointer,
 * and scheduling by handle.  See pthread.h for the API.
 *
 * Stack mapping of one thread (map_len bytes, one mmap):
 *
 *	map                                           map + map_len
 *	| guard page | stack, grows down <-  | struct pthread |
 *	               (stack_top, 16-aligned) ^
 *
 * The guard page is made PROT_NONE with mprotect when the kernel has it
 * (an overflow then faults instead of writing over another thread);
 * without mprotect the thread still runs, unguarded.
 *
 * Join and exit (the handshake glibc uses, Linux kernel/fork.c
 * mm_release()):
 *	joiner				thread t
 *	tid = READ(t->tid)		...returns from start()
 *	tid != 0: FUTEX_WAIT(&t->tid,	exit(): the kernel writes
 *		  tid)			  t->tid = 0, FUTEX_WAKE(&t->tid)
 *	READ(t->tid) == 0: t no longer
 *	  touches its stack: munmap
 * FUTEX_WAIT returns at once if the word is no longer tid, so a wake
 * between the read and the wait is not lost.
 */
#include "user/lib/pthread.h"
#include "user/lib/sys.h"
#include "lib/errno.h"
#include "lib/string.h"

#define PAGE_SIZE 4096

#define CLONE_THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
			    CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | \
			    CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)

long __clone_thread(unsigned long flags, void *stack_top, u32 *parent_tid,
		    u32 *child_tid, unsigned long tls, int (*fn)(void *arg),
		    void *arg);

static struct pthread main_thread;
/* false if arch_prctl(ARCH_SET_FS) failed: the main thread has no %fs */
static bool main_has_tls;

void pthread_init_main(void)
{
	main_thread.self = &main_thread;
	main_thread.tid = gettid();
	main_has_tls = arch_prctl(ARCH_SET_FS, (unsigned long)&main_thread) == 0;
}

static struct pthread *fs_self(void)
{
	struct pthread *self;

	asm volatile("movq %%fs:0, %0" : "=r"(self));
	return self;
}

/*
 * pthread_self - new threads always have %fs (CLONE_SETTLS); the main
 * thread has it unless arch_prctl failed, and then it is the thread
 * whose TID is the main thread's.
 */
pthread_t pthread_self(void)
{
	if (likely(main_has_tls) || gettid() != (int)main_thread.tid)
		return fs_self();
	return &main_thread;
}

int pthread_self_tid(void)
{
	return READ_ONCE(pthread_self()->tid);
}

int pthread_tid(pthread_t t)
{
	return READ_ONCE(t->tid);
}

int pthread_attr_init(pthread_attr_t *attr)
{
	attr->stacksize = 0;
	return 0;
}

int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size)
{
	if (size < 2 * PAGE_SIZE)
		return -EINVAL;
	attr->stacksize = size;
	return 0;
}

/* thread_start - the new thread's first C function (from clone.S). */
static int thread_start(void *arg)
{
	struct pthread *t = arg;

	t->result = t->start(t->arg);
	return 0;
}

/*
 * pthread_create - [1] map guard + stack + struct pthread; [2] fill the
 * struct at the top; [3] clone: the kernel writes the TID into t->tid
 * before the child runs (CLONE_PARENT_SETTID) and clears it at exit.
 */
int pthread_create(pthread_t *tp, const pthread_attr_t *attr,
		   void *(*fn)(void *arg), void *arg)
{
	size_t stack = attr && attr->stacksize ? attr->stacksize :
						 PTHREAD_STACK_DEFAULT;
	size_t len = ALIGN_UP(PAGE_SIZE + stack + sizeof(struct pthread),
			      PAGE_SIZE);
	struct pthread *t;
	void *map;
	long ret;

	map = mmap(NULL, len, PROT_READ | PROT_WRITE,		/* [1] */
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mmap_failed(map))
		return (int)(long)map;
	sys_call3(__NR_mprotect, (long)map, PAGE_SIZE, PROT_NONE);

	t = (struct pthread *)((char *)map + len) - 1;		/* [2] */
	memset(t, 0, sizeof(*t));
	t->self = t;
	t->start = fn;
	t->arg = arg;
	t->map = map;
	t->map_len = len;

	ret = __clone_thread(CLONE_THREAD_FLAGS, t, &t->tid, &t->tid,	/* [3] */
			     (unsigned long)t, thread_start, t);
	if (ret < 0) {
		munmap(map, len);
		return (int)ret;
	}
	*tp = t;
	return 0;
}

int pthread_join(pthread_t t, void **result)
{
	u32 tid;

	if (t == pthread_self())
		return -EDEADLK;
	while ((tid = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE)) != 0)
		futex(&t->tid, FUTEX_WAIT, tid, NULL, NULL, 0);
	if (result)
		*result = t->result;
	return munmap(t->map, t->map_len);
}

int pthread_setschedparam(pthread_t t, int policy,
			  const struct sched_param *param)
{
	return sched_setscheduler(pthread_tid(t), policy, param);
}

int pthread_setaffinity_np(pthread_t t, size_t size, const cpu_set_t *set)
{
	return sched_setaffinity(pthread_tid(t), size, set);
}

int pin_self_to_cpu(int cpu)
{
	cpu_set_t set = { { 0 } };

	if (cpu < 0 || cpu >= (int)(8 * sizeof(set.bits[0])))
		return -EINVAL;
	set.bits[0] = 1UL << cpu;
	return sched_setaffinity(0, sizeof(set), &set);
}

int set_self_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, SCHED_FIFO, &sp);
}

static unsigned long allowed_mask(void)
{
	/* Linux refuses a buffer shorter than its possible-CPU mask
	 * (nr_cpu_ids bits): ask with 1024 bits, use the first 64 */
	unsigned long bits[16] = { 0 };

	/* Linux returns the bytes written; a kernel returning 0 is fine */
	if (sched_getaffinity(0, sizeof(bits), (cpu_set_t *)bits) < 0 ||
	    !bits[0])
		return 1;	/* unknown: CPU 0 only */
	return bits[0];
}

int nr_cpus_allowed(void)
{
	return __builtin_popcountl(allowed_mask());
}

int nth_cpu_allowed(int n)
{
	unsigned long mask = allowed_mask();
	int cpu;

	n %= __builtin_popcountl(mask);
	for (cpu = 0;; cpu++)
		if ((mask >> cpu) & 1 && n-- == 0)
			return cpu;
}
