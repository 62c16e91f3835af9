/*
 * arch/x86_64/ioremap.c - uncached mappings for device registers (see
 * ioremap.h).  A bump allocator over IOREMAP_BASE: devices are mapped at
 * boot and stay mapped, so nothing is ever given back.
 * Spec: Intel SDM Vol. 3A 11.12.3 (PCD/PWT with the default PAT give UC).
 */
#include "arch/x86_64/ioremap.h"
#include "arch/x86_64/arch.h"
#include "kernel/printk.h"

static unsigned long ioremap_next = IOREMAP_BASE;

void *ioremap_nocache(u64 phys, size_t len)
{
	u64 first = phys & PAGE_MASK;
	u64 span = ALIGN_UP(phys + len, PAGE_SIZE) - first;
	unsigned long virt;

	virt = __atomic_fetch_add(&ioremap_next, span, __ATOMIC_RELAXED);
	if (virt + span > IOREMAP_BASE + IOREMAP_SIZE) {
		pr_err("ioremap: window full mapping %#llx\n",
		       (unsigned long long)phys);
		return NULL;
	}
	for (u64 off = 0; off < span; off += PAGE_SIZE) {
		int err = arch_map_page(virt + off, first + off,
					MAP_WRITE | MAP_NOCACHE);

		if (err) {
			pr_err("ioremap: mapping %#llx failed (%d)\n",
			       (unsigned long long)(first + off), err);
			return NULL;
		}
	}
	return (void *)(virt + (phys - first));
}
