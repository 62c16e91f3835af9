; arch/x86_64/uaccess.asm - the only code that touches user memory, each
; access paired with a fixup in the exception table (__ex_table, read by
; extable.c): a page fault at a listed instruction resumes at its fixup
; instead of oopsing, and the function returns its error.  The address
; range is the caller's check (kernel/user/uaccess.h access_ok), so a
; fault here is a user page that is not mapped or not writable.
; rtk maps user memory eagerly (no demand paging), so a fault never has a
; page to bring in: it always ends in the fixup.
; Table entry: two quadwords, the faulting instruction and its fixup.
; SMAP (arch/x86_64/smap.h): each access is bracketed by ASM_STAC and
; ASM_CLAC (smap.inc), the only STACs in the kernel, so the window is
; open for exactly one instruction; a fault inside it returns (IRETQ,
; AC restored) to the fixup, which closes it too.  Nothing between STAC
; and CLAC calls out or may sleep.
; Linux counterpart: arch/x86/lib/copy_user_64.S, getuser.S, putuser.S,
; asm/futex.h (futex_atomic_cmpxchg_inatomic), asm/extable.h.

%include "arch/x86_64/smap.inc"

section .text
bits 64

global arch_copy_from_user
global arch_copy_to_user
global arch_get_user_u32
global arch_put_user_u32
global arch_futex_atomic_cmpxchg_inatomic

EFAULT	equ 14

; EXTABLE insn, fixup - record that a fault at insn resumes at fixup.
%macro EXTABLE 2
section __ex_table progbits alloc noexec nowrite align=8
	dq %1, %2
section .text
%endmacro

; unsigned long arch_copy_{from,to}_user(void *to /* rdi */,
;		const void *from /* rsi */, unsigned long n /* rdx */)
; Returns the bytes not copied: RCX counts down as REP MOVSB goes, so at
; a fault it holds exactly that.
arch_copy_from_user:
arch_copy_to_user:
	mov rcx, rdx
	ASM_STAC
.copy:	rep movsb
	ASM_CLAC
	xor eax, eax
	ret
.copy_fault:
	ASM_CLAC
	mov rax, rcx
	ret
EXTABLE arch_copy_to_user.copy, arch_copy_to_user.copy_fault

; int arch_get_user_u32(u32 *val /* rdi */, const u32 *uaddr /* rsi */)
arch_get_user_u32:
	ASM_STAC
.load:	mov eax, [rsi]
	ASM_CLAC
	mov [rdi], eax
	xor eax, eax
	ret
.load_fault:
	ASM_CLAC
	mov eax, -EFAULT
	ret
EXTABLE arch_get_user_u32.load, arch_get_user_u32.load_fault

; int arch_put_user_u32(u32 val /* edi */, u32 *uaddr /* rsi */)
arch_put_user_u32:
	ASM_STAC
.store:	mov [rsi], edi
	ASM_CLAC
	xor eax, eax
	ret
.store_fault:
	ASM_CLAC
	mov eax, -EFAULT
	ret
EXTABLE arch_put_user_u32.store, arch_put_user_u32.store_fault

; int arch_futex_atomic_cmpxchg_inatomic(u32 *uval /* rdi */,
;		u32 *uaddr /* rsi */, u32 oldval /* edx */, u32 newval /* ecx */)
; LOCK CMPXCHG leaves the value it found in EAX (equal to oldval when it
; stored).  A fault writes nothing to *uval.
arch_futex_atomic_cmpxchg_inatomic:
	mov eax, edx
	ASM_STAC
.cmpxchg:
	lock cmpxchg [rsi], ecx
	ASM_CLAC
	mov [rdi], eax
	xor eax, eax
	ret
.cmpxchg_fault:
	ASM_CLAC
	mov eax, -EFAULT
	ret
EXTABLE arch_futex_atomic_cmpxchg_inatomic.cmpxchg, arch_futex_atomic_cmpxchg_inatomic.cmpxchg_fault
