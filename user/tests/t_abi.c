/*
 * user/tests/t_abi.c - the system call ABI and errno values, checked
 * from user space (tests/kernel/test_user.c runs it; it also runs on a
 * Linux host, where the same answers are expected except where the
 * comment says rtk differs).  Each failed check prints one line "FAIL
 * <what>: expected X, got Y"; the exit status is the number of failures
 * (0: all passed).
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

static int failures, checks;

static void check(const char *what, long got, long expected)
{
	checks++;
	if (got != expected) {
		failures++;
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

#define KERNEL_ADDR ((void *)0xffffffff80100000UL)
#define NONCANON ((void *)0x0000800000000000UL)
#define UNMAPPED ((void *)0x1000UL)

static volatile double fpu_result[2];

/* fpu_work - floating point that a lost save/restore would corrupt:
 * both threads run it at once, each with its own numbers. */
static void *fpu_work(void *arg)
{
	long k = (long)arg;
	double x = 1.0 + k;

	for (int i = 0; i < 200000; i++) {
		x = x * 1.0000001 + 0.5 * k;
		if ((i & 1023) == 0)
			sched_yield();
	}
	fpu_result[k] = x;
	return NULL;
}

static double fpu_expected(long k)
{
	double x = 1.0 + k;

	for (int i = 0; i < 200000; i++)
		x = x * 1.0000001 + 0.5 * k;
	return x;
}

static int shared_counter;

static void *thread_fn(void *arg)
{
	__atomic_fetch_add(&shared_counter, (long)arg, __ATOMIC_SEQ_CST);
	return (void *)(long)(getpid() == gettid() ? -1 : 7);
}

