/*
 * arch/x86_64/mmu.c - the kernel's own page tables (layout in mmu.h).
 *
 * boot/entry.asm enters the kernel on 2 MiB RWX tables that also
 * identity-map 0..4 GiB.  arch_mmu_init() replaces them with tables that
 * enforce W^X: no page is both writable and executable, the kernel text
 * has no writable alias (its direct-map pages are read-only too), and
 * nothing is mapped at low addresses, so a NULL dereference faults.
 * Page-table pages come from the page allocator and are reached through
 * the direct map, which must therefore exist while they are edited: the
 * boot tables' direct map before the switch, ours after it.
 * Spec: Intel SDM Vol. 3A 4.5 (4-level paging, entry formats, tables
 * 4-14..4-20), 4.6 (access rights, CR0.WP, EFER.NXE), 4.10.4 (TLB
 * invalidation), 2.5 (CR4.PGE).
 * Linux counterpart: arch/x86/mm/init_64.c (kernel_physical_mapping_init),
 * arch/x86/mm/pat/set_memory.c; rtk has no PAT setup (the firmware's
 * MTRRs keep MMIO uncached) and no large-page splitting.
 */
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/tlb.h"
#include "kernel/mm/mm_lock.h"
#include "kernel/mm/pmm.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"


/* Linker symbols (linker.ld), virtual except the _phys ones. */
extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __bss_end[];
extern char __image_phys_start[], __bss_end_phys[];

/* Protected by mmu_lock: every table reachable from kernel_pml4. */
static struct mm_lock mmu_lock;
static u64 *kernel_pml4;

/* The entries above a kernel leaf: the leaf decides (pgtable.c). */
#define KERNEL_TABLE_BITS	(PTE_P | PTE_W)

/* Written once by arch_mmu_init: */
static u64 kernel_pml4_phys;
static u64 pte_nx;		/* PTE_NX, or 0 on a CPU without NX */
static u64 direct_map_end;	/* physical bytes the direct map covers */

/* pt_leaf - the present leaf entry mapping virt (any page size), its
 * page size in *size; NULL when virt is not mapped. */
static u64 *pt_leaf(unsigned long virt, u64 *size)
{
	u64 *table = kernel_pml4;

	for (int l = 4; l >= 1; l--) {
		u64 *e = &table[pt_index(virt, l)];

		if (!(*e & PTE_P))
			return NULL;
		if (l == 1 || (l <= 3 && (*e & PTE_PS))) {
			*size = 1UL << (PAGE_SHIFT + 9 * (l - 1));
			return e;
		}
		table = phys_to_virt(*e & PTE_ADDR);
	}
	return NULL;
}

static u64 leaf_bits(unsigned int flags)
{
	return PTE_P | ((flags & MAP_WRITE) ? PTE_W : 0) |
	       ((flags & MAP_NOCACHE) ? PTE_PCD | PTE_PWT : 0) |
	       ((flags & MAP_EXEC) ? 0 : pte_nx);
}

static void __init map_boot_page(unsigned long virt, u64 phys, u64 bits)
{
	u64 *pte = pt_entry(kernel_pml4, virt, 1, true, KERNEL_TABLE_BITS);

	if (!pte)
		panic("mmu: out of memory building the kernel page tables");
	*pte = phys | bits;
}

static void __init map_image_section(const char *start, const char *end,
				     unsigned int flags)
{
	for (uintptr_t v = (uintptr_t)start; v < (uintptr_t)end; v += PAGE_SIZE)
		map_boot_page(v, v - KERNEL_VMA, leaf_bits(flags) | PTE_G);
}

/* direct_map_image_bits - the direct-map alias of an image page is no
 * more permissive than the image mapping: text and rodata read-only. */
static u64 __init direct_map_image_bits(u64 phys)
{
	u64 ro_start = (uintptr_t)__text_start - KERNEL_VMA;
	u64 ro_end = (uintptr_t)__rodata_end - KERNEL_VMA;

	if (phys >= ro_start && phys < ro_end)
		return leaf_bits(0) | PTE_G;
	return leaf_bits(MAP_WRITE) | PTE_G;
}

