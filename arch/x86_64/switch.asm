; arch/x86_64/switch.asm - the context switch and the first run of a new
; kernel task.
;
; arch_context_switch saves the callee-saved registers (rbx, r12-r15)
; and rbp on the outgoing task's stack, stores its RSP in *prev_sp_slot,
; loads next_sp and pops the same frame from the incoming task's stack.
; Everything else a C caller may expect clobbered by a call is; RFLAGS is
; not switched (the scheduler switches with interrupts off and each task
; restores its own flags when it unlocks the run queue).  rbp is saved
; with the rest, so a sleeping task's frame chain starts at the saved rbp
; (word 5 of its frame) and a backtrace of it still works.
;
; Saved frame, lowest address first (RSP of a switched-out task):
;
;	r15  r14  r13  r12  rbx  rbp  return-address
;
; A new task gets the same frame (arch_task_stack_init) with r12 = entry,
; r13 = arg, rbp = 0 (the backtrace ends there) and the return address =
; task_trampoline, so the first switch "returns" into the trampoline.
; arch_context_switch returns its third argument in RAX: the task that
; ran before, which the incoming side needs to finish the switch
; (schedule_tail, kernel/sched/core.c).
; Spec: System V AMD64 ABI 3.2.1 (callee-saved registers), 3.2.2 (RSP is
; 16-byte aligned at a call).  Linux counterpart: arch/x86/entry/entry_64.S
; __switch_to_asm and ret_from_fork, arch/x86/kernel/process.c
; copy_thread (the initial frame).

section .text
bits 64

global arch_context_switch
global arch_task_stack_init
extern schedule_tail
extern task_exit

; void *arch_context_switch(unsigned long *prev_sp_slot /* rdi */,
;                           unsigned long next_sp /* rsi */,
;                           void *prev /* rdx */)
arch_context_switch:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp
	mov rsp, rsi
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	mov rax, rdx
	ret

; First code of every new task, reached by the ret of the first switch to
; it with RAX = the previous task.  [1] finish the switch (unlock the run
; queue, enable interrupts and preemption), [2] run entry(arg), [3] exit
; with its return value; task_exit never returns.
task_trampoline:
	xor ebp, ebp			; the frame chain ends here
	and rsp, -16
	mov rdi, rax
	call schedule_tail		; [1]
	mov rdi, r13
	call r12			; [2]
	mov edi, eax
	call task_exit			; [3]
	ud2

; unsigned long arch_task_stack_init(void *stack_top /* rdi */,
;                                    void *entry /* rsi */, void *arg /* rdx */)
; Build the frame above below stack_top; return the task's initial RSP.
arch_task_stack_init:
	and rdi, -16
	lea rax, [rdi - 8 * 8]		; 7 frame words + 1 pad word
	mov qword [rax + 0 * 8], 0	; r15
	mov qword [rax + 1 * 8], 0	; r14
	mov [rax + 2 * 8], rdx		; r13 = arg
	mov [rax + 3 * 8], rsi		; r12 = entry
	mov qword [rax + 4 * 8], 0	; rbx
	mov qword [rax + 5 * 8], 0	; rbp = 0: end of the frame chain
	lea rcx, [rel task_trampoline]
	mov [rax + 6 * 8], rcx		; return address
	mov qword [rax + 7 * 8], 0	; pad (a zero "caller")
	ret
