# Golden input for aarch64: annotated assembly in the shape GCC 12 with the
# kcfi plugin writes it (aarch64-linux-gnu-kcfi-gcc -O2 -save-temps, edited
# by hand), no patchable prefix (M=0).  Preambles for a public and an
# address-taken static function, none for a static one only called; checked
# calls, a sibcall through x16 (the loaded id goes to w9), a call through x17
# (the expected id goes to w9, which the brk immediate then names) and one
# through x9 (an ordinary register: x16/x17 as usual); a no_sanitize call
# inlined into a checked function, an #APP block, a no_sanitize sibcall.
# The expected output is aarch64-basic.expected.
	.arch armv8-a
	.file	"basic.c"
	.kcfi_version 1, "aarch64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0
	.text
	.kcfi_type 1, "int (int)"
	.kcfi_func local_taken, 1
	.align	2
	.p2align 4,,11
	.type	local_taken, %function
local_taken:
.LFB2:
	.cfi_startproc
	add	w0, w0, 1
	ret
	.cfi_endproc
.LFE2:
	.size	local_taken, .-local_taken
	.kcfi_func only_called
	.align	2
	.p2align 4,,11
	.type	only_called, %function
only_called:
.LFB1:
	.cfi_startproc
	mov	w0, 1
	ret
	.cfi_endproc
.LFE1:
	.size	only_called, .-only_called
	.kcfi_type 2, "void (int *)"
	.kcfi_func bump, 2
	.align	2
	.p2align 4,,11
	.global	bump
	.type	bump, %function
bump:
.LFB0:
	.cfi_startproc
	ldr	w1, [x0]
	add	w1, w1, 1
	str	w1, [x0]
	ret
	.cfi_endproc
.LFE0:
	.size	bump, .-bump
	.kcfi_type 3, "int (*(int))(int)"
	.kcfi_func pick, 3
	.align	2
	.p2align 4,,11
	.global	pick
	.type	pick, %function
pick:
.LFB3:
	.cfi_startproc
	cbz	w0, .L6
	adrp	x0, local_taken
	add	x0, x0, :lo12:local_taken
	ret
	.p2align 2,,3
.L6:
	adrp	x0, :got:ext_target
	ldr	x0, [x0, :got_lo12:ext_target]
	ret
	.cfi_endproc
.LFE3:
	.size	pick, .-pick
	.kcfi_type 4, "int (void (*)(int *), int (*)(int), int *, int (*)(int))"
	.kcfi_func relay, 4
	.align	2
	.p2align 4,,11
	.global	relay
	.type	relay, %function
relay:
.LFB4:
	.cfi_startproc
	stp	x29, x30, [sp, -48]!
	.cfi_def_cfa_offset 48
	.cfi_offset 29, -48
	.cfi_offset 30, -40
	mov	x29, sp
	stp	x19, x20, [sp, 16]
	.cfi_offset 19, -32
	.cfi_offset 20, -24
	mov	x20, x2
	mov	x19, x1
	str	x21, [sp, 32]
	.cfi_offset 21, -16
	mov	x1, x0
	mov	x21, x3
	mov	x0, x2
#APP
	.kcfi_call 2 ; ; ; ; ;
#NO_APP
	blr	x1
	ldr	w0, [x20]
#APP
	.kcfi_call 1 ; ; ; ; ;
#NO_APP
	blr	x19
	add	w20, w0, 1
	mov	w0, w20
#APP
	.kcfi_call_unchecked
#NO_APP
	blr	x21
#APP
// 12 "basic.c" 1
	blr x21
// 0 "" 2
#NO_APP
	mov	x17, x19
	mov	w0, w20
#APP
	.kcfi_call 1 ; ; ; ; ;
#NO_APP
	blr	x17
	mov	x9, x21
	mov	w0, w20
#APP
	.kcfi_call 1 ; ; ; ; ;
#NO_APP
	blr	x9
	ldr	x21, [sp, 32]
	add	w0, w0, w20
	mov	x16, x19
	ldp	x19, x20, [sp, 16]
	ldp	x29, x30, [sp], 48
	.cfi_restore 30
	.cfi_restore 29
	.cfi_restore 21
	.cfi_restore 19
	.cfi_restore 20
	.cfi_def_cfa_offset 0
#APP
	.kcfi_call 1 ; ; ; ; ;
#NO_APP
	br	x16
	.cfi_endproc
.LFE4:
	.size	relay, .-relay
	.kcfi_type 5, "int (int (*)(int), int)"
	.kcfi_func nosan, 5
	.align	2
	.p2align 4,,11
	.global	nosan
	.type	nosan, %function
nosan:
.LFB5:
	.cfi_startproc
	mov	x2, x0
	mov	w0, w1
	mov	x16, x2
#APP
	.kcfi_call_unchecked
#NO_APP
	br	x16
	.cfi_endproc
.LFE5:
	.size	nosan, .-nosan
	.kcfi_extern ext_target, 1
	.section	.note.GNU-stack,"",@progbits
