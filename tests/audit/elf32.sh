#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-audit on ELF32: i386 (kcfi-gcc -m32, and i686-linux-gnu-kcfi-gcc for
# what needs a 32-bit link) and arm (arm-linux-gnueabihf-kcfi-gcc, Thumb-2
# and ARM state).  For each: prog.c's object, its ld -r with target.c and
# a shared library exit 0 with exact counts; --targets sees apply()'s four
# possible targets and run()'s one, and names names.c's ten types from
# kcfi-as's records and from DWARF; then broken outputs, each named by its
# exact finding: a check removed by hand from the rewritten assembly, a
# check whose je/beq was turned around, a check before a branch through
# another register; a linked program whose code alone takes the address of
# a function without a preamble (non-PIE, PIE, static).  On arm also which
# writes of pc are branches and which are returns.  Offsets come from
# objdump and readelf, not from kcfi-audit.  A variant whose compiler or
# binutils are missing is skipped by name.
. "$top_srcdir/tests/audit/lib.sh"

# The cross drivers find their own plugins; the environment names the native one.
XGCC() { env -u KCFI_PLUGIN "$top_builddir/$@"; }
echo 'int taken_plain(int x) { return x + 1; }' > "$T/plain-fn.c"
ran=0

# variant NAME: sets CC (compiler and flags, objects), LINK (for shared
# libraries and programs; empty: none here), AS, LD, OBJDUMP, OBJCOPY, GCC
# (plain, for the function without KCFI), ARCH and the exact summary.
variant() {
	CC= LINK= GCC= tr=
	case $1 in
	i386-m32)
		[ -f "${KCFI_PLUGIN:-}" ] || { echo "SKIP $1: the native plugin is not built"; return 1; }
		CC="$KCFI_GCC -fsanitize=kcfi -m32" AS="as --32" LD="ld -m elf_i386" OBJDUMP=objdump OBJCOPY=objcopy ;;
	i386-cross) tr=i686-linux-gnu ;;
	arm-thumb|arm-arm) tr=arm-linux-gnueabihf ;;
	esac
	if [ -n "$tr" ]; then
		[ -x "$top_builddir/$tr-kcfi-gcc" ] || { echo "SKIP $1: configure found no plugin for $tr-gcc"; return 1; }
		command -v "$tr-objdump" >/dev/null || { echo "SKIP $1: no $tr-objdump"; return 1; }
		CC="XGCC $tr-kcfi-gcc -fsanitize=kcfi" LINK=$CC AS=$tr-as LD=$tr-ld OBJDUMP=$tr-objdump OBJCOPY=$tr-objcopy GCC=$tr-gcc
		case $1 in arm-thumb) CC="$CC -mthumb" GCC="$GCC -mthumb" ;; arm-arm) CC="$CC -marm" GCC="$GCC -marm" ;; esac
		LINK=$CC
	fi
	case $1 in
	# arm: the inline assembly is known by GCC's line markers alone.
	i386-*|arm-*) EX="3 exempt (inline-asm 1, no-sanitize 1, jump-table 1)" ;;
	esac
	case $1 in
	i386-*) ARCH=i386 ;;
	arm-*) ARCH=arm ;;
	esac
}

# The address (hex, no 0x) of the first instruction matching PATTERN in
# function FN of FILE's disassembly.
insn_in() {
	$OBJDUMP -d --no-show-raw-insn "$1" |
		awk -v fn="<$2>:" -v pat="$3" '$2 == fn { on = 1; next } /^$/ { on = 0 }
			on && $0 ~ pat { sub(":", "", $1); print $1; exit }'
}
# Functions GCC wrote with a .size (every one gets a range record); GCC's
# i386 PIC helper __x86.get_pc_thunk.* is printed without kcfi-as seeing a
# function start.
funcs() { readelf -sW "$1" | awk '$4 == "FUNC" && $8 !~ /^(__cfi_|__kcfi_|__x86\.get_pc_thunk)/' | wc -l; }

