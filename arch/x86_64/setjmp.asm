; arch/x86_64/setjmp.asm - arch_setjmp / arch_longjmp.
;
; Used by the self-test framework (kernel/ktest.c) so that a failed
; assertion or an expected exception ends only the current test: the
; test runner takes a jump buffer, the failure path longjmps back.
; Saves the SysV callee-saved registers, RSP and the return address;
; layout matches struct arch_jmp_buf in arch/x86_64/arch.h.

section .text
bits 64

global arch_setjmp
global arch_longjmp

; int arch_setjmp(struct arch_jmp_buf *buf /* rdi */)
arch_setjmp:
	mov [rdi + 0], rbx
	mov [rdi + 8], rbp
	mov [rdi + 16], r12
	mov [rdi + 24], r13
	mov [rdi + 32], r14
	mov [rdi + 40], r15
	lea rdx, [rsp + 8]		; RSP as it will be after our ret
	mov [rdi + 48], rdx
	mov rdx, [rsp]			; return address
	mov [rdi + 56], rdx
	xor eax, eax
	ret

; void arch_longjmp(struct arch_jmp_buf *buf /* rdi */, int val /* esi */)
arch_longjmp:
	mov eax, esi
	test eax, eax
	jnz .nonzero
	inc eax				; setjmp must not appear to return 0
.nonzero:
	mov rbx, [rdi + 0]
	mov rbp, [rdi + 8]
	mov r12, [rdi + 16]
	mov r13, [rdi + 24]
	mov r14, [rdi + 32]
	mov r15, [rdi + 40]
	mov rsp, [rdi + 48]
	jmp [rdi + 56]
