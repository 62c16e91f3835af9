; arch/x86_64/syscall_entry.asm - the SYSCALL entry and the two ways back
; to user mode (SYSRET and IRET).
;
; Why SYSCALL and not int 0x80: it is the instruction Linux's x86_64 ABI
; uses (rtk implements that ABI unchanged, so the same binaries run on a
; Linux host), and it is the fast path: no IDT lookup, no stack-segment
; checks, no memory frame pushed by the CPU (Intel SDM Vol. 2B SYSCALL).
; The price is that the CPU does nothing for us: RSP is still the user's,
; GS still the user's, so the entry must SWAPGS and find the kernel stack
; itself, with interrupts masked by SFMASK until it has one.
;
; entry_SYSCALL_64:
;   [1] SWAPGS: GS base = this CPU's per-CPU area;
;   [2] save the user RSP in a per-CPU slot, load this task's kernel stack
;       top (cpu_entry_rsp0, set at each context switch with TSS.RSP0);
;   [3] build a struct pt_regs exactly as an interrupt from ring 3 would
;       (SS, RSP, RFLAGS = R11, CS, RIP = RCX, orig_rax = RAX in the
;       error code's slot, vector SYSCALL_VECTOR_MARK, then the 15
;       registers);
;   [4] do_syscall_64(regs) (syscall.c): runs the call with interrupts on,
;       then exit_to_user_mode_prepare() with them off; it returns whether
;       SYSRET is safe;
;   [5] SYSRET: registers back, RCX/R11 from the frame, user RSP, SWAPGS,
;       SYSRETQ.  Or [6] the IRET path when SYSRET is not safe.
;
; The SYSRET hazard (Intel only): SYSRET with a non-canonical RCX raises
; #GP in ring 0, after the user's RSP has been loaded: the kernel would
; run its #GP handler on a stack the user chose.  rtk
; never SYSRETs to RIP >= USER_ADDR_END (do_syscall_64 checks; the IRET
; path then faults in ring 3 instead, an ordinary user fault).  AMD
; differs; Linux: the "opportunistic SYSRET" checks in entry_64.S.
;
; RFLAGS.AC: SFMASK clears it with IF and TF (syscall.c), so the entry
; needs no CLAC: SMAP is closed from SYSCALL's first instruction.  SYSRET
; and IRET give the user back its own AC, as Linux does.
;
; The NMI window: between [1]'s SWAPGS and [2] (and between the exit
; SWAPGS and SYSRETQ) an NMI, #MC or #DF arrives in ring 0 with the
; user's GS.  trap_common (trap_entry.asm) handles those three vectors
; "paranoid": it reads MSR_GS_BASE instead of trusting CS.
; Spec: Intel SDM Vol. 2B SYSCALL, SYSRET, SWAPGS; Vol. 3A 5.8.8.
; Linux counterpart: arch/x86/entry/entry_64.S entry_SYSCALL_64,
; swapgs_restore_regs_and_return_to_usermode.

%include "arch/x86_64/pt_regs.inc"

section .text
bits 64

global entry_SYSCALL_64
global return_to_user_iret
global user_enter_regs
extern do_syscall_64
extern cpu_entry_rsp0
extern cpu_user_rsp_scratch

GDT_USER_DS	equ 0x30	; = arch/x86_64/gdt.h
GDT_USER_CS	equ 0x38
SYSCALL_VECTOR_MARK equ 0x100	; = syscall.c: not an IDT vector

align 16
entry_SYSCALL_64:
	swapgs					; [1]
	mov [gs:cpu_user_rsp_scratch], rsp	; [2]
	mov rsp, [gs:cpu_entry_rsp0]
	push qword GDT_USER_DS | 3		; [3] ss
	push qword [gs:cpu_user_rsp_scratch]	;     rsp
	push r11				;     rflags
	push qword GDT_USER_CS | 3		;     cs
	push rcx				;     rip
	push rax				;     orig_rax (ptrace.h)
	push qword SYSCALL_VECTOR_MARK		;     vector
	PUSH_REGS
	cld
	mov rdi, rsp
	push qword [rsp + PT_REGS_RIP]		; a frame for backtraces
	push rbp
	mov rbp, rsp
	call do_syscall_64			; [4] irqs off on return
	add rsp, 16
	test al, al
	jz return_to_user_iret			; [6]
	POP_REGS				; [5] (RCX, R11: below)
	mov rcx, [rsp + 16]			; rip
	mov r11, [rsp + 32]			; rflags
	mov rsp, [rsp + 40]			; the user's stack, from here on
	swapgs
	o64 sysret

; return_to_user_iret - RSP points at a complete struct pt_regs for ring
; 3; interrupts off, kernel GS.  Restore it all and IRETQ.
return_to_user_iret:
	POP_REGS
	add rsp, 16				; vector, error code
	swapgs
	iretq

; void user_enter_regs(const struct pt_regs *src /* rdi */,
;                      unsigned long stack_top /* rsi */)
; A thread's first entry into user mode (user_thread.c): the caller's
; frames are dropped, src is copied to the top of the kernel stack (where
; the next entry from ring 3 will build its frame too) and restored.
; Interrupts off, kernel GS.
user_enter_regs:
	lea rsp, [rsi - PT_REGS_SIZE]
	mov rsi, rdi
	mov rdi, rsp
	mov ecx, PT_REGS_SIZE / 8
	rep movsq
	jmp return_to_user_iret
