; arch/x86_64/trap_entry.asm - the 256 IDT entry stubs and trap_common.
;
; Stub n (at trap_stubs + n * TRAP_STUB_SIZE, the address idt.c puts in
; gate n) makes every vector's stack look the same:
;   [1] push a dummy error code 0 unless the CPU pushed one (vectors 8,
;       10-14, 17, 21, 29, 30: Intel SDM Vol. 3A 6.15, AMD APM Vol. 2 8.2);
;   [2] push the vector number and jump to trap_common.
; trap_common then
;   [0] clears RFLAGS.AC (ASM_CLAC, smap.inc): the CPU does not, and a
;       user's POPF can set it, which with SMAP on would let every kernel
;       access at user pages through.  The stub's two pushes before it
;       go to the kernel stack, never to user memory; IRETQ restores the
;       interrupted AC (a #PF inside uaccess.asm's window returns to its
;       fixup with AC set, and the fixup clears it);
;   [3] pushes the 15 general-purpose registers, completing a struct
;       pt_regs (arch/x86_64/ptrace.h; PUSH_REGS, arch/x86_64/pt_regs.inc,
;       pushes in its field order from the bottom up);
;   [4] builds a fake call frame (interrupted RIP, interrupted RBP) so a
;       backtrace taken inside the handler walks on into the interrupted
;       code, as Linux's ENCODE_FRAME_POINTER does;
;   [5] calls trap_dispatch(regs) with a 16-byte aligned stack (the CPU
;       aligns RSP before pushing its frame; 22 + 2 words keep it so);
;   [6] restores the registers, drops vector and error code, IRETQ.
; GS: an entry from ring 3 arrives with the user's GS base and swaps in
; the kernel's (SWAPGS) after [3], and swaps back before IRETQ.  "From
; ring 3" is the saved CS's RPL, except for NMI, #DF, #MC and #DB, which
; can strike between SYSCALL and its SWAPGS (syscall_entry.asm) with a
; ring-0 CS and the user's GS: for them ("paranoid", as Linux's
; paranoid_entry) the GS base itself decides.  A kernel GS base is negative (a per-CPU area in the
; direct map minus __percpu_start, percpu_hw.c); a user one is a
; selector's 32-bit base (CR4.FSGSBASE is off), never negative.  The
; decision is kept in RBX (callee-saved) across trap_dispatch.
;
; #DB (vector 1) is paranoid and on its own IST stack (IST_DEBUG) for
; CVE-2018-8897: a #DB held back by MOV SS / POP SS is delivered after
; the next instruction, and when that is SYSCALL, at entry_SYSCALL_64's
; first instruction: ring 0, the user's GS base and the user's RSP.
; A CS-based check would run C on a GS the user chose, and a non-IST
; gate would push the frame onto the user's stack.  rtk cannot get
; there today - no ptrace, no debug registers armed, SFMASK clears TF,
; and MOV SS from ring 3 only delays a #DB that nothing raises - but
; the entry is ready for the day hardware breakpoints or ptrace come
; (tests/kernel/test_debug_trap.c makes both halves happen).
;   [3a] a #DB from ring 3 moves its frame from the IST stack to the
;        task's kernel stack (cpu_entry_rsp0, where an ordinary ring-3
;        entry would have put it) before C runs: the handler may kill
;        the task or schedule, which the per-CPU IST stack cannot
;        survive (a second #DB would overwrite it).  Linux: sync_regs
;        in idtentry_mce_db's user-mode path.
; Linux counterpart: arch/x86/entry/entry_64.S (idtentry, error_entry,
; PUSH_AND_CLEAR_REGS), arch/x86/include/asm/idtentry.h.

%include "arch/x86_64/pt_regs.inc"
%include "arch/x86_64/smap.inc"

section .text
bits 64

global trap_stubs
extern trap_dispatch
extern cpu_entry_rsp0

TRAP_STUB_SIZE	equ 16		; = TRAP_STUB_SIZE in arch/x86_64/idt.h
MSR_GS_BASE	equ 0xC0000101

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
	ASM_CLAC			; [0] see below
	PUSH_REGS			; [3]
	cld				; the C ABI wants DF clear
	xor ebx, ebx			; GS: see the header
	mov rax, [rsp + PT_REGS_VECTOR]
	cmp eax, 2			; NMI
	je .paranoid
	cmp eax, 8			; #DF
	je .paranoid
	cmp eax, 18			; #MC
	je .paranoid
	cmp eax, 1			; #DB
	je .paranoid
	test byte [rsp + PT_REGS_CS], 3
	jz .gs_done
	jmp .swap
.paranoid:
	mov ecx, MSR_GS_BASE
	rdmsr
	test edx, edx
	js .gs_done			; already the kernel's
.swap:
	swapgs
	mov ebx, 1
.gs_done:
	cmp qword [rsp + PT_REGS_VECTOR], 1	; [3a] #DB from ring 3?
	jne .on_stack
	test byte [rsp + PT_REGS_CS], 3
	jz .on_stack
	mov rsi, rsp			; (RSI, RDI, RCX are saved in the frame)
	mov rsp, [gs:cpu_entry_rsp0]
	sub rsp, PT_REGS_SIZE
	mov rdi, rsp
	mov ecx, PT_REGS_SIZE / 8
	rep movsq
.on_stack:
	mov rdi, rsp			; struct pt_regs *
	push qword [rsp + PT_REGS_RIP]	; [4] "return address" = interrupted RIP
	push rbp			;     caller's frame = interrupted RBP
	mov rbp, rsp
	call trap_dispatch		; [5]
	add rsp, 16			; [6] drop the fake frame
	test ebx, ebx
	jz .no_swap
	swapgs
.no_swap:
	POP_REGS
	add rsp, 16			; vector, error code
	iretq
