#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inline assembly on every backend (doc/design.md, "Inline assembly"): a
# unit whose asm statements hold an indirect call, an asm goto's indirect
# jump and several lines each, with a file-scope asm function that calls
# through a register, next to a checked C call, at -O0 and -O2,
# for x86_64 (natively), i386, aarch64, riscv64 and arm in Thumb-2 and ARM
# state (under qemu-user), also with -fno-toplevel-reorder.  Each build: the text of every asm statement is
# plain GCC's, byte for byte; the program runs, and the mistyped C call
# traps; kcfi-audit finds the asm branches exempt as inline assembly, the
# C call checked, nothing unchecked.  GCC marks the asm of arm by line
# markers only ("@ 1 "f.c" 1" ... "@ 0 "" 2"), of the others by #APP too.
. "$top_srcdir/tests/cross/lib.sh"
SRC=$X/inline-asm.c
AUDIT=$top_builddir/kcfi-audit

# The configurations: NAME DRIVER PLAIN-GCC COMMENT TRAP-STATUS FLAGS.
# x86_64 traps with ud2 (SIGILL), the others with a breakpoint (SIGTRAP).
CONFIGS=
if [ -x "$KCFI_GCC" ] && [ "$(uname -m)" = x86_64 ]; then
	CONFIGS="x86_64 $KCFI_GCC ${PLUGIN_CC:-gcc} # 132 -"	# the GCC kcfi-gcc wraps (gcc-11 under make check-gcc11)
else
	echo "SKIP x86_64: not an x86_64 host, or kcfi-gcc is not built"
fi
for t in ${CROSS_TRIPLES:-}; do
	usable "$t" || continue
	case $t in
	i?86-*) CONFIGS="$CONFIGS
i386 $top_builddir/$t-kcfi-gcc $t-gcc # 133 -" ;;
	aarch64-*) CONFIGS="$CONFIGS
aarch64 $top_builddir/$t-kcfi-gcc $t-gcc // 133 -" ;;
	riscv64-*) CONFIGS="$CONFIGS
riscv64 $top_builddir/$t-kcfi-gcc $t-gcc # 133 -" ;;
	arm-*) CONFIGS="$CONFIGS
arm-thumb $top_builddir/$t-kcfi-gcc $t-gcc @ 133 -mthumb
arm-arm $top_builddir/$t-kcfi-gcc $t-gcc @ 133 -marm" ;;
	esac
done
[ -n "$CONFIGS" ] || skip "no target usable"

# runner NAME: how its programs run.
runner() {
	case $1 in
	x86_64) ;;
	i386) echo "qemu-i386 -L /usr/$($PLAIN -dumpmachine)" ;;
	aarch64|riscv64) echo "qemu-$1 -L /usr/$($PLAIN -dumpmachine)" ;;
	arm-*) echo "qemu-arm -L /usr/$($PLAIN -dumpmachine)" ;;
	esac
}

# asm_text COMMENT FILE: the lines of every asm statement, between GCC's
# line markers, without the labels and records kcfi-as may put at its
# edges (a label, then .pushsection ... .popsection, then maybe a line
# marker); anything else kcfi-as wrote there would show.
asm_text() {
	awk -v c="$1" '
	$0 ~ "^" c " [1-9][0-9]* \".*\" 1$" { inside = 1; n++; print "-- asm " n; next }
	$0 == c " 0 \"\" 2" { inside = 0; next }
	!inside { next }
	/^\.Lkcfi_exempt[0-9]+:$/ { next }
	/^	\.pushsection	\.debug,/ { rec = 1; next }
	rec { if ($0 == "	.popsection") rec = 0; next }
	/^# [0-9]+ "/ { next }
	{ print }' "$2"
}

# audit_is FILE WANT...: kcfi-audit's summary of FILE holds each WANT.
audit_is() {
	f=$1
	shift
	"$AUDIT" -q "$f" >"$T/audit.out" 2>&1
	rc=$?
	[ $rc -le 1 ] || { cat "$T/audit.out"; return 1; }
	for a_w; do
		grep -q -- "$a_w" "$T/audit.out" || { echo "no '$a_w' in:"; cat "$T/audit.out"; return 1; }
	done
}

# (not "name": check() in tests/lib.sh sets that one)
while read -r cfg DRIVER PLAIN C trap flags; do
	[ -n "$cfg" ] || continue
	[ "$flags" = - ] && flags=
	run=$(runner "$cfg")
	# GCC prints file-scope asm first, unless told to keep the order.
	for v in -O0 -O2 -O2_-fno-toplevel-reorder; do
		o=$(echo "$v" | tr _ ' ')
		w="$cfg $o"
		p=$T/$cfg$v
		if ! "$DRIVER" -fsanitize=kcfi $o $flags -no-pie -S -o "$p.s" "$SRC" 2>"$p.err" ||
		   ! "$DRIVER" -fsanitize=kcfi $o $flags -no-pie -c -o "$p.o" "$SRC" 2>>"$p.err" ||
		   ! "$DRIVER" -fsanitize=kcfi $o $flags -no-pie -o "$p" "$p.o" 2>>"$p.err"; then
			fail "$w: builds"; sed 's/^/    /' "$p.err"
			continue
		fi
		pass "$w: builds"
		"$PLAIN" $o $flags -no-pie -S -o "$p.plain.s" "$SRC" || { fail "$w: plain $PLAIN"; continue; }
		asm_text "$C" "$p.plain.s" >"$p.plain.asm"
		asm_text "$C" "$p.s" >"$p.asm"
		check "$w: three asm statements, each byte for byte plain GCC's" sh -c \
			"[ \$(grep -c '^-- asm' '$p.plain.asm') -eq 3 ] && cmp '$p.plain.asm' '$p.asm'"
		check "$w: runs (the asm calls and jumps, the C call)" sh -c \
			"$run '$p' >'$p.out' 2>&1 && grep -qx 'inline asm: ok' '$p.out'"
		check "$w: the mistyped C call traps" sh -c \
			"$run '$p' wrong >'$p.out' 2>&1; test \$? -eq $trap"
		check "$w: kcfi-audit on the object: the C call checked, three asm branches exempt, clean" sh -c \
			"'$AUDIT' '$p.o' >'$p.audit' 2>&1 && grep -q ': 1 checked, 3 exempt (inline-asm 3), 0 unchecked, 0 outside' '$p.audit' ||
			 { cat '$p.audit'; exit 1; }"
		check "$w: kcfi-audit on the program: three inline-asm branches, 0 unchecked" \
			audit_is "$p" "inline-asm 3" " 0 unchecked"
	done
done <<END
$CONFIGS
END
finish
