# Golden input: kernel-like options (-fpatchable-function-entry=11,11,
# retpolines with cs prefix, a COMDAT function), M=11.  The expected output
# is x86_64-prefix.expected.
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=11
	.text
	.kcfi_type 1, "long (struct file *, unsigned int, unsigned long)"
	.kcfi_func do_ioctl, 1
	.p2align 4
	.globl	do_ioctl
	.section	__patchable_function_entries,"awo",@progbits,do_ioctl
	.align 8
	.quad	.LPFE1
	.text
.LPFE1:
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.type	do_ioctl, @function
do_ioctl:
	endbr64
	movq	8(%rdi), %rax
	.kcfi_call 1
	cs
	call	__x86_indirect_thunk_rax
	.kcfi_call 1
	jmp	__x86_indirect_thunk_r8
	.size	do_ioctl, .-do_ioctl
	.kcfi_type 2, "void (void)"
	.section	.text.shared,"axG",@progbits,shared,comdat
	.kcfi_func shared, 2
	.p2align 4
	.weak	shared
	.section	__patchable_function_entries,"awo",@progbits,shared
	.align 8
	.quad	.LPFE2
	.section	.text.shared,"axG",@progbits,shared,comdat
.LPFE2:
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.type	shared, @function
shared:
	endbr64
	.kcfi_call 2
	jmp	*8(%rdi)
	.size	shared, .-shared
	.kcfi_func untyped
	.text
	.p2align 4
.LPFE3:
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	nop
	.type	untyped, @function
untyped:
	ret
	.size	untyped, .-untyped
	.section	.note.GNU-stack,"",@progbits
