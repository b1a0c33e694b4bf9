# Golden input for riscv64: annotated assembly in the shape GCC 12 with the
# kcfi plugin writes it (rv64gc, so RVC is on), no patchable prefix (M=0).
# Besides the usual call sites it has targets in t1 and t2 (the scratch
# registers move to t3), a sibcall, a call through another link register,
# and a type whose id has no upper 20 bits (struct s604974: built from zero,
# no lui).  The expected output is riscv64-basic.expected.
	.file	"basic.c"
	.option pic
	.attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.kcfi_version 1, "riscv64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0
	.text
	.kcfi_type 1, "void (int *)"
	.kcfi_func bump, 1
	.align	1
	.globl	bump
	.type	bump, @function
bump:
	lw	a5,0(a0)
	addiw	a5,a5,1
	sw	a5,0(a0)
	ret
	.size	bump, .-bump
	.kcfi_func only_called
	.align	1
	.type	only_called, @function
only_called:
	li	a0,1
	ret
	.size	only_called, .-only_called
	.kcfi_type 2, "int (int)"
	.kcfi_func local_taken, 2
	.align	1
	.type	local_taken, @function
local_taken:
	addiw	a0,a0,1
	ret
	.size	local_taken, .-local_taken
	.kcfi_type 3, "void (struct s604974 *)"
	.kcfi_func relay, 2
	.align	1
	.globl	relay
	.type	relay, @function
relay:
	addi	sp,sp,-16
	sd	ra,8(sp)
#APP
	.kcfi_call 1 ; ; ; ;
#NO_APP
	jalr	a1
#APP
	.kcfi_call 2 ; ; ; ;
#NO_APP
	jalr	t1
#APP
	.kcfi_call 3 ; ; ; ;
#NO_APP
	jalr	a2
#APP
	.kcfi_call_unchecked
#NO_APP
	jalr	a4
#APP
	jalr	a3
#NO_APP
#APP
	.kcfi_call 1 ; ; ; ;
#NO_APP
	jalr	t0, 0(a5)
	ld	ra,8(sp)
	addi	sp,sp,16
#APP
	.kcfi_call 2 ; ; ; ;
#NO_APP
	jr	t2
	.size	relay, .-relay
	.kcfi_extern ext_target, 2
	.section	.note.GNU-stack,"",@progbits