/*
 * build_direct_map - phys 0..direct_map_end at DIRECT_MAP_BASE: 2 MiB
 * pages, except the 2 MiB blocks holding the kernel image, which get
 * 4 KiB pages so that its text alias can be read-only.
 */
static void __init build_direct_map(void)
{
	u64 img_start = (uintptr_t)__image_phys_start;
	u64 img_end = (uintptr_t)__bss_end_phys;

	for (u64 phys = 0; phys < direct_map_end; phys += HUGE_SIZE) {
		unsigned long virt = DIRECT_MAP_BASE + phys;
		u64 *pde;

		if (phys < img_end && img_start < phys + HUGE_SIZE) {
			for (u64 p = phys; p < phys + HUGE_SIZE; p += PAGE_SIZE)
				map_boot_page(DIRECT_MAP_BASE + p, p,
					      direct_map_image_bits(p));
			continue;
		}
		pde = pt_entry(kernel_pml4, virt, 2, true, KERNEL_TABLE_BITS);
		if (!pde)
			panic("mmu: out of memory building the direct map");
		*pde = phys | PTE_PS | PTE_G | leaf_bits(MAP_WRITE);
	}
}

/*
 * preallocate_kernel_half - give every kernel-half PML4 slot (256..511)
 * its level-3 table now.  A user address space copies those 256 slots
 * once, at arch_pgd_alloc() (mmu_user.c); with every slot filled from
 * boot on, a kernel mapping added later (a kernel stack, an ioremap)
 * lands in a shared level-3 table and is seen through every PML4 with
 * no sync.  Costs 256 pages (1 MiB) minus the slots already in use.
 * Linux counterpart: preallocate_vmalloc_pages() in arch/x86/mm/init_64.c.
 */
static void __init preallocate_kernel_half(void)
{
	for (int i = 256; i < 512; i++) {
		u64 *l3;

		if (kernel_pml4[i] & PTE_P)
			continue;
		l3 = alloc_page();
		if (!l3)
			panic("mmu: no page for the kernel half's tables");
		memset(l3, 0, PAGE_SIZE);
		kernel_pml4[i] = virt_to_phys(l3) | PTE_P | PTE_W;
	}
}

struct desc_ptr {
	u16 limit;
	u64 base;
} __packed;

/*
 * move_descriptor_tables_high - a GDT or IDT still at its identity-mapped
 * address (boot/entry.asm's boot_gdt) would be unreachable after the
 * switch: the next interrupt or segment load would triple-fault.  Point
 * GDTR/IDTR at the same table through the direct map instead.
 */
static void __init move_descriptor_tables_high(void)
{
	struct desc_ptr p;

	__asm__ volatile("sgdt %0" : "=m"(p));
	if (p.base < LOWER_HALF_END) {
		p.base += DIRECT_MAP_BASE;
		__asm__ volatile("lgdt %0" : : "m"(p) : "memory");
	}
	__asm__ volatile("sidt %0" : "=m"(p));
	if (p.base && p.base < LOWER_HALF_END) {
		p.base += DIRECT_MAP_BASE;
		__asm__ volatile("lidt %0" : : "m"(p) : "memory");
	}
}

static void __init enable_nx_and_wp(void)
{
	struct cpuid_regs r;
	u64 cr0;

	cpuid(0x80000000, &r);
	if (r.eax >= 0x80000001) {
		cpuid(0x80000001, &r);
		if (r.edx & (1u << 20)) {	/* NX, SDM Vol. 2A CPUID */
			wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
			pte_nx = PTE_NX;
		}
	}
	__asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
	if (!(cr0 & X86_CR0_WP)) {
		cr0 |= X86_CR0_WP;
		__asm__ volatile("mov %0, %%cr0" : : "r"(cr0) : "memory");
	}
}

