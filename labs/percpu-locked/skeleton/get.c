/*
 * Exercise: a lock per CPU copy (article, "Per-CPU Variables").
 * FALLBACK (correct and slow: one global lock): CPU 0's copy of
 * name##_lock guards every CPU's copy of the variable, so any two users
 * of the variable exclude each other, on whatever CPUs and copies they
 * work: the per-CPU data is as contended as a global.
 * Write: per_cpu_lock(var, cpu) names CPU cpu's own lock;
 * get_per_cpu_locked(var, cpu) evaluates cpu once, checks it
 * (__percpu_locked_check_cpu), takes that CPU's lock with spin_lock()
 * and yields that CPU's copy as an lvalue; put_per_cpu_locked releases
 * the lock get took.
 */
#define per_cpu_lock(var, cpu) per_cpu(var##_lock, 0)
#define per_cpu_locked(var, cpu) per_cpu(var##_locked, (cpu))

#define get_per_cpu_locked(var, cpu)                                         \
	(*({                                                                 \
		int __pcl_cpu = __percpu_locked_check_cpu(cpu);              \
		spin_lock(&per_cpu_lock(var, 0));                            \
		&per_cpu_locked(var, __pcl_cpu);                             \
	}))

#define put_per_cpu_locked(var, cpu) spin_unlock(&per_cpu_lock(var, 0))
