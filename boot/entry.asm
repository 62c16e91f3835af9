; boot/entry.asm - from the boot loader's 32-bit protected mode into the
; 64-bit higher-half kernel.
;
; Both loaders (boot/multiboot.asm) jump to start32 with paging off,
; interrupts off, flat 32-bit segments, EAX = loader magic and
; EBX = physical address of the boot information.
;
; Steps:
;  [1] keep EAX/EBX, take a boot stack, check CPUID for long mode (and NX);
;  [2] build boot page tables with 2 MiB pages:
;        identity     0 .. 4 GiB      (this code, then the AP trampoline)
;        direct map   0xFFFF800000000000 + 0 .. 4 GiB (phys_to_virt)
;        kernel       0xFFFFFFFF80000000 + 0 .. 1 GiB (-mcmodel=kernel)
;      kernel/mm replaces them with 4 KiB-grained W^X tables later;
;  [3] PAE on, CR3, EFER.LME (+NXE), paging on: long mode (compat);
;  [4] far jump through a 64-bit GDT into 64-bit code, then an absolute
;      jump into the higher half, where kernel_entry64 calls kmain().
; Spec: Intel SDM Vol. 3A, 10.8.5 "Initializing IA-32e Mode".

KERNEL_VMA	equ 0xFFFFFFFF80000000
PAGE_PRESENT	equ 1 << 0
PAGE_WRITE	equ 1 << 1
PAGE_HUGE	equ 1 << 7
EFER_MSR	equ 0xC0000080
EFER_LME	equ 1 << 8
EFER_NXE	equ 1 << 11

global start32
global boot_pml4
global boot_has_nx
extern kmain

section .boot.text progbits alloc exec nowrite align=16
bits 32
start32:
	cli
	cld
	; [1]
	mov esp, early_stack_top
	mov [boot_magic], eax
	mov [boot_info_ptr], ebx

	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29		; LM
	jz .no_long_mode
	test edx, 1 << 20		; NX (XD)
	jz .no_nx
	mov dword [boot_has_nx], 1
.no_nx:
	; [2] four page directories map 0..4 GiB with 2 MiB pages
	mov edi, boot_pd
	mov eax, PAGE_PRESENT | PAGE_WRITE | PAGE_HUGE
	xor ebx, ebx			; high dword of the physical address
	mov ecx, 2048
.fill_pd:
	mov [edi], eax
	mov [edi + 4], ebx
	add eax, 0x200000
	adc ebx, 0
	add edi, 8
	loop .fill_pd

	mov eax, boot_pd + (PAGE_PRESENT | PAGE_WRITE)
	mov [boot_pdpt_low + 0 * 8], eax
	add eax, 4096
	mov [boot_pdpt_low + 1 * 8], eax
	add eax, 4096
	mov [boot_pdpt_low + 2 * 8], eax
	add eax, 4096
	mov [boot_pdpt_low + 3 * 8], eax

	; kernel window: PDPT slot 510 of the last 512 GiB = -2 GiB
	mov dword [boot_pdpt_high + 510 * 8], boot_pd + (PAGE_PRESENT | PAGE_WRITE)

	mov eax, boot_pdpt_low + (PAGE_PRESENT | PAGE_WRITE)
	mov [boot_pml4 + 0 * 8], eax	; identity
	mov [boot_pml4 + 256 * 8], eax	; direct map at 0xFFFF800000000000
	mov dword [boot_pml4 + 511 * 8], boot_pdpt_high + (PAGE_PRESENT | PAGE_WRITE)

	; [3]
	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov eax, boot_pml4
	mov cr3, eax
	mov ecx, EFER_MSR
	rdmsr
	or eax, EFER_LME
	cmp dword [boot_has_nx], 0
	je .no_nxe
	or eax, EFER_NXE
.no_nxe:
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16)	; PG, WP (supervisor writes honour R/O)
	mov cr0, eax

	; [4]
	lgdt [boot_gdt_ptr]
	jmp 0x08:long_mode_low

.no_long_mode:
	mov esi, no_lm_msg
	jmp early_fail

; early_fail - print ESI (NUL-terminated) on COM1 and on the VGA text
; screen, then halt.  Only used before long mode, when nothing else works.
early_fail:
	mov edi, 0xB8000
.next:
	lodsb
	test al, al
	jz .halt
	mov ah, 0x4F
	mov [edi], ax
	add edi, 2
	mov bl, al
	mov dx, 0x3FD			; COM1 line status
.wait:
	in al, dx
	test al, 0x20			; transmitter holding register empty
	jz .wait
	mov al, bl
	mov dx, 0x3F8
	out dx, al
	jmp .next
.halt:
	hlt
	jmp .halt

bits 64
long_mode_low:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax
	mov rax, kernel_entry64
	jmp rax

section .boot.data progbits alloc noexec write align=16
no_lm_msg:
	db "rtk: this CPU has no 64-bit long mode; rtk needs x86_64", 13, 10, 0
align 8
boot_gdt:
	dq 0
	dq 0x00AF9A000000FFFF		; 0x08: 64-bit code, DPL 0
	dq 0x00CF92000000FFFF		; 0x10: data, DPL 0
boot_gdt_end:
boot_gdt_ptr:
	dw boot_gdt_end - boot_gdt - 1
	dq boot_gdt
global boot_magic
global boot_info_ptr
boot_magic:	dd 0
boot_info_ptr:	dd 0
boot_has_nx:	dd 0

section .boot.bss nobits alloc noexec write align=4096
boot_pml4:	resb 4096
boot_pdpt_low:	resb 4096
boot_pdpt_high:	resb 4096
boot_pd:	resb 4 * 4096
early_stack:	resb 4096
early_stack_top:

section .text.entry progbits alloc exec nowrite align=16
; kernel_entry64 - first higher-half instruction: switch to the BSP boot
; stack (kernel .bss) and call kmain(magic, info_phys).  A null return
; address and RBP end every backtrace here.
kernel_entry64:
	mov rsp, boot_stack_top
	xor ebp, ebp
	; boot_magic/boot_info_ptr live in .boot.data, below 2 GiB and still
	; identity mapped, so absolute 32-bit addressing reaches them.
	mov edi, [abs boot_magic]
	mov esi, [abs boot_info_ptr]
	call kmain
.hang:
	cli
	hlt
	jmp .hang

; The boot CPU's first kernel stack (16 KiB) in the kernel's .bss.  Once
; the memory manager is up, tasks run on guarded stacks from kstack_alloc();
; this one stays the BSP's boot/idle stack.
section .bss nobits alloc noexec write align=16
global boot_stack_bottom
global boot_stack_top
boot_stack_bottom:
	resb 16384
boot_stack_top:
