/*
 * lib/types.h - fixed-width integer types, bool, size_t, uintptr_t.
 *
 * Taken from the compiler's freestanding headers (stdint.h, stddef.h,
 * stdbool.h), so the same file serves the kernel and the host tests.
 * Linux counterpart: include/linux/types.h, include/uapi/asm-generic/
 * int-ll64.h (rtk leaves out the __bitwise endian types and the
 * userspace __u32 spellings).
 */
#ifndef LIB_TYPES_H
#define LIB_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/* ssize_t: a size or a negative errno, as in Linux. */
typedef long ssize_t;

#endif /* LIB_TYPES_H */