for v in i386-m32 i386-cross arm-thumb arm-arm; do
	variant $v || continue
	ran=1
	n=$T/$v
	# shellcheck disable=SC2086
	if ! $CC -O2 -S -o "$n-prog.s" "$A/prog.c" || ! $CC -O2 -S -o "$n-target.s" "$A/target.c" ||
	   ! "$KCFI_AS" --kcfi-no-assemble --kcfi-save="$n-prog.k.s" "$n-prog.s" ||
	   ! "$KCFI_AS" --kcfi-no-assemble --kcfi-save="$n-target.k.s" "$n-target.s" ||
	   ! $AS -o "$n-prog.o" "$n-prog.k.s" || ! $AS -o "$n-target.o" "$n-target.k.s"; then
		fail "$v: building prog.c and target.c"; continue
	fi
	NF=$(funcs "$n-prog.o")
	NF2=$((NF + $(funcs "$n-target.o")))
	GOOD="$ARCH: 2 checked, $EX, 0 unchecked, 0 outside instrumented code"
	check "$v: prog.o: exit 0, the counts of prog.c" sh -c \
		". '$A/lib.sh'; audited '$n-prog.o' 0 && has_line '$n-prog.o' \
		 '$n-prog.o: $GOOD, $NF instrumented functions, 9 preambles, 2 traps, 0 findings'"
	$LD -r -o "$n-both.o" "$n-prog.o" "$n-target.o"
	check "$v: ld -r of prog.o and target.o: exit 0, ten preambles" sh -c \
		". '$A/lib.sh'; audited '$n-both.o' 0 && has_line '$n-both.o' \
		 '$n-both.o: $GOOD, $NF2 instrumented functions, 10 preambles, 2 traps, 0 findings'"
	if [ -n "$LINK" ]; then
		# shellcheck disable=SC2086
		$LINK -O2 -shared -fPIC -nostartfiles -o "$n-lib.so" "$A/prog.c" "$A/target.c"
		check "$v: a shared library: exit 0, the same counts" sh -c \
			". '$A/lib.sh'; audited '$n-lib.so' 0 && has_line '$n-lib.so' \
			 '$n-lib.so: $GOOD, $NF2 instrumented functions, 10 preambles, 2 traps, 0 findings'"
		II=$(fnv1a _ZTSFiiE)
		"$AUDIT" --targets --csv="$n.csv" "$n-lib.so" > "$n.targets" 2>&1
		check "$v: --targets: one site with 1 target, one with 2-4; int (int) has 4 functions" sh -c \
			"grep -qx '  1              1   50.0%' '$n.targets' && grep -qx '  2-4            1   50.0%' '$n.targets' &&
			 grep -A1 'most permissive' '$n.targets' | tail -1 | grep -qE '^  $II +4 +1  _ZTSFiiE  (inc|dbl|neg|ext_target)\$' &&
			 grep -qE '^\"$n-lib.so\",\".text\",0x[0-9a-f]+,\"apply\",$II,4,\"_ZTSFiiE\"\$' '$n.csv'"
	fi

	# -- type names: kcfi-as's records, else the DWARF (names.c: ten ids) ---
	# shellcheck disable=SC2086
	if $CC -O2 -g -c -o "$n-names.o" "$A/names.c"; then
		$OBJCOPY --remove-section=.debug "$n-names.o" "$n-dwarf.o"
		"$AUDIT" --targets "$n-names.o" > "$n-names.out" 2>&1
		"$AUDIT" --targets "$n-dwarf.o" > "$n-dwarf.out" 2>&1
		check "$v: type names for all ten ids of names.c, from the records and from DWARF" sh -c \
			"grep -qx '$n-names.o: type names for 10 of 10 ids (FNV-1a), 0 of them with more than one name (a hash collision)' '$n-names.out' &&
			 grep -qx '$n-dwarf.o: type names for 10 of 10 ids (FNV-1a; 10 from DWARF), 0 of them with more than one name (a hash collision)' '$n-dwarf.out' &&
			 grep -qE '^  $(fnv1a _ZTSFlP3objjE) +3 +1  _ZTSFlP3objjE  op_[a-e]\$' '$n-dwarf.out'"
	else
		fail "$v: building names.c"
	fi

	# -- apply's check removed: from its first instruction to its trap ------
	case $ARCH in
	i386) first='^\tcmpl\t[$][0-9]+, -[0-9]+[(]%e' last='^\tint3$' callpat='call +[*]%e[a-z]+$' ;;
	arm) first='^\tbic\t(ip|lr|r3), ' last='^\tbkpt\t' callpat='blx\tr[0-9]+$' ;;
	esac
	awk -v first="$first" -v last="$last" '$0 ~ first && !done { skip = 1 }
		skip && $0 ~ last { skip = 0; done = 1; next } skip && /^\t/ { next } { print }' \
		"$n-prog.k.s" > "$n-nocheck.s"
	$AS -o "$n-nocheck.o" "$n-nocheck.s"
	at=$(insn_in "$n-nocheck.o" apply "$callpat")
	# as kcfi-audit spells it: "call eax", "blx r3"
	sp=$($OBJDUMP -d --no-show-raw-insn "$n-nocheck.o" | awk -v a="$at:" '$1 == a { print; exit }' |
		grep -oE '(call +\*%e[a-z]+|blx'"$(printf '\t')"'r[0-9]+)' | sed -E 's/ +\*%/ /; s/\t/ /')
	check "$v: check removed: apply's bare call is named, exit 1" sh -c \
		"[ -n '$at' ] && . '$A/lib.sh' && audited '$n-nocheck.o' 1 && has_line '$n-nocheck.o' \
		 \"$n-nocheck.o: .text+$(hex "${at:-0}") <apply>: indirect call '$sp' without a KCFI check\" &&
		 grep -q ': 1 checked, .*, 1 unchecked, ' '$n-nocheck.o.audit'"

	# -- run's check turned around: it would trap on the right id ------------
	case $ARCH in
	i386) sed 's/^	je	\.Lkcfi1_call$/	jne	.Lkcfi1_call/' ;;
	arm) sed 's/^	beq\(\.w\)\{0,1\}	\.Lkcfi1_call$/	bne\1	.Lkcfi1_call/' ;;
	esac < "$n-prog.k.s" > "$n-turned.s"
	check "$v: turned: the edit took" sh -c "! cmp -s '$n-prog.k.s' '$n-turned.s'"
	$AS -o "$n-turned.o" "$n-turned.s"
	case $ARCH in i386) jpat='jmp +[*]%e[a-z]+$' ;; arm) jpat='bx\tr[0-9]+$' ;; esac
	jt=$(insn_in "$n-turned.o" run "$jpat")
	check "$v: a check that passes on a mismatch is no check: run's jump is named" sh -c \
		"[ -n '$jt' ] && . '$A/lib.sh' && audited '$n-turned.o' 1 &&
		 grep -qxE \"$n-turned.o: \\.text\\+$(hex "${jt:-0}") <run>: indirect jump '(jmp e[a-z]+|bx r[0-9]+)' without a KCFI check\" '$n-turned.o.audit'"

	# -- run's check before a jump through another register ------------------
	case $ARCH in
	i386) rreg=$(sed -n '/^\.Lkcfi1_call:$/{n;s/^	jmp	\*%\([a-z]*\)$/\1/p}' "$n-prog.k.s")
	      other=ecx; [ "$rreg" != ecx ] || other=edx
	      sed "/^\.Lkcfi1_call:\$/{n;s/^	jmp	\*%$rreg\$/	jmp	*%$other/}" "$n-prog.k.s"
	      want="indirect jump 'jmp $other': the KCFI check in front of it tests %$rreg, but the branch does not go through %$rreg" ;;
	arm) rreg=$(sed -n '/^\.Lkcfi1_call:$/{n;s/^	bx	\(r[0-9]*\)$/\1/p}' "$n-prog.k.s")
	     other=r1; [ "$rreg" != r1 ] || other=r2
	     sed "/^\.Lkcfi1_call:\$/{n;s/^	bx	$rreg\$/	bx	$other/}" "$n-prog.k.s"
	     want="indirect jump 'bx $other': the KCFI check in front of it tests $rreg, but the branch does not go through $rreg" ;;
	esac > "$n-badreg.s"
	check "$v: badreg: the edit took" sh -c "[ -n '$rreg' ] && ! cmp -s '$n-prog.k.s' '$n-badreg.s'"
	$AS -o "$n-badreg.o" "$n-badreg.s"
	case $ARCH in i386) bpat="jmp +[*]%$other\$" ;; arm) bpat="bx\t$other\$" ;; esac
	jb=$(insn_in "$n-badreg.o" run "$bpat")
	check "$v: a check before a branch through another register: named" sh -c \
		"[ -n '$jb' ] && . '$A/lib.sh' && audited '$n-badreg.o' 1 && has_line '$n-badreg.o' \
		 \"$n-badreg.o: .text+$(hex "${jb:-0}") <run>: $want\""

	# -- a function without a preamble whose address only code takes --------
	[ -n "$GCC" ] && command -v "${GCC%% *}" >/dev/null || continue
	# shellcheck disable=SC2086
	$GCC -O2 -c -o "$n-plain-fn.o" "$T/plain-fn.c" || { fail "$v: $GCC"; continue; }
	for mode in nopie pie static; do
		case $mode in nopie) fl="-fno-pie -no-pie" ;; pie) fl="-fPIE -pie" ;; static) fl=-static ;; esac
		p=$n-taker-$mode
		# shellcheck disable=SC2086
		$LINK -O2 $fl -o "$p" "$A/taker.c" "$n-plain-fn.o" 2>"$p.err" ||
			{ echo "SKIP $v $mode: cannot link: $(tail -1 "$p.err")"; continue; }
		fn=$(readelf -sW "$p" | awk '$8 == "taken_plain" { print $2 }')
		text=$(readelf -SW "$p" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".text" { print $3 }')
		check "$v $mode: taken_plain's address taken by main's code, no preamble: named" sh -c \
			"[ -n '$fn' ] && [ -n '$text' ] && . '$A/lib.sh' && audited '$p' 0 &&
			 grep -qE '^$p: \\.text\\+$(printf '0x%x' $(( (0x${fn:-0} & ~1) - 0x${text:-0} ))) <taken_plain>: address taken \\((\\.text|\\.got)\\+0x[0-9a-f]+\\) but no KCFI preamble\$' '$p.audit'"
		# The start files' functions have no size, and literal pools right
		# before them: no preamble may be read out of those.  main has one.
		[ $mode = static ] ||
			check "$v $mode: one preamble, main's" grep -q ', 1 instrumented functions, 1 preambles, ' "$p.audit"
	done
done

# -- arm: which writes of pc are branches ------------------------------------
# Hand-written, so all outside instrumented code: returns (bx lr, pop and
# ldm sp! with pc, ldr pc, [sp], #4, mov pc, lr, the APCS frame's ldmdb
# fp, {.., sp, pc}) and the linker veneer's ldr pc, [pc, #N] are not
# branches a pointer steers; the others are, in both states.
if command -v arm-linux-gnueabihf-as >/dev/null; then
	ran=1
	cat > "$T/pc.s" <<'END'
	.syntax unified
	.arch armv7-a
	.text
	.arm
	.globl	hand
	.type	hand, %function
hand:
	bx	lr
	pop	{r4, pc}
	ldr	pc, [sp], #4
	ldmdb	fp, {r4, fp, sp, pc}
	ldm	sp!, {r4, pc}
	mov	pc, lr
	ldr	pc, [pc, #-4]
	.word	0
	mov	pc, r3
	ldr	pc, [r0, #4]
	blx	r2
	ldm	r0, {r1, pc}
	.size	hand, .-hand
	.thumb
	.globl	thand
	.type	thand, %function
	.thumb_func
thand:
	bx	lr
	pop	{r4, pc}
	ldr	pc, [sp], #4
	pop.w	{r4, r5, pc}
	ldr.w	pc, [pc, #0]
	mov	pc, lr
	mov	pc, r3
	blx	r2
	bx	r1
	tbb	[pc, r0]
	ldr.w	pc, [r0, #4]
	.size	thand, .-thand
	.section	.note.GNU-stack,"",%progbits
END
	arm-linux-gnueabihf-as -o "$T/pc.o" "$T/pc.s"
	want='hand jump mov pc,hand jump ldr pc,hand call blx r2,hand jump ldm {pc},thand jump mov pc,thand call blx r2,thand jump bx r1,thand jump tbb,thand jump ldr pc,'
	check "arm: of the writes of pc, the nine that are no return are indirect branches" sh -c \
		". '$A/lib.sh'; uncounted_only '$T/pc.o' 9 &&
		 grep -q ': 0 checked, 0 exempt (), 0 unchecked, 9 outside instrumented code, ' '$T/pc.o.audit' &&
		 got=\$(sed -n \"s/^.*<\\(t*hand\\)>: indirect \\([a-z]*\\) '\\([^']*\\)' outside .*/\\1 \\2 \\3/p\" '$T/pc.o.audit' | tr '\\n' ,) &&
		 [ \"\$got\" = '$want' ] || { echo \"got \$got\"; false; }"
fi
[ $ran = 1 ] || skip "no ELF32 compiler usable"
finish
