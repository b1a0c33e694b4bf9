#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-as as a drop-in `as`: option pass-through, inputs, --version/--help.
. "$top_srcdir/tests/lib.sh"

check "--version: the real assembler's line comes first" sh -c \
	"'$KCFI_AS' --version | head -1 | grep -q '^GNU assembler'"
check "--version: then kcfi-as's own" sh -c "'$KCFI_AS' --version | grep -q '^kcfi-as '"
check "--help lists the kcfi options" sh -c "'$KCFI_AS' --help | grep -q -- '--kcfi-save=FILE'"
check "an unknown --kcfi option is an error" sh -c "! '$KCFI_AS' --kcfi-frob -o '$T/x.o' </dev/null"
check "--kcfi-real-as must not be kcfi-as itself" sh -c \
	"! '$KCFI_AS' --kcfi-real-as='$KCFI_AS' -o '$T/x.o' </dev/null 2>'$T/self.err' && grep -q 'is kcfi-as itself' '$T/self.err'"

# --defsym and -I with separate values reach the real assembler.
mkdir -p "$T/inc"
printf '\t.byte 42\n' >"$T/inc/part.s"
cat >"$T/opts.s" <<'EOF2'
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0
	.data
	.if VALUE == 7
	.include "part.s"
	.endif
EOF2
check "--defsym X and -I DIR pass through" sh -c \
	"'$KCFI_AS' --64 --defsym VALUE=7 -I '$T/inc' -o '$T/opts.o' '$T/opts.s' && objdump -s -j .data '$T/opts.o' | grep -q ' 2a'"

# Several inputs form one unit, as with GNU as.
printf '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0\n\t.kcfi_type 1, "void (void)"\n' >"$T/one.s"
printf '\t.text\nf:\n\t.kcfi_call 1\n\tcall\t*%%rax\n' >"$T/two.s"
check "two input files form one translation unit" sh -c \
	"'$KCFI_AS' -o '$T/two.o' '$T/one.s' '$T/two.s' && '$ELFCHECK' '$T/two.o' | grep -q '^trap'"

# A response file, as GCC writes for long command lines.
printf -- "--64 -o '%s/rsp.o'\n%s/two.s\n" "$T" "$T" >"$T/args.rsp"
check "@file response files are expanded" sh -c \
	"'$KCFI_AS' '$T/one.s' @'$T/args.rsp' && test -s '$T/rsp.o'"

# Errors inside the real assembler still name the input file and line.
printf '\t.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0\n\t.kcfi_type 1, "void (void)"\nf:\n\t.kcfi_call 1\n\tcall\t*%%rax\n\tbogus_insn\n' >"$T/gaserr.s"
check "the assembler's errors keep the input's line numbers" sh -c \
	"! '$KCFI_AS' -o '$T/gaserr.o' '$T/gaserr.s' 2>'$T/gaserr.txt'; grep -q 'gaserr.s:6: Error' '$T/gaserr.txt'"

check "--kcfi-stats counts" sh -c \
	"'$KCFI_AS' --kcfi-stats -o '$T/two2.o' '$T/one.s' '$T/two.s' 2>&1 | grep -q 'checks=1 '"
# The type cache: prototypes shaped R (P, ...), or returning a pointer to a
# function or an array, are put together from their pieces (new ones read on
# their own); the fifth returns a pointer to a function returning a pointer
# to a function, is parsed whole, and takes its known parameter as one piece.
cat >"$T/cache.s" <<'EOF2'
	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0
	.kcfi_type 1, "int (struct device *)"
	.kcfi_type 2, "void (unsigned long)"
	.kcfi_type 3, "int (struct device *, unsigned long)"
	.kcfi_type 4, "long (*(struct device *))(void)"
	.kcfi_type 5, "int (*(*(struct device *))(void))(int)"
EOF2
check "--kcfi-stats shows the type cache at work" sh -c \
	"'$KCFI_AS' --kcfi-stats --kcfi-no-assemble '$T/cache.s' 2>&1 | grep -q 'types_assembled=4 params_reused=1'"
finish
