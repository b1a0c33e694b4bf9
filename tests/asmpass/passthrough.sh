#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Input without .kcfi_version (a plain .S, or -fno-sanitize=kcfi) goes to the
# real assembler byte for byte, on every input path.
. "$top_srcdir/tests/lib.sh"

cat >"$T/plain.s" <<'EOF2'
	.file	"plain.c"
	.text
	.p2align 4
	.globl	f
	.type	f, @function
f:
	call	*%rax
	jmp	*8(%rdi)
	call	__x86_indirect_thunk_rax
	ret
	.size	f, .-f
	.section	.rodata
.LC0:
	.string	"a # b ; c"
	.section	.note.GNU-stack,"",@progbits
EOF2
printf 'crlf:\r\n\tnop\r\n\tret' >"$T/odd.s"	# CRLF ends, no final newline

for f in plain odd; do
	as -o "$T/$f.ref.o" "$T/$f.s" || { fail "$f: the real assembler rejects the input"; continue; }
	check "$f: direct exec gives the same object" sh -c \
		"'$KCFI_AS' -o '$T/$f.a.o' '$T/$f.s' && cmp '$T/$f.ref.o' '$T/$f.a.o'"
	check "$f: stdin gives the same object" sh -c \
		"'$KCFI_AS' -o '$T/$f.b.o' < '$T/$f.s' && cmp '$T/$f.ref.o' '$T/$f.b.o'"
	check "$f: the rewritten text is byte-identical" sh -c \
		"'$KCFI_AS' --kcfi-save='$T/$f.saved.s' -o '$T/$f.c.o' '$T/$f.s' && cmp '$T/$f.s' '$T/$f.saved.s'"
	check "$f: -pipe style (stdin via -) too" sh -c \
		"'$KCFI_AS' --kcfi-save='$T/$f.saved2.s' -o '$T/$f.d.o' - < '$T/$f.s' && cmp '$T/$f.s' '$T/$f.saved2.s'"
done
finish
