/*
 * lib/compiler.h - compiler attributes and the small helper macros every
 * file uses: likely/unlikely, barrier, READ_ONCE/WRITE_ONCE,
 * container_of, ARRAY_SIZE, ALIGN_UP/ALIGN_DOWN, section markers,
 * _RET_IP_/_THIS_IP_.
 *
 * GCC/Clang only (statement expressions, typeof, __attribute__).
 * Linux counterpart: include/linux/compiler.h, compiler_attributes.h,
 * include/linux/init.h (__init), include/linux/container_of.h,
 * include/linux/align.h, include/linux/instruction_pointer.h.  rtk
 * leaves out the sparse annotations and the KCSAN instrumentation of
 * READ_ONCE.
 */
#ifndef LIB_COMPILER_H
#define LIB_COMPILER_H

#include "lib/types.h"	/* offsetof; bool for headers that use it */

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* barrier - compiler barrier: no memory access moves across it.  The
 * C11 signal fence is exactly that (gcc and clang emit no instruction,
 * the same as an empty asm with a "memory" clobber) and keeps lib/ free
 * of inline assembly. */
#define barrier()	__atomic_signal_fence(__ATOMIC_SEQ_CST)

/*
 * READ_ONCE/WRITE_ONCE - exactly one access of x, not torn, not merged,
 * not re-read.  Only for scalar types (1, 2, 4 or 8 bytes).
 */
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)                                              \
	do {                                                            \
		*(volatile __typeof__(x) *)&(x) = (val);                \
	} while (0)

#define __packed		__attribute__((__packed__))
#define __aligned(n)		__attribute__((__aligned__(n)))
#define __noreturn		__attribute__((__noreturn__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __used			__attribute__((__used__))
#define __unused		__attribute__((__unused__))
#define __maybe_unused		__attribute__((__unused__))
/* glibc's sys/cdefs.h has the same __always_inline; the host tests see both */
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define noinline		__attribute__((__noinline__))
#define __section(s)		__attribute__((__section__(s)))

/* _RET_IP_ - the calling function's return address (the lock or
 * preempt-off site lockdep and the latency tracer record); _THIS_IP_ -
 * this point in the code.  Linux: include/linux/instruction_pointer.h. */
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))
#define _THIS_IP_ ({ __label__ __here; __here: (unsigned long)&&__here; })
#define __must_check		__attribute__((__warn_unused_result__))

/*
 * __init - boot-only code, placed in .init.text (the linker script keeps
 * it together so it could be freed after boot).  __initdata likewise
 * for data.
 */
#define __init			__section(".init.text")
#define __initdata		__section(".init.data")

/* ARRAY_SIZE - element count of a true array (not a pointer). */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * container_of - the structure of type `type` whose member `member` is at
 * `ptr`.  The assignment to __mptr type-checks ptr against the member.
 */
#define container_of(ptr, type, member)                                 \
	({                                                              \
		const __typeof__(((type *)0)->member) *__mptr = (ptr);  \
		(type *)((char *)__mptr - offsetof(type, member));      \
	})

/* ALIGN_UP/ALIGN_DOWN - round x to a multiple of a (a power of two). */
#define ALIGN_UP(x, a)	 (((x) + ((__typeof__(x))(a) - 1)) & \
			  ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

/* min/max: both arguments evaluated once. */
#define min(a, b)                                                       \
	({                                                              \
		__typeof__(a) __a = (a);                                \
		__typeof__(b) __b = (b);                                \
		__a < __b ? __a : __b;                                  \
	})
#define max(a, b)                                                       \
	({                                                              \
		__typeof__(a) __a = (a);                                \
		__typeof__(b) __b = (b);                                \
		__a > __b ? __a : __b;                                  \
	})

#endif /* LIB_COMPILER_H */
