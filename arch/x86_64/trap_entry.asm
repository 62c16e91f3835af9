; arch/x86_64/trap_entry.asm - the 256 IDT entry stubs and trap_common.
;
; Stub n (at trap_stubs + n * TRAP_STUB_SIZE, the address idt.c puts in
; gate n) makes every vector's stack look the same:
;   [1] push a dummy error code 0 unless the CPU pushed one (vectors 8,
;       10-14, 17, 21, 29, 30: Intel SDM Vol. 3A 6.15, AMD APM Vol. 2 8.2);
;   [2] push the vector number and jump to trap_common.
; trap_common then
;   [3] pushes the 15 general-purpose registers, completing a struct
;       pt_regs (arch/x86_64/ptrace.h: the push order here is its field
;       order from the bottom up);
;   [4] builds a fake call frame (interrupted RIP, interrupted RBP) so a
;       backtrace taken inside the handler walks on into the interrupted
;       code, as Linux's ENCODE_FRAME_POINTER does;
;   [5] calls trap_dispatch(regs) with a 16-byte aligned stack (the CPU
;       aligns RSP before pushing its frame; 22 + 2 words keep it so);
;   [6] restores the registers, drops vector and error code, IRETQ.
; No SWAPGS: rtk has no user mode, GS always holds the kernel's base.
; Linux counterpart: arch/x86/entry/entry_64.S (idtentry, error_entry,
; PUSH_AND_CLEAR_REGS), arch/x86/include/asm/idtentry.h.

section .text
bits 64

global trap_stubs
extern trap_dispatch

TRAP_STUB_SIZE	equ 16		; = TRAP_STUB_SIZE in arch/x86_64/idt.h
PT_REGS_RIP	equ 17 * 8	; offsetof(struct pt_regs, rip)

; TRAP_STUB n - the entry stub of vector n.
%macro TRAP_STUB 1
%if %1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30
%else
	push qword 0			; [1]
%endif
	push qword %1			; [2] imm32 for >= 128: no sign trouble
	jmp trap_common
	; pad to the next slot; a negative count (stub too long) is an error
	times trap_stubs + (%1 + 1) * TRAP_STUB_SIZE - $ db 0xCC
%endmacro

align 16
trap_stubs:
%assign vec 0
%rep 256
	TRAP_STUB vec
%assign vec vec + 1
%endrep

trap_common:
	push rax			; [3]
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	cld				; the C ABI wants DF clear
	mov rdi, rsp			; struct pt_regs *
	push qword [rsp + PT_REGS_RIP]	; [4] "return address" = interrupted RIP
	push rbp			;     caller's frame = interrupted RBP
	mov rbp, rsp
	call trap_dispatch		; [5]
	add rsp, 16			; [6] drop the fake frame
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16			; vector, error code
	iretq
