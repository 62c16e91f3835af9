/*
 * arch/x86_64/gdt.c - build and load each CPU's GDT and TSS.
 *
 * Layout of every CPU's GDT (Intel SDM Vol. 3A 3.4.5, 7.2.3):
 *	0x00  null
 *	0x08  kernel code, 64-bit (L=1, D=0), DPL 0
 *	0x10  kernel data, DPL 0 (base and limit are ignored in 64-bit mode)
 *	0x18  TSS descriptor, 16 bytes (type 9: available 64-bit TSS)
 *	0x28  user code, 32-bit, DPL 3 (never loaded: SYSRET's base slot)
 *	0x30  user data, DPL 3
 *	0x38  user code, 64-bit, DPL 3
 * The TSS gives RSP0, the current task's kernel stack for an interrupt
 * in ring 3 (set at each switch), and the Interrupt Stack Table: NMI,
 * #DF and #MC switch to the IST stack
 * named in their IDT gate (arch/x86_64/idt.c), so a kernel stack
 * overflow (#PF cannot push its frame -> #DF) still gets a working stack
 * to print the oops on.
 * Linux counterpart: arch/x86/kernel/cpu/common.c (load_direct_gdt,
 * cpu_init_exception_handling), asm/desc_defs.h.  rtk leaves out the
 * 32-bit (compat) and per-CPU-GS descriptors and the I/O bitmap.
 */
#include "arch/x86_64/gdt.h"
#include "lib/bug.h"
#include "lib/compiler.h"
#include "lib/string.h"

/* 64-bit TSS, Intel SDM Vol. 3A Figure 7-11. */
struct tss {
	u32 reserved0;
	u64 rsp[3];		/* RSP0..2: stack on a privilege change */
	u64 reserved1;
	u64 ist[7];		/* IST1..7 */
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;		/* >= limit: no I/O permission bitmap */
} __packed;

struct gdt_ptr {
	u16 limit;
	u64 base;
} __packed;

#define GDT_ENTRIES 8	/* null, code, data, TSS (two slots), 3 user */

/* One CPU's descriptor tables; written only by that CPU's bring-up. */
struct cpu_gdt {
	u64 gdt[GDT_ENTRIES];
	struct tss tss;
} __aligned(64);

static struct cpu_gdt cpu_gdt[GDT_MAX_CPUS];

/* The boot CPU's IST stacks (APs bring their own). */
static u8 bsp_ist_stack[IST_COUNT][IST_STACK_SIZE] __aligned(16);

/*
 * Code: P=1 DPL=0 S=1 type=0xA (execute/read), L=1.  Data: P=1 DPL=0 S=1
 * type=0x2 (read/write).  G and the limit are set so the same values also
 * work as 32-bit descriptors (they equal boot_gdt's).
 */
#define GDT_DESC_KERNEL_CODE 0x00AF9A000000FFFFULL
#define GDT_DESC_KERNEL_DATA 0x00CF92000000FFFFULL
/* The same with DPL 3 (bits 45-46): 0x9A -> 0xFA, 0x92 -> 0xF2; the
 * 32-bit placeholder has D=1, L=0. */
#define GDT_DESC_USER_CODE32 0x00CFFA000000FFFFULL
#define GDT_DESC_USER_DATA 0x00CFF2000000FFFFULL
#define GDT_DESC_USER_CODE 0x00AFFA000000FFFFULL
#define TSS_TYPE_AVAILABLE 0x9
#define DESC_PRESENT (1ULL << 47)

const struct cpu_stacks *gdt_bsp_stacks(void)
{
	static struct cpu_stacks bsp;

	for (int i = 0; i < IST_COUNT; i++)
		bsp.ist_top[i] = (unsigned long)&bsp_ist_stack[i][IST_STACK_SIZE];
	return &bsp;
}

