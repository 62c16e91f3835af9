/*
 * arch/x86_64/io.h - x86 port I/O and MMIO accessors.
 *
 * Used by arch/x86_64 and by the PC drivers in drivers/ (which are x86
 * hardware by nature).  kernel/ and lib/ never include this.
 * Linux counterpart: arch/x86/include/asm/io.h.
 */
#ifndef ARCH_X86_64_IO_H
#define ARCH_X86_64_IO_H

#include "lib/types.h"

static inline void outb(u16 port, u8 val)
{
	__asm__ volatile("outb %0, %1" : : "a"(val), "Nd"(port));
}

static inline void outw(u16 port, u16 val)
{
	__asm__ volatile("outw %0, %1" : : "a"(val), "Nd"(port));
}

static inline void outl(u16 port, u32 val)
{
	__asm__ volatile("outl %0, %1" : : "a"(val), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u16 inw(u16 port)
{
	u16 v;

	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u32 inl(u16 port)
{
	u32 v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* io_wait - a short delay for old ISA devices (8259, CMOS): port 0x80 is
 * the POST-code port, which no device decodes. */
static inline void io_wait(void)
{
	outb(0x80, 0);
}

static inline u32 mmio_read32(volatile void *addr)
{
	return *(volatile u32 *)addr;
}

static inline void mmio_write32(volatile void *addr, u32 val)
{
	*(volatile u32 *)addr = val;
}

static inline u64 mmio_read64(volatile void *addr)
{
	return *(volatile u64 *)addr;
}

static inline void mmio_write64(volatile void *addr, u64 val)
{
	*(volatile u64 *)addr = val;
}

#endif /* ARCH_X86_64_IO_H */
