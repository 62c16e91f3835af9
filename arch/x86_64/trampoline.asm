; arch/x86_64/trampoline.asm - where an application processor starts:
; real mode -> 32-bit protected mode -> long mode on the kernel's page
; tables -> ap_start(cpu) in arch/x86_64/smpboot.c.
;
; The code is linked into .rodata as a blob (trampoline_start ..
; trampoline_end) and copied by smpboot.c to TRAMPOLINE_PHYS (0x8000)
; below 1 MiB, where a STARTUP IPI with vector 0x08 starts the AP in
; real mode at CS:IP = 0x0800:0000.  Every address inside the blob is
; spelled T(label): its position in the copy, which is identity-mapped
; (mmu_identity_map) so it stays reachable after paging is on.
; The boot CPU fills the parameter block (struct trampoline_params in
; smpboot.h, same layout) before each STARTUP IPI; one AP at a time.
;
; Steps:
;  [0] real mode: interrupts off, DS = 0; this CPU's APIC ID from CPUID
;      (leaf 0xB's x2APIC ID when the leaf exists, else leaf 1's initial
;      APIC ID, as boot_cpu_apic_id() in acpi.c reads the boot CPU's);
;      not the block's apic_id: an AP the boot CPU gave up on woke late,
;      into the next CPU's parameters - record its ID in p_stray and
;      park here, before it touches the stack or the stage (Linux:
;      STARTUP_READ_APICID in trampoline_64.S / head_64.S);
;  [1] record stage 1, load the trampoline GDT, CR0.PE, far jump into
;      32-bit code;
;  [2] 32-bit: flat data segments, CR4.PAE, CR3 = the kernel PML4 (below
;      4 GiB), EFER.LME/NXE as on the boot CPU, CR0.PG|WP: compatibility
;      mode; far jump to the 64-bit code segment;
;  [3] 64-bit: the boot CPU's CR4 (PGE ...), GS base = this CPU's per-CPU
;      offset (before any C code), its idle stack, stage 2, call
;      entry(cpu) - never returns.
; Spec: Intel SDM Vol. 3A 8.4.4 (MP initialization: the STARTUP IPI
; vector names the 4 KiB page, real mode at CS = vector << 8), 9.9.1
; (switching to protected mode), 10.8.5 (initializing IA-32e mode).
; Linux counterpart: arch/x86/realmode/rm/trampoline_64.S.

TRAMPOLINE_PHYS	equ 0x8000	; = TRAMPOLINE_PHYS in smpboot.h
EFER_MSR	equ 0xC0000080
GS_BASE_MSR	equ 0xC0000101
CR0_PE		equ 1 << 0
CR0_WP		equ 1 << 16
CR0_PG		equ 1 << 31
CR4_PAE		equ 1 << 5

TR_CODE32	equ 0x08
TR_DATA		equ 0x10
TR_CODE64	equ 0x18

%define T(x) ((x) - trampoline_start + TRAMPOLINE_PHYS)

global trampoline_start
global trampoline_end
global trampoline_params

section .rodata progbits alloc noexec nowrite align=16

bits 16
trampoline_start:
	; [0]
	cli
	cld
	xor ax, ax
	mov ds, ax
	xor eax, eax
	cpuid
	cmp eax, 0xB
	jb .leaf1
	mov eax, 0xB
	xor ecx, ecx
	cpuid
	test bx, bx			; EBX[15:0] 0: leaf 0xB not there
	jz .leaf1
	mov ebx, edx			; x2APIC ID
	jmp .have_id
.leaf1:
	mov eax, 1
	cpuid
	shr ebx, 24			; initial APIC ID, EBX[31:24]
.have_id:
	cmp ebx, [T(p_apic_id)]
	je .mine
	mov [T(p_stray)], ebx		; read by boot_ap() after its wait
	mov dword [T(p_stray_seen)], 1
.park:
	hlt				; interrupts off: only INIT/NMI wake it
	jmp .park
.mine:
	; [1]
	mov dword [T(p_stage)], 1
	lgdt [T(tr_gdt_ptr)]
	mov eax, cr0
	or eax, CR0_PE
	mov cr0, eax
	jmp dword TR_CODE32:T(tr_protected)

bits 32
tr_protected:
	; [2]
	mov ax, TR_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, [T(p_cr3)]
	mov cr3, eax
	mov ecx, EFER_MSR
	rdmsr
	or eax, [T(p_efer)]
	wrmsr
	mov eax, cr0
	or eax, CR0_PG | CR0_WP
	mov cr0, eax
	jmp TR_CODE64:T(tr_long)

bits 64
tr_long:
	; [3]
	mov ax, TR_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax			; clears the base: set it right after
	mov rax, [T(p_cr4)]
	mov cr4, rax
	mov ecx, GS_BASE_MSR
	mov eax, [T(p_gs_base)]
	mov edx, [T(p_gs_base) + 4]
	wrmsr
	mov rsp, [T(p_stack_top)]	; 16-byte aligned
	xor ebp, ebp			; RBP 0 and a return address of 0
	push rbp			; end the backtrace; the push leaves
	mov edi, [T(p_cpu)]		; the ABI's entry alignment
	mov dword [T(p_stage)], 2
	mov rax, [T(p_entry)]
	jmp rax				; entry is __noreturn

align 8
tr_gdt:
	dq 0
	dq 0x00CF9A000000FFFF		; 0x08: 32-bit code, flat
	dq 0x00CF92000000FFFF		; 0x10: data, flat
	dq 0x00AF9A000000FFFF		; 0x18: 64-bit code
tr_gdt_end:
tr_gdt_ptr:
	dw tr_gdt_end - tr_gdt - 1
	dd T(tr_gdt)

; struct trampoline_params (smpboot.h): filled by the boot CPU.
align 8
trampoline_params:
p_cr3:		dq 0	; kernel PML4, physical, below 4 GiB
p_cr4:		dq 0	; the boot CPU's CR4, loaded in long mode
p_efer:		dq 0	; EFER bits to set (LME, NXE)
p_stack_top:	dq 0	; idle stack top, 16-byte aligned
p_entry:	dq 0	; void entry(int cpu), kernel address
p_gs_base:	dq 0	; this CPU's per-CPU offset
p_cpu:		dd 0	; logical CPU number
p_stage:	dd 0	; written by the AP: 1 real mode, 2 long mode
p_apic_id:	dd 0	; the APIC ID of the CPU these parameters are for
p_stray:	dd 0	; written by an AP with another APIC ID: its ID
p_stray_seen:	dd 0	; ... and 1 here
p_pad:		dd 0
trampoline_end:
