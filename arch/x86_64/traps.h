/*
 * arch/x86_64/traps.h - the CPU exceptions (vectors 0..31): names,
 * counters and the hooks other subsystems plug into the oops path.
 *
 * Spec: Intel SDM Vol. 3A 6.3.1 Table 6-1 (exception vectors), 6.15
 * (exception descriptions), 4.7 (page-fault error code).
 * Linux counterpart: arch/x86/include/asm/trapnr.h, asm/traps.h.
 */
#ifndef ARCH_X86_64_TRAPS_H
#define ARCH_X86_64_TRAPS_H

#include "lib/types.h"
#include "arch/x86_64/ptrace.h"

/* Exception vectors (Linux's X86_TRAP_* names). */
#define X86_TRAP_DE	0	/* divide error */
#define X86_TRAP_DB	1	/* debug */
#define X86_TRAP_NMI	2	/* non-maskable interrupt */
#define X86_TRAP_BP	3	/* breakpoint (int3) */
#define X86_TRAP_OF	4	/* overflow (into) */
#define X86_TRAP_BR	5	/* bound range exceeded */
#define X86_TRAP_UD	6	/* invalid opcode */
#define X86_TRAP_NM	7	/* device not available */
#define X86_TRAP_DF	8	/* double fault */
#define X86_TRAP_OLD_MF	9	/* coprocessor segment overrun */
#define X86_TRAP_TS	10	/* invalid TSS */
#define X86_TRAP_NP	11	/* segment not present */
#define X86_TRAP_SS	12	/* stack segment fault */
#define X86_TRAP_GP	13	/* general protection fault */
#define X86_TRAP_PF	14	/* page fault */
#define X86_TRAP_MF	16	/* x87 floating-point error */
#define X86_TRAP_AC	17	/* alignment check */
#define X86_TRAP_MC	18	/* machine check */
#define X86_TRAP_XF	19	/* SIMD floating-point exception */
#define X86_TRAP_VE	20	/* virtualization exception */
#define X86_TRAP_CP	21	/* control protection */
#define X86_TRAP_VC	29	/* VMM communication */

/* Page-fault error code bits (Intel SDM Vol. 3A 4.7). */
#define X86_PF_PROT	(1UL << 0)	/* 0: page not present, 1: protection */
#define X86_PF_WRITE	(1UL << 1)	/* 0: read, 1: write */
#define X86_PF_USER	(1UL << 2)	/* 0: supervisor, 1: user mode */
#define X86_PF_RSVD	(1UL << 3)	/* reserved bit set in a paging entry */
#define X86_PF_INSTR	(1UL << 4)	/* instruction fetch (with NX/SMEP) */
#define X86_PF_PK	(1UL << 5)	/* protection key */
#define X86_PF_SHSTK	(1UL << 6)	/* shadow-stack access */

/* trap_dispatch - the C side of every IDT entry (trap_entry.asm):
 * exceptions are handled here, vectors >= 32 go to irq_vector_dispatch.
 * Context: hardirq/exception, interrupts off. */
void trap_dispatch(struct pt_regs *regs);

/* trap_vector_name - "page fault" for 14, "interrupt" for >= 32. */
const char *trap_vector_name(int vector);
/* trap_vector_mnemonic - "#PF" for 14, "" when the vector has none. */
const char *trap_vector_mnemonic(int vector);

/* trap_count - how often vector (0..255) was taken since boot, on all
 * CPUs together (the per-CPU split comes with the interrupt core). */
u64 trap_count(int vector);

/*
 * nmi_last_regs - per CPU, where the last NMI's pt_regs were (on the NMI
 * IST stack: test_exceptions checks it).  An NMI is a panic's stop
 * (smp_stop_nmi, ipi.c) or is reported as "NMI received" and ignored.
 */
extern unsigned long nmi_last_regs[];
/*
 * debug_last_regs - per CPU, where the last kernel-mode single-step #DB's
 * pt_regs were (on the #DB IST stack); debug_last_gs_base - MSR_GS_BASE
 * as that handler saw it (the kernel's, even when the #DB hit with the
 * user's GS: the paranoid check).  For tests/kernel/test_debug_trap.c.
 */
extern unsigned long debug_last_regs[];
extern u64 debug_last_gs_base;

/* show_regs - print regs as an oops does: RIP symbolised, every GPR,
 * the control registers.  Context: any. */
void show_regs(const struct pt_regs *regs);

#endif /* ARCH_X86_64_TRAPS_H */
