#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-gcc -S writes finished assembly, as clang -S does: no kcfi directive
# left, the real assembler alone makes the same code kcfi-gcc -c makes, and
# the demo built from it still traps.  -S -o -, several inputs, a .S input,
# a refusal (no output left) and the opt-out to the annotated text.
. "$top_srcdir/tests/e2e/lib.sh"

DEMO=$top_srcdir/demo/demo.c
REAL_AS=$(gcc -print-prog-name=as)
# text OBJ: the disassembly of the code and the relocations, no file name.
text() { "$OBJDUMP" -dr --no-show-raw-insn "$1" | sed 1,3d; }

if kgcc -O2 -S -o "$T/demo.s" "$DEMO"; then
	check "no kcfi directive is left" sh -c "! grep -n '^[[:space:]]*\.kcfi_' '$T/demo.s'"
	check "no line markers naming the annotated text" sh -c "! grep -n '^# [0-9]' '$T/demo.s'"
	check "the preamble and the trap table are in the text" sh -c \
		"grep -q '^__cfi_record:' '$T/demo.s' && grep -q 'pushsection \.kcfi_traps' '$T/demo.s'"
	if "$REAL_AS" -o "$T/demo-as.o" "$T/demo.s" && kgcc -O2 -c -o "$T/demo-c.o" "$DEMO"; then
		text "$T/demo-as.o" >"$T/as.txt"
		text "$T/demo-c.o" >"$T/c.txt"
		check "plain as on the -S output gives the code of kcfi-gcc -c" diff -u "$T/c.txt" "$T/as.txt"
		if gcc -o "$T/demo" "$T/demo-as.o"; then
			check "the demo assembled by plain as traps" run_to_sigill "$T/demo"
		else
			fail "the demo links"
		fi
	else
		fail "plain as takes the -S output"
	fi
	check "-S -o - writes the same text" sh -c \
		"'$KCFI_GCC' -fsanitize=kcfi -O2 -S -o - '$DEMO' | cmp - '$T/demo.s'"
	check "no temporary file is left for -o -" sh -c "! ls /tmp/kcfi-gcc-S-* 2>/dev/null"
else
	fail "kcfi-gcc -S on the demo"
fi

mkdir "$T/two" && cp "$DEMO" "$T/two/a.c" && cp "$DEMO" "$T/two/b.c"
check "two inputs without -o: a.s and b.s, both finished" sh -c \
	"cd '$T/two' && '$KCFI_GCC' -fsanitize=kcfi -O2 -S a.c b.c &&
	 grep -q '^__cfi_record:' a.s && grep -q '^__cfi_record:' b.s && ! grep -q kcfi_version a.s b.s"

printf '#define X 1\n\tnop\n' >"$T/pre.S"
check "a .S input is only preprocessed, as by gcc -S" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -S '$T/pre.S' >'$T/pre.out' && gcc -S '$T/pre.S' >'$T/pre.gcc' &&
	 grep -q nop '$T/pre.out' && cmp '$T/pre.gcc' '$T/pre.out'"

check "-fsanitize-kcfi-annotated-asm keeps the plugin's text" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -fsanitize-kcfi-annotated-asm -O2 -S -o '$T/ann.s' '$DEMO' &&
	 grep -q '^	\.kcfi_version' '$T/ann.s'"
check "a -wrapper of the user's: annotated text, with a warning" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -wrapper env -O2 -S -o '$T/w.s' '$DEMO' 2>'$T/w.err' &&
	 grep -q '^	\.kcfi_version' '$T/w.s' && grep -q 'warning: -S writes the annotated' '$T/w.err'"

# What kcfi-as refuses fails -S as it fails -c, naming the line, no output.
refused_S() {
	! "$KCFI_GCC" -fsanitize=kcfi -fsanitize-kcfi-extern-stubs -fpatchable-function-entry=4,2 \
		-O2 -S -o "$T/ref.s" "$top_srcdir/tests/e2e/extern-stubs-run.c" 2>"$T/ref.err" &&
		grep -q 'ref\.s:[0-9]*: error: extern stubs cannot be combined' "$T/ref.err" &&
		[ ! -e "$T/ref.s" ] && ! ls "$T"/ref.s.* 2>/dev/null
}
check "a refusal by kcfi-as fails -S, names the line, leaves no output" refused_S
finish
