@ Golden input, ARM state (-marm): the same unit as arm-thumb.s.  GCC
@ prints ".syntax divided" before each asm text in ARM state and
@ ".arm; .syntax unified" after it; the jump table is "addls pc".
@ Expected: arm-arm.expected.
	.file	"golden.c"
	.kcfi_version 1, "arm-linux-gnueabihf", ptr=32, long=32, char=unsigned, prefix=0
	.text
	.kcfi_type 1, "void (int *)"
	.kcfi_func bump, 1
	.align	2
	.global	bump
	.syntax unified
	.arm
	.type	bump, %function
bump:
	ldr	r3, [r0]
	add	r3, r3, #1
	str	r3, [r0]
	bx	lr
	.size	bump, .-bump
	.kcfi_type 2, "int (int)"
	.kcfi_type 3, "int (int (*)(int), int)"
	.kcfi_func relay, 3
	.align	2
	.global	relay
	.syntax unified
	.arm
	.type	relay, %function
relay:
	mov	r3, r0
	push	{r4, lr}
	mov	r0, r1
	.syntax divided
	.kcfi_call 2 ; ; ; ; ; ; ; ; ;
	.arm
	.syntax unified
	blx	r3
	add	r0, r0, #1
	pop	{r4, pc}
	.size	relay, .-relay
	.kcfi_func tail, 3
	.align	2
	.global	tail
	.syntax unified
	.arm
	.type	tail, %function
tail:
	mov	r3, r0
	mov	r0, r1
	.syntax divided
	.kcfi_call 2 ; ; ; ; ; ; ; ; ;
	.arm
	.syntax unified
	bx	r3
	.size	tail, .-tail
	.kcfi_type 4, "int (int, int, int, int)"
	.kcfi_type 5, "int (int (*)(int, int, int, int), int, int, int, int)"
	.kcfi_func tail4, 5
	.align	2
	.global	tail4
	.syntax unified
	.arm
	.type	tail4, %function
tail4:
	mov	ip, r1
	str	lr, [sp, #-4]!
	mov	lr, r0
	mov	r1, r3
	ldr	r0, [sp, #4]
	mov	r3, ip
	mov	ip, lr
	ldr	lr, [sp], #4
	.syntax divided
	.kcfi_call 4 ; ; ; ; ; ; ; ; ;
	.arm
	.syntax unified
	bx	ip
	.size	tail4, .-tail4
	.kcfi_func nosan, 3
	.align	2
	.global	nosan
	.syntax unified
	.arm
	.type	nosan, %function
nosan:
	mov	r3, r0
	push	{r4, lr}
	mov	r0, r1
	.syntax divided
	.kcfi_call_unchecked
	.arm
	.syntax unified
	blx	r3
	add	r0, r0, #1
	pop	{r4, pc}
	.size	nosan, .-nosan
	.kcfi_type 6, "int (int, int)"
	.kcfi_func sw, 6
	.align	2
	.global	sw
	.syntax unified
	.arm
	.type	sw, %function
sw:
	.syntax divided
	.kcfi_branch_nocall
	.arm
	.syntax unified
	cmp	r0, #4
	addls	pc, pc, r0, asl #2
	b	.L18
.L13:
	b	.L17
	b	.L16
	b	.L15
	b	.L14
	b	.L12
	.p2align 1
.L12:
	lsl	r0, r1, #2
	bx	lr
.L17:
	add	r0, r1, #1
	bx	lr
.L16:
	add	r0, r1, r1, lsl #1
	bx	lr
.L15:
	sub	r0, r1, #7
	bx	lr
.L14:
	eor	r0, r1, #5
	bx	lr
.L18:
	mov	r0, #0
	bx	lr
	.size	sw, .-sw
	.kcfi_type 7, "int (*(void))(int)"
	.kcfi_func take, 7
	.align	2
	.global	take
	.syntax unified
	.arm
	.type	take, %function
take:
	ldr	r3, .L21
	sub	sp, sp, #8
	ldr	r2, .L21+4
.LPIC0:
	add	r3, pc, r3
	ldr	r3, [r3, r2]
	str	r3, [sp, #4]
	mov	r0, r3
	add	sp, sp, #8
	bx	lr
.L22:
	.align	2
.L21:
	.word	_GLOBAL_OFFSET_TABLE_-(.LPIC0+8)
	.word	ext_target(GOT)
	.size	take, .-take
@ Two asm statements in a row, the first with blx r3: inline assembly,
@ known as such only by GCC's line markers around each (no #APP on arm).
	.kcfi_func viaasm, 1
	.align	2
	.global	viaasm
	.syntax unified
	.arm
	.type	viaasm, %function
viaasm:
	push	{r4, lr}
	mov	r4, r0
	.syntax divided
@ 30 "golden.c" 1
	ldr r3, [r4]
	blx r3
@ 0 "" 2
@ 31 "golden.c" 1
	nop
@ 0 "" 2
	.arm
	.syntax unified
	pop	{r4, pc}
	.size	viaasm, .-viaasm
	.kcfi_extern ext_target, 2
	.section	.note.GNU-stack,"",%progbits