/*
 * arch_mmu_init - see mmu.h.  Steps:
 *   [1] NX and CR0.WP on (entry.asm sets both when it can: check);
 *   [2] a fresh PML4; the kernel image at KERNEL_VMA in 4 KiB pages;
 *   [3] the direct map, extended past 4 GiB when RAM goes there;
 *   [4] descriptor tables out of the identity map, load CR3, CR4.PGE on;
 *   [5] RAM above 4 GiB can now be handed out.
 * Context: boot CPU, once, interrupts off, after pmm_init().
 */
void __init arch_mmu_init(void)
{
	BUG_ON(!arch_irqs_disabled());
	enable_nx_and_wp();					/* [1] */

	kernel_pml4 = alloc_page();				/* [2] */
	if (!kernel_pml4)
		panic("mmu: no page for the kernel PML4");
	memset(kernel_pml4, 0, PAGE_SIZE);
	kernel_pml4_phys = virt_to_phys(kernel_pml4);
	map_image_section(__text_start, __text_end, MAP_EXEC);
	map_image_section(__rodata_start, __rodata_end, 0);
	map_image_section(__data_start, __bss_end, MAP_WRITE);

	direct_map_end = max(BOOT_MAP_END, ALIGN_UP(pmm_phys_end(), HUGE_SIZE));
	build_direct_map();					/* [3] */
	preallocate_kernel_half();

	move_descriptor_tables_high();				/* [4] */
	write_cr3(kernel_pml4_phys);
	write_cr4(read_cr4() | X86_CR4_PGE);

	pmm_online_high_memory();				/* [5] */
	pr_info("mmu: kernel page tables loaded: text RX, rodata R, data RW%s, "
		"direct map 0-%llu MiB, no identity map\n",
		pte_nx ? "+NX" : " (no NX on this CPU!)",
		(unsigned long long)(direct_map_end >> 20));
	if (pte_nx && arch_mmu_count_wx())
		pr_err("mmu: W^X broken: %lu writable+executable pages\n",
		       arch_mmu_count_wx());
}

static bool is_mappable(unsigned long virt)
{
	if (virt < DIRECT_MAP_BASE || !IS_ALIGNED(virt, PAGE_SIZE))
		return false;
	return virt - DIRECT_MAP_BASE >= direct_map_end;
}

/* set_pte - install one 4 KiB leaf.  Locking: takes mmu_lock (and
 * pmm_lock inside, for new tables: mmu -> pmm). */
static int set_pte(unsigned long virt, u64 phys, u64 bits)
{
	unsigned long flags = mm_lock_irqsave(&mmu_lock);
	u64 *pte = pt_entry(kernel_pml4, virt, 1, true, KERNEL_TABLE_BITS);
	int err = 0;

	if (!pte)
		err = pt_entry(kernel_pml4, virt, 2, false, KERNEL_TABLE_BITS) ?
			      -ENOMEM : -EEXIST;
	else if (*pte & PTE_P)
		err = -EEXIST;
	else
		*pte = (phys & PTE_ADDR) | bits;
	mm_unlock_irqrestore(&mmu_lock, flags);
	return err;
}

int arch_map_page(unsigned long virt, u64 phys, unsigned int flags)
{
	if (!is_mappable(virt) || !IS_ALIGNED(phys, PAGE_SIZE))
		return -EINVAL;
	return set_pte(virt, phys, leaf_bits(flags) | PTE_G);
}

/*
 * clear_pte - remove a 4 KiB leaf and flush it locally.  Other CPUs may
 * still hold the translation: arch_unmap_page()/arch_unmap_range() follow
 * up with flush_tlb_kernel_range() (arch/x86_64/tlb.c); the boot-time
 * identity unmaps run before the APs exist.
 * Locking: takes mmu_lock.
 */