/* tss_descriptor - the two GDT words describing the TSS at base. */
static void tss_descriptor(u64 desc[2], u64 base, u32 limit)
{
	desc[0] = (limit & 0xFFFFULL) | ((base & 0xFFFFFFULL) << 16) |
		  ((u64)TSS_TYPE_AVAILABLE << 40) | DESC_PRESENT |
		  ((u64)((limit >> 16) & 0xF) << 48) |
		  (((base >> 24) & 0xFFULL) << 56);
	desc[1] = base >> 32;	/* high dword of desc[1] is reserved, 0 */
}

/*
 * load_gdt - LGDT, then reload every segment register that caches a
 * descriptor of the old table.  CS cannot be moved to: a far return pops
 * the new CS:RIP (Intel SDM Vol. 3A 3.4.3).
 */
static void load_gdt(const struct gdt_ptr *ptr)
{
	__asm__ volatile("lgdt %0\n\t"
			 "pushq %1\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movl %2, %%ds\n\t"
			 "movl %2, %%es\n\t"
			 "movl %2, %%ss\n\t"
			 :
			 : "m"(*ptr), "i"(GDT_KERNEL_CS), "r"(GDT_KERNEL_DS)
			 : "rax", "memory");
}

/*
 * gdt_init_cpu - see gdt.h.
 * Context: on CPU cpu, interrupts off, before its IDT is used (the IST
 * gates need the TSS).  Locking: none; each CPU writes only its own slot.
 */
/*
 * gdt_ist_top - top of IST stack `ist` (IST_x) in CPU `cpu`'s TSS.
 * Context: any; the value is fixed once that CPU is up.
 */
unsigned long gdt_ist_top(int cpu, int ist)
{
	BUG_ON(cpu < 0 || cpu >= GDT_MAX_CPUS || ist < 1 || ist > IST_COUNT);
	return cpu_gdt[cpu].tss.ist[ist - 1];
}

void gdt_init_cpu(int cpu, const struct cpu_stacks *stacks)
{
	struct cpu_gdt *g;
	struct gdt_ptr ptr;

	BUG_ON(cpu < 0 || cpu >= GDT_MAX_CPUS);
	BUG_ON(!stacks);
	BUILD_BUG_ON(sizeof(struct tss) != 104);
	g = &cpu_gdt[cpu];

	memset(&g->tss, 0, sizeof(g->tss));
	for (int i = 0; i < IST_COUNT; i++) {
		BUG_ON(!stacks->ist_top[i] || (stacks->ist_top[i] & 15));
		g->tss.ist[i] = stacks->ist_top[i];
	}
	g->tss.rsp[0] = stacks->rsp0;
	g->tss.iomap_base = sizeof(struct tss);

	g->gdt[0] = 0;
	g->gdt[GDT_KERNEL_CS / 8] = GDT_DESC_KERNEL_CODE;
	g->gdt[GDT_KERNEL_DS / 8] = GDT_DESC_KERNEL_DATA;
	g->gdt[GDT_USER_BASE / 8] = GDT_DESC_USER_CODE32;
	g->gdt[GDT_USER_DS / 8] = GDT_DESC_USER_DATA;
	g->gdt[GDT_USER_CS / 8] = GDT_DESC_USER_CODE;
	/* Always rebuilt as "available": LTR faults on a busy TSS. */
	tss_descriptor(&g->gdt[GDT_TSS / 8], (u64)(uintptr_t)&g->tss,
		       sizeof(struct tss) - 1);

	ptr.limit = sizeof(g->gdt) - 1;
	ptr.base = (u64)(uintptr_t)g->gdt;
	load_gdt(&ptr);
	__asm__ volatile("ltr %w0" : : "r"(GDT_TSS) : "memory");
}

void gdt_set_kernel_stack(int cpu, unsigned long top)
{
	BUG_ON(cpu < 0 || cpu >= GDT_MAX_CPUS);
	cpu_gdt[cpu].tss.rsp[0] = top;
}
