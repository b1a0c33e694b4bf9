#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# x86_64: a check must not overwrite a register the program needs.  The
# check writes %r10 (Linux decodes exactly that sequence), and %r11 only
# for targets it must move there first (doc/abi.md 1), so kcfi-gcc refuses,
# naming the call and the reason, where %r10 is
#   - the static chain of the call (__builtin_call_with_static_chain),
#   - reserved by -ffixed-r10 or -fcall-saved-r10,
#   - home of a global register variable;
# and the same code builds and runs correctly without what reserves it.
# The call here goes through %rax, read in place: a reserved %r11 keeps its
# value and the checked program runs.
. "$top_srcdir/tests/e2e/lib.sh"

# refused NAME PATTERN ARGS...: refused_build with kcfi-gcc.
refused() { refused_build "$KCFI_GCC" "$@"; }
# runs NAME OUTPUT CC ARGS...: builds with CC and prints OUTPUT, exit 0.
runs() {
	name=$1 want=$2
	shift 2
	if ! "$@" -o "$T/$name" 2>"$T/$name.err"; then
		fail "$name: does not build"; sed 's/^/    /' "$T/$name.err"
	elif ! "$T/$name" >"$T/$name.out" 2>&1 || [ "$(cat "$T/$name.out")" != "$want" ]; then
		fail "$name: printed '$(cat "$T/$name.out")', not '$want'"
	else
		pass "$name"
	fi
}

C=$E2E/regs-chain.c F=$E2E/regs-fixed.c
for o in -O0 -O2; do
	# The static chain: sibcall at -O2, call at -O0.
	refused chain$o "the KCFI check of '\(call\|jmp\)	\*%rax' in call() would overwrite r10 (the x86_64 check writes r10), which passes this call's static chain" $o "$C"
	runs chain-nosan$o 0x1234 "$KCFI_GCC" -fsanitize=kcfi $o -DNOSAN "$C"
	runs chain-nokcfi$o 0x1234 "$KCFI_GCC" $o "$C"

	for opt in -ffixed-r10 -fcall-saved-r10; do
		refused "fixed$opt$o" "the KCFI check of 'call	\*%rax' in main() would overwrite r10 (.*), which $opt reserves: build this file without $opt" $o $opt "$F"
	done
	refused global-r10$o "would overwrite r10 (.*), which holds the global register variable keep (.*regs-fixed.c:9)" $o -DGLOBAL_REG='"r10"' "$F"
	for opt in -ffixed-r11 -fcall-saved-r11; do
		runs "fixed$opt$o" 42 "$KCFI_GCC" -fsanitize=kcfi $o $opt "$F"
	done
	runs global-r11$o 42 "$KCFI_GCC" -fsanitize=kcfi $o -DGLOBAL_REG='"r11"' "$F"
	check "global-r11$o: checked, and through %rax" sh -c \
		"'$OBJDUMP' -d '$T/global-r11$o' | grep -A2 'add .*-0x4(%rax),%r10d' | grep -q ud2"
	# Without them, and with registers no check writes.
	runs plain$o 42 "$KCFI_GCC" -fsanitize=kcfi $o "$F"
	runs fixed-r12$o 42 "$KCFI_GCC" -fsanitize=kcfi $o -ffixed-r12 "$F"
	runs global-r12$o 42 "$KCFI_GCC" -fsanitize=kcfi $o -DGLOBAL_REG='"r12"' "$F"
	runs global-r10-nokcfi$o 42 "$KCFI_GCC" $o -w -DGLOBAL_REG='"r10"' "$F"
done
check "the checked program has its check" sh -c \
	"'$OBJDUMP' -d '$T/plain-O2' | grep -q ud2"

# With -g the input says which C line each branch comes from (.file and
# .loc): the refusal is reported there, the temporary .s line after it.
# Without -g it has only the .s line (refused_build above).
at_source() {	# WANT ARGS...: refused at WANT (FILE:LINE:COL)
	want=$1
	shift
	! "$KCFI_GCC" -fsanitize=kcfi "$@" -c -o "$T/src.o" 2>"$T/src.err" || { echo "built"; return 1; }
	grep -q "^$want: error: the KCFI check of .* (assembly: [^ ]*\.s:[0-9]*)\$" "$T/src.err" ||
		{ cat "$T/src.err"; return 1; }
}
for o in -O0 -O2; do
	check "fixed-r10$o -g: the error names the C line of the call" at_source "$F:23:11" $o -g -ffixed-r10 "$F"
	check "global-r10$o -gdwarf-4: the error names the C line of the call" \
		at_source "$F:23:11" $o -gdwarf-4 -DGLOBAL_REG='"r10"' "$F"
	check "chain$o -g: the error names the C line of the call" at_source "$C:39:42" $o -g "$C"
done

# What the plugin tells kcfi-as (doc/directives.md 2.6, 3.7).
kgcc -fsanitize-kcfi-annotated-asm -O2 -S -w -ffixed-r11 -fcall-saved-r10 -ffixed-xmm3 -DGLOBAL_REG='"r12"' -o "$T/f.s" "$F"
check ".kcfi_reserved for a global register variable, with its declaration" \
	grep -q '^	\.kcfi_reserved r12, global, "keep (.*regs-fixed\.c:9)"$' "$T/f.s"
check ".kcfi_reserved for -ffixed-r11, -fcall-saved-r10, -ffixed-xmm3" sh -c \
	"grep -q '^	\.kcfi_reserved r11, option, \"-ffixed-r11\"\$' '$T/f.s' &&
	 grep -q '^	\.kcfi_reserved r10, option, \"-fcall-saved-r10\"\$' '$T/f.s' &&
	 grep -q '^	\.kcfi_reserved xmm3, option, \"-ffixed-xmm3\"\$' '$T/f.s'"
check "... before the first .kcfi_func" sh -c \
	"awk '/\\.kcfi_func/ { f = 1 } /\\.kcfi_reserved/ && f { bad = 1 } END { exit bad }' '$T/f.s'"
kgcc -fsanitize-kcfi-annotated-asm -O2 -S -o "$T/plain.s" "$F"
check "no .kcfi_reserved when nothing is reserved" sh -c "! grep -q kcfi_reserved '$T/plain.s'"
check "chain=r10 on the call that passes a static chain, and only there" sh -c \
	"'$KCFI_GCC' -fsanitize=kcfi -fsanitize-kcfi-annotated-asm -O2 -S -o '$T/c.s' '$C' && grep -c 'kcfi_call.*chain=' '$T/c.s' | grep -qx 1 &&
	 grep -q '^	\.kcfi_call [0-9]*, chain=r10\$' '$T/c.s'"
finish
