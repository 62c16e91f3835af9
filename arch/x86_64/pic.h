/*
 * arch/x86_64/pic.h - the legacy 8259A pair: remapped, then silenced.
 */
#ifndef ARCH_X86_64_PIC_H
#define ARCH_X86_64_PIC_H

/* pic_init_masked - reprogram both 8259s to vectors 0x20 / 0x28 (off the
 * CPU exceptions) and mask all 16 inputs; the IOAPIC delivers the ISA
 * IRQs instead.  Context: boot CPU, once, interrupts off. */
void pic_init_masked(void);

#endif /* ARCH_X86_64_PIC_H */