static int clear_pte(unsigned long virt)
{
	unsigned long flags = mm_lock_irqsave(&mmu_lock);
	u64 *pte = pt_entry(kernel_pml4, virt, 1, false, KERNEL_TABLE_BITS);
	int err = -ENOENT;

	if (pte && (*pte & PTE_P)) {
		*pte = 0;
		invlpg(virt);	/* a global entry needs INVLPG, not CR3 */
		err = 0;
	}
	mm_unlock_irqrestore(&mmu_lock, flags);
	return err;
}

int arch_unmap_page(unsigned long virt)
{
	return arch_unmap_range(virt, 1) == 1 ? 0 : -ENOENT;
}

/* arch_unmap_range - see mmu.h: clear every entry, then one shootdown
 * for the whole range (not one IPI round per page). */
int arch_unmap_range(unsigned long virt, unsigned int n)
{
	int cleared = 0;

	if (!is_mappable(virt) || !is_mappable(virt + (n - 1) * PAGE_SIZE))
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		if (clear_pte(virt + i * PAGE_SIZE) == 0)
			cleared++;
	if (cleared)
		flush_tlb_kernel_range(virt, virt + n * PAGE_SIZE);
	return cleared;
}

int arch_query_page(unsigned long virt, u64 *phys, unsigned int *flags)
{
	unsigned long irqf = mm_lock_irqsave(&mmu_lock);
	u64 size = 0, *e = pt_leaf(virt, &size), entry = e ? *e : 0;

	mm_unlock_irqrestore(&mmu_lock, irqf);
	if (!e)
		return -ENOENT;
	if (phys)
		*phys = (entry & PTE_ADDR & ~(size - 1)) | (virt & (size - 1));
	if (flags)
		*flags = ((entry & PTE_W) ? MAP_WRITE : 0) |
			 ((entry & pte_nx) ? 0 : MAP_EXEC);
	return 0;
}

/* count_wx - W+X leaves in the tables below table at level. */
static unsigned long count_wx(const u64 *table, int level)
{
	unsigned long n = 0;

	for (int i = 0; i < 512; i++) {
		u64 e = table[i];

		if (!(e & PTE_P))
			continue;
		if (level == 1 || (level <= 3 && (e & PTE_PS)))
			n += (e & PTE_W) && !(e & pte_nx);
		else
			n += count_wx(phys_to_virt(e & PTE_ADDR), level - 1);
	}
	return n;
}

/*
 * arch_mmu_count_wx - leaf entries in the kernel half (PML4 slots
 * 256..511) that are both writable and executable; W^X means 0.  The
 * lower half is left out: only mmu_identity_map() puts anything there.
 * Locking: takes mmu_lock.  Linux counterpart: ptdump_check_wx().
 */
unsigned long arch_mmu_count_wx(void)
{
	unsigned long flags = mm_lock_irqsave(&mmu_lock), n = 0;

	for (int i = 256; i < 512; i++)
		if (kernel_pml4[i] & PTE_P)
			n += count_wx(phys_to_virt(kernel_pml4[i] & PTE_ADDR), 3);
	mm_unlock_irqrestore(&mmu_lock, flags);
	return n;
}

bool arch_mmu_has_nx(void)
{
	return pte_nx != 0;
}

int mmu_identity_map(u64 phys, u64 len)
{
	u64 start = ALIGN_DOWN(phys, PAGE_SIZE), end = ALIGN_UP(phys + len, PAGE_SIZE);

	if (end > LOWER_HALF_END)
		return -EINVAL;
	for (u64 p = start; p < end; p += PAGE_SIZE) {
		int err = set_pte(p, p, PTE_P | PTE_W);

		if (err) {
			mmu_identity_unmap(start, p - start);
			return err;
		}
	}
	return 0;
}

void mmu_identity_unmap(u64 phys, u64 len)
{
	u64 start = ALIGN_DOWN(phys, PAGE_SIZE), end = ALIGN_UP(phys + len, PAGE_SIZE);

	for (u64 p = start; p < end; p += PAGE_SIZE)
		clear_pte(p);
}

u64 mmu_kernel_cr3(void)
{
	return kernel_pml4_phys;
}
