; boot/multiboot.asm - the two boot-loader headers of rtk.elf.
;
; rtk boots two ways, and the image carries a header for each:
;  - Multiboot2 (GRUB's `multiboot2` command, BIOS and UEFI ISO):
;    GRUB loads the ELF64 segments at their physical addresses and jumps
;    to e_entry (start32, linked at its physical address) in 32-bit
;    protected mode with EAX = 0x36d76289, EBX = info.
;    Spec: Multiboot2 specification, section 3.1 (header), 3.3 (tags).
;  - Multiboot1 (QEMU's own `-kernel` loader): QEMU only takes Multiboot1
;    images that are 32-bit ELF *or* use the "a.out kludge" address
;    fields (flags bit 16).  rtk.elf is ELF64, so we use the a.out kludge:
;    QEMU then ignores the ELF headers and copies the file from
;    load_addr's file offset up to load_end_addr, zeroes up to
;    bss_end_addr and jumps to entry_addr with EAX = 0x2badb002.
;    linker.ld keeps file offsets linear with physical addresses so that
;    copy is exact.  Spec: Multiboot 0.6.96, section 3.1.
;
; Both headers must lie in the first 8 KiB (MB1) / 32 KiB (MB2) of the
; file: linker.ld places .multiboot1 and .multiboot2 first.

MB1_MAGIC	equ 0x1BADB002
MB1_FLAGS	equ (1 << 0) | (1 << 1) | (1 << 16) ; align mods, mem info, a.out kludge

MB2_MAGIC	equ 0xE85250D6
MB2_ARCH_I386	equ 0

extern start32
extern __image_phys_start
extern __load_end_phys
extern __bss_end_phys

section .multiboot1 progbits alloc noexec nowrite align=4
mb1_header:
	dd MB1_MAGIC
	dd MB1_FLAGS
	dd -(MB1_MAGIC + MB1_FLAGS)
	dd mb1_header			; header_addr (physical: .boot is linked low)
	dd __image_phys_start		; load_addr
	dd __load_end_phys		; load_end_addr: end of .data
	dd __bss_end_phys		; bss_end_addr: QEMU zeroes up to here
	dd start32			; entry_addr

section .multiboot2 progbits alloc noexec nowrite align=8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))

	; information request tag (type 1): we need these, GRUB must fail
	; rather than boot us without them.
	align 8
.info_req:
	dw 1, 0
	dd .info_req_end - .info_req
	dd 1				; command line
	dd 6				; memory map
.info_req_end:
	; framebuffer tag (type 5, Multiboot2 3.1.10): a linear RGB
	; framebuffer for drivers/fbcon.c.  Flag bit 0 marks it optional:
	; a loader that cannot set a graphics mode boots us anyway (in EGA
	; text mode under BIOS - drivers/vga_text.c - or with no screen at
	; all, serial only).  The size is a preference; boot/grub.cfg's
	; gfxpayload list is what GRUB tries first.
	align 8
.fb_req:
	dw 5, 1
	dd .fb_req_end - .fb_req
	dd 1024				; width
	dd 768				; height
	dd 32				; depth (bits per pixel)
.fb_req_end:
	; end tag
	align 8
	dw 0, 0
	dd 8
mb2_header_end:
