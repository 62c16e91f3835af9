/*
 * lib/errno.h - error numbers, with the Linux values, returned negated
 * ("return -EINVAL") by every function that can fail recoverably.
 *
 * Linux counterpart: include/uapi/asm-generic/errno-base.h and errno.h
 * (rtk keeps only the numbers it uses or that a student would expect).
 */
#ifndef LIB_ERRNO_H
#define LIB_ERRNO_H

#define EPERM		1	/* operation not permitted */
#define ENOENT		2	/* no such entry */
#define ESRCH		3	/* no such task */
#define EINTR		4	/* interrupted (signal, wakeup) */
#define EIO		5	/* I/O error */
#define ENXIO		6	/* no such device or address */
#define E2BIG		7	/* argument list / string too long */
#define ENOEXEC		8	/* exec format error */
#define EBADF		9	/* bad handle */
#define ECHILD		10	/* no child */
#define EAGAIN		11	/* try again (would block) */
#define EWOULDBLOCK	EAGAIN
#define ENOMEM		12	/* out of memory */
#define EACCES		13	/* permission denied */
#define EFAULT		14	/* bad address */
#define EBUSY		16	/* resource busy */
#define EEXIST		17	/* already exists */
#define ENODEV		19	/* no such device */
#define ENOTDIR		20	/* not a directory */
#define EISDIR		21	/* is a directory */
#define EINVAL		22	/* invalid argument */
#define ENFILE		23	/* table overflow */
#define EMFILE		24	/* too many open handles */
#define ENOTTY		25	/* inappropriate ioctl */
#define EFBIG		27	/* too large */
#define ENOSPC		28	/* no space left */
#define ESPIPE		29	/* illegal seek */
#define EROFS		30	/* read-only */
#define EPIPE		32	/* broken pipe */
#define EDOM		33	/* argument out of domain */
#define ERANGE		34	/* result out of range */
#define EDEADLK		35	/* deadlock would occur */
#define ENAMETOOLONG	36	/* name too long */
#define ENOLCK		37	/* no locks available */
#define ENOSYS		38	/* not implemented */
#define ENOTEMPTY	39	/* not empty */
#define ELOOP		40	/* too many levels / chain too deep */
#define ENODATA		61	/* no data available */
#define ETIME		62	/* timer expired */
#define EOVERFLOW	75	/* value too large for type */
#define ELIBBAD		80	/* accessing a corrupted shared library */
#define EPROTONOSUPPORT	93	/* protocol not supported */
#define ESOCKTNOSUPPORT	94	/* socket type not supported */
#define EOPNOTSUPP	95	/* operation not supported */
#define EAFNOSUPPORT	97	/* address family not supported */
#define ENOTSUPP	EOPNOTSUPP
#define ETIMEDOUT	110	/* timed out */
#define EALREADY	114	/* already in progress */
#define EINPROGRESS	115	/* now in progress */
#define ECANCELED	125	/* operation cancelled */
#define EOWNERDEAD	130	/* lock owner died */

/* Kernel-internal restart codes (include/linux/errno.h): a system call
 * interrupted by a signal returns one; the return to user turns it into
 * -EINTR or a restart of the call (kernel/user/signal_deliver.c) and a
 * program never sees it. */
#define ERESTARTSYS		512	/* restart if SA_RESTART, else EINTR */
#define ERESTARTNOINTR		513	/* always restart */
#define ERESTARTNOHAND		514	/* restart if no handler ran */
#define ERESTART_RESTARTBLOCK	516	/* as NOHAND in rtk (no restart_block) */

#endif /* LIB_ERRNO_H */
