# Golden input: annotated assembly as GCC with the kcfi plugin writes it,
# no patchable prefix (M=0).  The expected output is x86_64-basic.expected.
	.file	"basic.c"
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0
	.kcfi_type 1, "void (int *)"
	.kcfi_type 2, "int (int)"
	.text
	.kcfi_func bump, 1
	.p2align 4
	.globl	bump
	.type	bump, @function
bump:
	.cfi_startproc
	addl	$1, (%rdi)
	ret
	.cfi_endproc
	.size	bump, .-bump
	.kcfi_func only_called
	.p2align 4
	.type	only_called, @function
only_called:
	ret
	.size	only_called, .-only_called
	.kcfi_func local_taken, 2
	.p2align 4
	.type	local_taken, @function
local_taken:
	leal	1(%rdi), %eax
	ret
	.size	local_taken, .-local_taken
	.kcfi_func relay, 2
	.p2align 4
	.globl	relay
	.type	relay, @function
relay:
	.cfi_startproc
	subq	$8, %rsp
	.kcfi_call 1
	call	*%rsi
	.kcfi_call 2
	call	*16(%rdi)
	.kcfi_call_unchecked
	call	*%rax
#APP
	call	*%rcx
#NO_APP
	.kcfi_call 1
	call	*%r10
	.kcfi_call 2
	call	*%r12
	.kcfi_call 2
	call	*%rbp
	addq	$8, %rsp
	.kcfi_call 2
	jmp	*%r11
	.cfi_endproc
	.size	relay, .-relay
	.kcfi_extern ext_target, 2
	.section	.note.GNU-stack,"",@progbits