int main(int argc, char **argv)
{
	struct timespec ts, ts2;
	struct sched_param sp = { 0 };
	cpu_set_t set = { { 0 } };
	char buf[16] = "ok\n";
	pthread_t th[2];
	void *res;
	char *m;

	(void)argc;
	(void)argv;
	/* identity */
	check("getpid == gettid in the main thread", getpid() == gettid(), 1);
	check("getpid > 0", getpid() > 0, 1);
	/* write */
	check("write fd 1", write(1, buf, 3), 3);
	check("write bad fd", write(7, buf, 3), -EBADF);
	check("write NULL buf", write(1, NULL, 3), -EFAULT);
	check("write kernel address", write(1, KERNEL_ADDR, 8), -EFAULT);
	check("write non-canonical", write(1, NONCANON, 8), -EFAULT);
	check("write 0 bytes", write(1, buf, 0), 0);
	/* unknown system calls */
	check("syscall 999", sys_call0(999), -ENOSYS);
	check("syscall -1", sys_call0(-1), -ENOSYS);
	/* clocks */
	check("clock_gettime MONOTONIC", clock_gettime(CLOCK_MONOTONIC, &ts), 0);
	check("clock_gettime bad clock", clock_gettime(77, &ts), -EINVAL);
	/* 1 ns: cyclictest's check for high-resolution timers */
	ts.tv_sec = ts.tv_nsec = -1;
	check("clock_getres MONOTONIC", clock_getres(CLOCK_MONOTONIC, &ts), 0);
	check("clock_getres MONOTONIC is 1 ns",
	      ts.tv_sec == 0 && ts.tv_nsec == 1, 1);
	check("clock_getres REALTIME", clock_getres(CLOCK_REALTIME, &ts), 0);
	check("clock_getres REALTIME is 1 ns", ts.tv_sec == 0 && ts.tv_nsec == 1,
	      1);
	check("clock_getres NULL", clock_getres(CLOCK_MONOTONIC, NULL), 0);
	check("clock_getres bad clock", clock_getres(77, &ts), -EINVAL);
	check("clock_getres kernel address",
	      clock_getres(CLOCK_MONOTONIC, KERNEL_ADDR), -EFAULT);
	check("clock_gettime NULL", clock_gettime(CLOCK_MONOTONIC, NULL), -EFAULT);
	check("clock_gettime kernel address",
	      clock_gettime(CLOCK_MONOTONIC, KERNEL_ADDR), -EFAULT);
	ts2.tv_sec = 0;
	ts2.tv_nsec = 1000000;
	check("nanosleep 1 ms", nanosleep(&ts2, NULL), 0);
	ts2.tv_nsec = 1000000000;
	check("nanosleep tv_nsec 1e9", nanosleep(&ts2, NULL), -EINVAL);
	ts2.tv_sec = -1;
	ts2.tv_nsec = 0;
	check("nanosleep tv_sec -1", nanosleep(&ts2, NULL), -EINVAL);
	check("nanosleep NULL", nanosleep(NULL, NULL), -EFAULT);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += 2000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	check("clock_nanosleep absolute",
	      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &ts2);
	check("clock_nanosleep absolute: woke at or after the deadline",
	      ts2.tv_sec > ts.tv_sec ||
		      (ts2.tv_sec == ts.tv_sec && ts2.tv_nsec >= ts.tv_nsec), 1);
	check("clock_nanosleep absolute in the past",
	      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL), 0);
	check("clock_nanosleep bad clock",
	      clock_nanosleep(42, 0, &ts, NULL), -EINVAL);
	check("clock_nanosleep bad flags",
	      clock_nanosleep(CLOCK_MONOTONIC, 2, &ts, NULL), -EINVAL);
	/* scheduling */
	check("sched_getscheduler self", sched_getscheduler(0), SCHED_OTHER);
	check("sched_getscheduler -1", sched_getscheduler(-1), -EINVAL);
	check("sched_getscheduler no such pid", sched_getscheduler(999999), -ESRCH);
	sp.sched_priority = 10;
	check("sched_setscheduler FIFO 10", sched_setscheduler(0, SCHED_FIFO, &sp), 0);
	check("sched_getscheduler after", sched_getscheduler(0), SCHED_FIFO);
	sp.sched_priority = 0;
	check("sched_getparam", sched_getparam(0, &sp), 0);
	check("sched_getparam priority", sp.sched_priority, 10);
	sp.sched_priority = 100;
	check("sched_setscheduler FIFO 100", sched_setscheduler(0, SCHED_FIFO, &sp), -EINVAL);
	sp.sched_priority = 5;
	check("sched_setscheduler OTHER 5", sched_setscheduler(0, SCHED_OTHER, &sp), -EINVAL);
	check("sched_setscheduler bad policy", sched_setscheduler(0, 9, &sp), -EINVAL);
	check("sched_setscheduler NULL param", sched_setscheduler(0, SCHED_FIFO, NULL), -EINVAL);
	check("sched_setscheduler bad param",
	      sched_setscheduler(0, SCHED_FIFO, (void *)UNMAPPED), -EFAULT);
	sp.sched_priority = 0;
	check("sched_setscheduler back to OTHER", sched_setscheduler(0, SCHED_OTHER, &sp), 0);
	check("sched_yield", sched_yield(), 0);
	check("sched_getaffinity", sched_getaffinity(0, sizeof(set), &set), 8);
	check("sched_getaffinity has CPU 0", (long)(set.bits[0] & 1), 1);
	check("sched_setaffinity all", sched_setaffinity(0, sizeof(set), &set), 0);
	check("sched_setaffinity short", sched_setaffinity(0, 4, &set), -EINVAL);
	set.bits[0] = 0;
	check("sched_setaffinity empty", sched_setaffinity(0, sizeof(set), &set), -EINVAL);
	check("sched_setaffinity bad mask",
	      sched_setaffinity(0, sizeof(set), (void *)UNMAPPED), -EFAULT);
	/* memory */
	m = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("mmap anonymous", mmap_failed(m), 0);
	if (!mmap_failed(m)) {
		check("mmap zeroed", m[0] | m[3 * 4096 - 1], 0);
		m[0] = 'x';
		m[3 * 4096 - 1] = 'y';
		check("mmap readable back", m[0] + m[3 * 4096 - 1], 'x' + 'y');
		check("write from mmap", write(1, m + 3 * 4096 - 1, 1), 1);
		check("munmap", munmap(m, 3 * 4096), 0);
		check("write from unmapped", write(1, m, 1), -EFAULT);
	}
	check("mmap W+X", (long)mmap(NULL, 4096, PROT_WRITE | PROT_EXEC,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), -EACCES);
	check("mmap of a closed fd", (long)mmap(NULL, 4096, PROT_READ,
						MAP_PRIVATE, 3, 0), -EBADF);
	check("mmap length 0", (long)mmap(NULL, 0, PROT_READ,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), -EINVAL);
	check("munmap unaligned", munmap((void *)0x10001, 4096), -EINVAL);
	check("munmap length 0", munmap((void *)0x10000, 0), -EINVAL);
	/* threads */
	check("pthread_create", pthread_create(&th[0], NULL, thread_fn, (void *)5), 0);
	check("pthread_join", pthread_join(th[0], &res), 0);
	check("thread ran with its own tid", (long)res, 7);
	check("thread shares memory", shared_counter, 5);
	/* a process sharing our memory (posix_spawn's CLONE_VM without
	 * CLONE_THREAD) is not made; a fork is t_fork's */
	check("clone CLONE_VM without CLONE_THREAD",
	      sys_call2(__NR_clone, CLONE_VM, 0), -ENOSYS);
	check("clone THREAD without SIGHAND",
	      sys_call2(__NR_clone, CLONE_VM | CLONE_THREAD, 0), -EINVAL);
	/* FPU state is per thread */
	pthread_create(&th[0], NULL, fpu_work, (void *)0);
	pthread_create(&th[1], NULL, fpu_work, (void *)1);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	check("FPU thread 0", fpu_result[0] == fpu_expected(0), 1);
	check("FPU thread 1", fpu_result[1] == fpu_expected(1), 1);
	/* kill */
	check("kill sig 0 self", kill(getpid(), 0), 0);
	check("kill bad signal", kill(getpid(), 65), -EINVAL);
	check("kill no such pid", kill(999999, 9), -ESRCH);
	printf("t_abi: %d checks, %d failed\n", checks, failures);
	return failures;
}
