@ Golden input, Thumb-2 (arm-linux-gnueabihf-gcc's default): the plugin's
@ annotated output of a small unit at -O2, comments trimmed; relay's call
@ edited to go through ip (then lr is the scratch).  Checked: blx and bx
@ through r3, bx ip (sibcall: r3 saved around the compare), the
@ unchecked call, the jump table (cmp; bhi; tbb), __kcfi_typeid_.
@ Expected: arm-thumb.expected.
	.file	"golden.c"
	.kcfi_version 1, "arm-linux-gnueabihf", ptr=32, long=32, char=unsigned, prefix=0
	.text
	.kcfi_type 1, "void (int *)"
	.kcfi_func bump, 1
	.align	1
	.p2align 2,,3
	.global	bump
	.syntax unified
	.thumb
	.thumb_func
	.type	bump, %function
bump:
	ldr	r3, [r0]
	adds	r3, r3, #1
	str	r3, [r0]
	bx	lr
	.size	bump, .-bump
	.kcfi_type 2, "int (int)"
	.kcfi_type 3, "int (int (*)(int), int)"
	.kcfi_func relay, 3
	.align	1
	.p2align 2,,3
	.global	relay
	.syntax unified
	.thumb
	.thumb_func
	.type	relay, %function
relay:
	push	{r3, lr}
	mov	r3, r0
	mov	r0, r1
	mov	ip, r3
	.syntax unified
	.kcfi_call 2 ; ; ; ; ; ; ; ; ;
	.thumb
	.syntax unified
	blx	ip
	adds	r0, r0, #1
	pop	{r3, pc}
	.size	relay, .-relay
	.kcfi_func tail, 3
	.align	1
	.p2align 2,,3
	.global	tail
	.syntax unified
	.thumb
	.thumb_func
	.type	tail, %function
tail:
	mov	r3, r0
	mov	r0, r1
	.syntax unified
	.kcfi_call 2 ; ; ; ; ; ; ; ; ;
	.thumb
	.syntax unified
	bx	r3
	.size	tail, .-tail
	.kcfi_type 4, "int (int, int, int, int)"
	.kcfi_type 5, "int (int (*)(int, int, int, int), int, int, int, int)"
	.kcfi_func tail4, 5
	.align	1
	.p2align 2,,3
	.global	tail4
	.syntax unified
	.thumb
	.thumb_func
	.type	tail4, %function
tail4:
	mov	ip, r1
	push	{lr}
	mov	lr, r0
	mov	r1, r3
	ldr	r0, [sp, #4]
	mov	r3, ip
	mov	ip, lr
	ldr	lr, [sp], #4
	.syntax unified
	.kcfi_call 4 ; ; ; ; ; ; ; ; ;
	.thumb
	.syntax unified
	bx	ip
	.size	tail4, .-tail4
	.kcfi_func nosan, 3
	.align	1
	.p2align 2,,3
	.global	nosan
	.syntax unified
	.thumb
	.thumb_func
	.type	nosan, %function
nosan:
	push	{r3, lr}
	mov	r3, r0
	mov	r0, r1
	.syntax unified
	.kcfi_call_unchecked
	.thumb
	.syntax unified
	blx	r3
	adds	r0, r0, #1
	pop	{r3, pc}
	.size	nosan, .-nosan
	.kcfi_type 6, "int (int, int)"
	.kcfi_func sw, 6
	.align	1
	.p2align 2,,3
	.global	sw
	.syntax unified
	.thumb
	.thumb_func
	.type	sw, %function
sw:
	.syntax unified
	.kcfi_branch_nocall
	.thumb
	.syntax unified
	cmp	r0, #4
	bhi	.L18
	tbb	[pc, r0]
.L13:
	.byte	(.L17-.L13)/2
	.byte	(.L16-.L13)/2
	.byte	(.L15-.L13)/2
	.byte	(.L14-.L13)/2
	.byte	(.L12-.L13)/2
	.p2align 1
.L12:
	lsls	r0, r1, #2
	bx	lr
.L17:
	adds	r0, r1, #1
	bx	lr
.L16:
	add	r0, r1, r1, lsl #1
	bx	lr
.L15:
	subs	r0, r1, #7
	bx	lr
.L14:
	eor	r0, r1, #5
	bx	lr
.L18:
	movs	r0, #0
	bx	lr
	.size	sw, .-sw
	.kcfi_type 7, "int (*(void))(int)"
	.kcfi_func take, 7
	.align	1
	.p2align 2,,3
	.global	take
	.syntax unified
	.thumb
	.thumb_func
	.type	take, %function
take:
	ldr	r3, .L21
	sub	sp, sp, #8
	ldr	r2, .L21+4
.LPIC0:
	add	r3, pc
	ldr	r3, [r3, r2]
	str	r3, [sp, #4]
	mov	r0, r3
	add	sp, sp, #8
	bx	lr
.L22:
	.align	2
.L21:
	.word	_GLOBAL_OFFSET_TABLE_-(.LPIC0+4)
	.word	ext_target(GOT)
	.size	take, .-take
@ Two asm statements in a row, the first with blx r3: inline assembly,
@ known as such only by GCC's line markers around each (no #APP on arm).
	.kcfi_func viaasm, 1
	.align	1
	.p2align 2,,3
	.global	viaasm
	.syntax unified
	.thumb
	.thumb_func
	.type	viaasm, %function
viaasm:
	push	{r4, lr}
	mov	r4, r0
	.syntax unified
@ 30 "golden.c" 1
	ldr r3, [r4]
	blx r3
@ 0 "" 2
@ 31 "golden.c" 1
	nop
@ 0 "" 2
	.thumb
	.syntax unified
	pop	{r4, pc}
	.size	viaasm, .-viaasm
	.kcfi_extern ext_target, 2
	.section	.note.GNU-stack,"",%progbits
