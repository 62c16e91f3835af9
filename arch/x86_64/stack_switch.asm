; arch/x86_64/stack_switch.asm - arch_call_on_stack: run a function on
; another stack and come back.
;
; For tests (the memory suite's guard-page test) and, later, for code
; that must run on a fresh stack.  If fn faults and a trap_catch longjmps
; out, RSP returns to the value saved when the catch was armed, on the
; caller's stack, so nothing here needs undoing.
; Spec: System V AMD64 ABI 3.2.2 (RSP 16-byte aligned at a call).

section .text
bits 64

global arch_call_on_stack

; void arch_call_on_stack(void *stack_top /* rdi */,
;                         void (*fn)(void *) /* rsi */, void *arg /* rdx */)
arch_call_on_stack:
	push rbp
	mov rbp, rsp			; frame chain stays walkable into fn
	and rdi, -16
	mov rsp, rdi
	mov rdi, rdx
	call rsi
	mov rsp, rbp
	pop rbp
	ret
