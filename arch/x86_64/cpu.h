/*
 * arch/x86_64/cpu.h - CPU registers and instructions: CPUID, MSRs,
 * control registers, TSC, halt/pause.
 *
 * Spec: Intel SDM Vol. 2 (CPUID, RDMSR/WRMSR, RDTSC), Vol. 3A 2.5
 * (control registers).  Linux counterpart: asm/processor.h, asm/msr.h.
 */
#ifndef ARCH_X86_64_CPU_H
#define ARCH_X86_64_CPU_H

#include "lib/types.h"

#define MSR_EFER		0xC0000080
#define EFER_LME		(1ULL << 8)	/* long mode enable */
#define EFER_NXE		(1ULL << 11)	/* no-execute (PTE_NX) */
#define MSR_FS_BASE		0xC0000100
#define MSR_GS_BASE		0xC0000101
#define MSR_KERNEL_GS_BASE	0xC0000102
#define MSR_APIC_BASE		0x0000001B
#define MSR_TSC_DEADLINE	0x000006E0

#define X86_CR0_MP		(1UL << 1)	/* WAIT honours TS */
#define X86_CR0_EM		(1UL << 2)	/* x87 emulation: off */
#define X86_CR0_TS		(1UL << 3)	/* task switched: lazy FPU */
#define X86_CR0_NE		(1UL << 5)	/* native x87 errors (#MF) */
#define X86_CR0_WP		(1UL << 16)
#define X86_CR4_PGE		(1UL << 7)
#define X86_CR4_OSFXSR		(1UL << 9)	/* FXSAVE/FXRSTOR, SSE on */
#define X86_CR4_OSXMMEXCPT	(1UL << 10)	/* SSE exceptions as #XM */
#define X86_CR4_SMEP		(1UL << 20)	/* no ring-0 fetch from user pages */
#define X86_CR4_SMAP		(1UL << 21)	/* no ring-0 access to user pages */
#define EFER_SCE		(1ULL << 0)	/* SYSCALL/SYSRET enabled */
#define MSR_STAR		0xC0000081	/* SYSCALL/SYSRET selectors */
#define MSR_LSTAR		0xC0000082	/* 64-bit SYSCALL entry */
#define MSR_SYSCALL_MASK	0xC0000084	/* RFLAGS bits SYSCALL clears */

struct cpuid_regs {
	u32 eax, ebx, ecx, edx;
};

static inline void cpuid_count(u32 leaf, u32 sub, struct cpuid_regs *r)
{
	__asm__ volatile("cpuid"
			 : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx), "=d"(r->edx)
			 : "a"(leaf), "c"(sub));
}

static inline void cpuid(u32 leaf, struct cpuid_regs *r)
{
	cpuid_count(leaf, 0, r);
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 val)
{
	__asm__ volatile("wrmsr"
			 :
			 : "c"(msr), "a"((u32)val), "d"((u32)(val >> 32))
			 : "memory");
}

static inline u64 read_cr0(void)
{
	u64 v;

	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr2(void)
{
	u64 v;

	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr3(void)
{
	u64 v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(u64 v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline u64 read_cr4(void)
{
	u64 v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr4(u64 v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

/* DR6 (Intel SDM Vol. 3B 18.2.3): what caused the last #DB.  The CPU
 * never clears it; the handler writes DR6_RESERVED back (Linux: the
 * same in exc_debug, debug_read_clear_dr6). */
#define DR6_BS		(1UL << 14)	/* single step (TF) */
#define DR6_RESERVED	0xFFFF0FF0UL	/* the bits that read as 1 */

static inline unsigned long read_dr6(void)
{
	unsigned long v;

	__asm__ volatile("mov %%dr6, %0" : "=r"(v));
	return v;
}

static inline void write_dr6(unsigned long v)
{
	__asm__ volatile("mov %0, %%dr6" : : "r"(v) : "memory");
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

/* rdtsc_ordered - RDTSC that cannot be hoisted above earlier loads
 * (LFENCE orders it on Intel and on AMD with LFENCE serialising). */
static inline u64 rdtsc_ordered(void)
{
	__asm__ volatile("lfence" ::: "memory");
	return rdtsc();
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

static inline void halt(void)
{
	__asm__ volatile("hlt" ::: "memory");
}

static inline void invlpg(unsigned long addr)
{
	__asm__ volatile("invlpg (%0)" : : "r"(addr) : "memory");
}

static inline unsigned long read_rflags(void)
{
	unsigned long f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

#define X86_EFLAGS_TF (1UL << 8)
#define X86_EFLAGS_IF (1UL << 9)
#define X86_EFLAGS_DF (1UL << 10)
#define X86_EFLAGS_NT (1UL << 14)
#define X86_EFLAGS_RF (1UL << 16)
#define X86_EFLAGS_AC (1UL << 18)
#define X86_EFLAGS_IOPL (3UL << 12)

#endif /* ARCH_X86_64_CPU_H */
