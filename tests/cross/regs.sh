#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# aarch64 and riscv64: a check must not overwrite a register the program
# needs (tests/e2e/regs.sh is the x86_64 side).  The checks write
#   aarch64  x16, x17 (x9 for one of them when the target is in x16/x17)
#   riscv64  t1, t2 (t3.. for one of them when the target is in t1/t2)
#   arm      ip (lr for a call through ip, r3 for a sibcall through ip)
# GCC passes the static chain in x18 on aarch64, which no check writes: such
# a call is checked and keeps its chain.  On riscv64 the chain is t2, on arm
# ip: refused.
# -ffixed-REG, -fcall-saved-REG and global register variables in those
# registers are refused, naming the option or variable; without them the
# same code builds and runs.
. "$top_srcdir/tests/cross/lib.sh"
CROSS_ARCHES="aarch64 riscv64 arm"
pick_triples

C=$top_srcdir/tests/e2e/regs-chain.c F=$top_srcdir/tests/e2e/regs-fixed.c

# refused TRIPLE NAME PATTERN ARGS...: refused_build with TRIPLE's kcfi-gcc.
refused() {
	r_t=$1 r_n=$2
	shift 2
	refused_build "$top_builddir/$r_t-kcfi-gcc" "$r_t-$r_n" "$@"
}
# runs TRIPLE NAME OUTPUT ARGS...: built by <triple>-kcfi-gcc ARGS, prints
# OUTPUT and exits 0 under qemu.
runs() {
	u_t=$1 u_n=$2 u_w=$3
	shift 3
	if ! "$top_builddir/$u_t-kcfi-gcc" "$@" -o "$T/$u_n" 2>"$T/$u_n.err"; then
		fail "$u_t $u_n: does not build"; sed 's/^/    /' "$T/$u_n.err"
	elif ! qrun "$u_t" "$T/$u_n" >"$T/$u_n.out" 2>&1 || [ "$(cat "$T/$u_n.out")" != "$u_w" ]; then
		fail "$u_t $u_n: printed '$(cat "$T/$u_n.out")', not '$u_w'"
	else
		pass "$u_t $u_n"
	fi
}

for t in $TS; do
	case $t in
	aarch64-*) fixed="x16 x17" global=x17 free=x18 kept=x19 ;;
	riscv64-*) fixed="t1 t2 x6 x7" global=t2 free=t3 kept=s2 ;;
	arm-*) fixed="ip r12" global=ip free=r9 kept=r5 ;;
	esac
	for o in -O0 -O2; do
		case $t in
		aarch64-*)
			runs "$t" chain$o 0x1234 -fsanitize=kcfi $o -Wa,--kcfi-save="$T/chain$o.s" "$C"
			check "$t chain$o: the call is checked" grep -q 'brk	#0x' "$T/chain$o.s"
			check "$t chain$o: ... and traps on another type" sh -c \
				"'$top_builddir/$t-kcfi-gcc' -fsanitize=kcfi $o -DMISMATCH -o '$T/mis' '$C' &&
				 { $(qemu_of "$t") -L /usr/$t '$T/mis' >/dev/null 2>&1; test \$? -eq 133; }" ;;
		riscv64-*)
			refused "$t" chain$o "the KCFI check of 'j\(al\)\{0,1\}r	a[0-9]' in call() would overwrite t2 (the riscv64 check writes t1, t2), which passes this call's static chain" $o "$C" ;;
		arm-*)
			refused "$t" chain$o "the KCFI check of 'bl\{0,1\}x	r[0-9]' in call() would overwrite ip (the arm check writes ip), which passes this call's static chain" $o "$C" ;;
		esac
		runs "$t" chain-nosan$o 0x1234 -fsanitize=kcfi $o -DNOSAN "$C"
		runs "$t" chain-nokcfi$o 0x1234 $o "$C"

		for r in $fixed; do
			refused "$t" fixed-$r$o "the KCFI check of '.*' in main() would overwrite .*, which -ffixed-$r reserves: build this file without -ffixed-$r" $o -ffixed-$r "$F"
		done
		r=${fixed%% *}
		refused "$t" call-saved-$r$o "which -fcall-saved-$r reserves" $o -fcall-saved-$r "$F"
		refused "$t" global-$global$o "would overwrite $global (.*), which holds the global register variable keep (.*regs-fixed.c:9)" \
			$o -DGLOBAL_REG="\"$global\"" "$F"
		runs "$t" plain$o 42 -fsanitize=kcfi $o "$F"
		runs "$t" fixed-$free$o 42 -fsanitize=kcfi $o -ffixed-$free "$F"
		runs "$t" global-$kept$o 42 -fsanitize=kcfi $o -DGLOBAL_REG="\"$kept\"" "$F"
		runs "$t" global-$global-nokcfi$o 42 $o -w -DGLOBAL_REG="\"$global\"" "$F"
		case $t in
		arm-*)	# r3 saved and restored around the check of bx ip: not
			# refused although r3 carries the fourth argument.
			for m in -mthumb -marm; do
				runs "$t" sib4$m$o 4321 -fsanitize=kcfi $o $m "$top_srcdir/tests/cross/arm-sib4.c"
			done ;;
		esac
	done
done
finish
