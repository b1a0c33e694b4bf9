# Golden input: annotated assembly as kcfi-gcc -m32 -O2 -fno-pic writes it
# (M=0), assembled with --32; three functions written by hand after it: a
# sibcall through a register, a regparm(2) call through memory (%eax and
# %edx carry arguments, so the target goes to %ecx) and -pg's PIC call of
# mcount.  The expected output is i386-basic.expected (doc/abi.md 1a).
	.file	"g.c"
	.kcfi_version 1, "x86_64-linux-gnu", ptr=32, long=32, char=signed, prefix=0
	.text
	.kcfi_type 1, "int (int)"
	.kcfi_func local_taken, 1
	.p2align 4
	.type	local_taken, @function
local_taken:
	movl	4(%esp), %eax
	addl	$1, %eax
	ret
	.size	local_taken, .-local_taken
	.kcfi_type 2, "void (int *)"
	.kcfi_func bump, 2
	.p2align 4
	.globl	bump
	.type	bump, @function
bump:
	movl	4(%esp), %eax
	addl	$1, (%eax)
	ret
	.size	bump, .-bump
	.kcfi_type 3, "int (*(void))(int)"
	.kcfi_func get, 3
	.p2align 4
	.globl	get
	.type	get, @function
get:
	movl	$local_taken, %eax
	ret
	.size	get, .-get
	.kcfi_func get_ext, 3
	.p2align 4
	.globl	get_ext
	.type	get_ext, @function
get_ext:
	movl	$ext_target, %eax
	ret
	.size	get_ext, .-get_ext
	.kcfi_type 4, "int (int (*)(int), int)"
	.kcfi_func via_reg, 4
	.p2align 4
	.globl	via_reg
	.type	via_reg, @function
via_reg:
	subl	$24, %esp
	pushl	32(%esp)
#APP
	.kcfi_call 1
#NO_APP
	call	*32(%esp)
	leal	(%eax,%eax,2), %eax
	addl	$28, %esp
	ret
	.size	via_reg, .-via_reg
	.section	.rodata.str1.1,"aMS",@progbits,1
.LC0:
	.string	"s"
	.kcfi_type 5, "long (long, const char *)"
	.kcfi_type 6, "long (struct ops *, long)"
	.kcfi_func via_mem, 6
	.text
	.p2align 4
	.globl	via_mem
	.type	via_mem, @function
via_mem:
	subl	$20, %esp
	pushl	$.LC0
	pushl	32(%esp)
	movl	32(%esp), %eax
#APP
	.kcfi_call 5
#NO_APP
	call	*4(%eax)
	addl	$1, %eax
	addl	$28, %esp
	ret
	.size	via_mem, .-via_mem
	.kcfi_type 7, "int (struct ops *, int)"
	.kcfi_func via_mem_tail, 7
	.p2align 4
	.globl	via_mem_tail
	.type	via_mem_tail, @function
via_mem_tail:
	movl	4(%esp), %eax
	movl	8(%esp), %edx
	movl	%edx, 4(%esp)
#APP
	.kcfi_call 1
#NO_APP
	jmp	*(%eax)
	.size	via_mem_tail, .-via_mem_tail
	.kcfi_type 8, "int (int, int)"
	.kcfi_type 9, "int (struct ops *)"
	.kcfi_func via_fast, 9
	.p2align 4
	.globl	via_fast
	.type	via_fast, @function
via_fast:
	subl	$12, %esp
	movl	$2, %edx
	movl	$1, %ecx
	movl	16(%esp), %eax
#APP
	.kcfi_call 8, arg=cx, arg=dx
#NO_APP
	call	*8(%eax)
	addl	$12, %esp
	addl	$1, %eax
	ret
	.size	via_fast, .-via_fast
	.kcfi_type 10, "int (int (*)(int))"
	.kcfi_func unchecked, 10
	.p2align 4
	.globl	unchecked
	.type	unchecked, @function
unchecked:
	subl	$24, %esp
	pushl	$1
#APP
	.kcfi_call_unchecked
#NO_APP
	call	*32(%esp)
	addl	$1, %eax
	addl	$28, %esp
	ret
	.size	unchecked, .-unchecked
	.kcfi_func in_asm, 10
	.p2align 4
	.globl	in_asm
	.type	in_asm, @function
in_asm:
	movl	4(%esp), %eax
#APP
# 16 "g.c" 1
	call *%eax
# 0 "" 2
#NO_APP
	ret
	.size	in_asm, .-in_asm
	.kcfi_func tail_reg, 4
	.p2align 4
	.globl	tail_reg
	.type	tail_reg, @function
tail_reg:
	movl	4(%esp), %ecx
	movl	8(%esp), %eax
	movl	%eax, 4(%esp)
#APP
	.kcfi_call 1
#NO_APP
	jmp	*%ecx
	.size	tail_reg, .-tail_reg
	.kcfi_func via_regparm, 9
	.p2align 4
	.globl	via_regparm
	.type	via_regparm, @function
via_regparm:
	pushl	%esi
	movl	8(%esp), %esi
	movl	$2, %edx
	movl	$1, %eax
#APP
	.kcfi_call 8, arg=ax, arg=dx
#NO_APP
	call	*12(%esi)
	popl	%esi
	ret
	.size	via_regparm, .-via_regparm
	.kcfi_func profiled, 1
	.p2align 4
	.globl	profiled
	.type	profiled, @function
profiled:
	pushl	%ebx
	call	__x86.get_pc_thunk.bx
	addl	$_GLOBAL_OFFSET_TABLE_, %ebx
1:	call	*mcount@GOT(%ebx)
	movl	8(%esp), %eax
	popl	%ebx
	ret
	.size	profiled, .-profiled
	.kcfi_extern ext_target, 1
	.section	.note.GNU-stack,"",@progbits
