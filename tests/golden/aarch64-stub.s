# Golden input: an extern stub (doc/extern-stubs.md, doc/directives.md 2.4)
# in the shape the plugin writes it under -fsanitize-kcfi-extern-stubs: the
# unit uses __kcfi_stub_free wherever the source says free, and asks at its
# end for the stub, typed void (void *); get, public, gets the alias that
# replaces the stubs other units may have of it.  Expected: aarch64-stub.expected.
	.file	"stub.c"
	.kcfi_version 1, "aarch64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0
	.kcfi_type 1, "void (void *)"
	.kcfi_type 2, "void (*(void))(void *)"
	.kcfi_func get, 2, stub
	.text
	.align	2
	.global	get
	.type	get, %function
get:
	.cfi_startproc
	adrp	x0, :got:__kcfi_stub_free
	ldr	x0, [x0, :got_lo12:__kcfi_stub_free]
	ret
	.cfi_endproc
	.size	get, .-get
	.kcfi_extern free, 1, stub
	.section	.note.GNU-stack,"",@progbits
