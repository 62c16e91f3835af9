; arch/x86_64/fentry.asm - __fentry__, the call at the start of every
; instrumented function under LATENCY_TRACE=1 (gcc -pg -mfentry puts it
; before the prologue).  The portable half, latency_trace_fentry(), is
; in kernel/debug/latency_trace.c; ltr_on is its "buffers exist" byte,
; read first so that the hook costs one compare until then.
;
; On entry [rsp] is the return address into the function, 5 bytes after
; its start (the call instruction's length), [rsp+8] the function's own
; return address into its caller.  The function has not yet read its
; arguments, so every register the SysV ABI lets a callee clobber is
; saved around the C call, and the stack is kept 16-aligned for it.
; Built only with LATENCY_TRACE=1 (the Makefile passes the define).
; Linux counterpart: arch/x86/kernel/ftrace_64.S (__fentry__).

%ifdef CONFIG_LATENCY_TRACE
section .text
bits 64

global __fentry__
extern ltr_on
extern latency_trace_fentry

__fentry__:
	cmp byte [rel ltr_on], 0
	jne .on
	ret
.on:
	push rax
	push rcx
	push rdx
	push rsi
	push rdi
	push r8
	push r9
	push r10
	push r11
	sub rsp, 8			; 9 pushes + 8: 16-aligned at the call
	mov rdi, [rsp + 80]		; return address into the function
	sub rdi, 5			; its start: the ip
	mov rsi, [rsp + 88]		; the function's caller: the parent
	call latency_trace_fentry
	add rsp, 8
	pop r11
	pop r10
	pop r9
	pop r8
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rax
	ret
%endif
