/*
 * kernel/version.h - version and the preemption model chosen at build
 * time (`make PREEMPT=none|voluntary|desktop|rt`, the article's
 * "High-Level Preemption-Option Selection").  The Makefile defines
 * exactly one CONFIG_PREEMPT_{NONE,VOLUNTARY,DESKTOP,RT}.
 */
#ifndef KERNEL_VERSION_H
#define KERNEL_VERSION_H

#define RTK_VERSION "0.1"

#if defined(CONFIG_PREEMPT_RT)
#define RTK_PREEMPT_NAME "RT"
#elif defined(CONFIG_PREEMPT_DESKTOP)
#define RTK_PREEMPT_NAME "DESKTOP"
#elif defined(CONFIG_PREEMPT_VOLUNTARY)
#define RTK_PREEMPT_NAME "VOLUNTARY"
#elif defined(CONFIG_PREEMPT_NONE)
#define RTK_PREEMPT_NAME "NONE"
#else
#error "build with make PREEMPT=none|voluntary|desktop|rt"
#endif

#endif /* KERNEL_VERSION_H */
