#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-audit on aarch64 and riscv64 objects from <triple>-kcfi-gcc (no
# qemu needed): exit 0 with prog.c's counts; a check removed by hand from
# the rewritten assembly is named; riscv64 also without RVC.  Skipped for
# targets configure found no cross plugin for.
. "$top_srcdir/tests/audit/lib.sh"
. "$top_srcdir/tests/cross/lib.sh"
A=$top_srcdir/tests/audit
pick_triples norun

GOOD="2 checked, 3 exempt (inline-asm 1, no-sanitize 1, jump-table 1), 0 unchecked, 0 outside instrumented code, 9 instrumented functions, 9 preambles, 2 traps, 0 findings"
for t in $TS; do
	arch=${t%%-*}
	for march in default norvc; do
		[ $march = norvc ] && [ $arch != riscv64 ] && continue
		n=$arch-$march
		flags=-O2
		[ $march = norvc ] && flags="-O2 -march=rv64g -mabi=lp64d"
		if ! kx "$t" $flags -S -o "$T/$n.s" "$A/prog.c" ||
			! "$KCFI_AS" --kcfi-no-assemble --kcfi-save="$T/$n.k.s" "$T/$n.s" 2>"$T/$n.err"; then
			fail "$n: building prog.c"; cat "$T/$n.err"; continue
		fi
		asflags=
		[ $march = norvc ] && asflags=-march=rv64g
		"$t-as" $asflags -o "$T/$n.o" "$T/$n.k.s"
		check "$n: exit 0, the counts of prog.c" sh -c \
			". '$A/lib.sh'; audited '$T/$n.o' 0 && has_line '$T/$n.o' '$T/$n.o: $arch: $GOOD'"
		# apply's check removed: from its load of the id to its trap.
		case $arch in
		aarch64) first='^\tldur\tw' last='^\tbrk\t' ;;
		riscv64) first='^\tlw\tt[0-9], -' last='^\tebreak$' ;;
		esac
		awk -v first="$first" -v last="$last" '$0 ~ first && !done { skip = 1 }
			skip && $0 ~ last { skip = 0; done = 1; next } skip && /^\t/ { next } { print }' \
			"$T/$n.k.s" > "$T/$n-nocheck.s"
		"$t-as" $asflags -o "$T/$n-nocheck.o" "$T/$n-nocheck.s"
		check "$n: check removed: apply's bare call is named" sh -c \
			". '$A/lib.sh'; audited '$T/$n-nocheck.o' 1 &&
			 grep -qE '^$T/$n-nocheck.o: \\.text\\+0x[0-9a-f]+ <apply>: indirect call .* without a KCFI check\$' '$T/$n-nocheck.o.audit' &&
			 grep -q ': 1 checked, .*, 1 unchecked, ' '$T/$n-nocheck.o.audit'"
	done
done

# -- a preamble's id word is data -------------------------------------------
# On riscv64 an id word can look like an indirect branch: c.jr and c.jalr in
# either half, a 32-bit jalr in the whole word (311 of 37,725 preambles
# of the riscv64 KUnit kernel).  The
# sweep must step over the word at each __cfi_ symbol, not count a branch.
for t in $TS; do
	[ "${t%%-*}" = riscv64 ] || continue
	{
		printf '\t.text\n'
		# Typed as functions or not: Linux's and kcfi-as's are untyped.
		for w in 0x12348302 0x93020001 0x00030067 0x000300e7; do
			case $w in 0x1*|0x9*) printf '\t.type __cfi_f%s, @function\n' $w ;; esac
			printf '__cfi_f%s:\n\t.word %s\n' $w $w
			printf '\t.globl f%s\n\t.type f%s, @function\nf%s:\n\tret\n' $w $w $w
		done
	} > "$T/idwords.s"
	"$t-as" -o "$T/idwords.o" "$T/idwords.s"
	check "riscv64: id words that decode as c.jr, c.jalr, jr and jalr are not branches" sh -c \
		". '$A/lib.sh'; audited '$T/idwords.o' 0 &&
		 has_line '$T/idwords.o' '$T/idwords.o: riscv64: 0 checked, 0 exempt (), 0 unchecked, 0 outside instrumented code, 0 instrumented functions, 4 preambles, 0 traps, 0 findings'"
done

# -- addresses taken by code in linked programs -------------------------------
# taken_plain has no preamble (plain gcc) and is hidden, so main computes
# its address itself: adrp+add on aarch64, auipc+addi (PIC, medany) or
# lui+addi (medlow) on riscv64; a linked program keeps neither a
# relocation nor a data word of it.  The finding must name an instruction
# of main.
echo 'int taken_plain(int x) { return x + 1; }' > "$T/plain-fn.c"
for t in $TS; do
	arch=${t%%-*}
	[ -d "/usr/$t/lib" ] || { echo "SKIP $t programs: no sysroot /usr/$t"; continue; }
	"$t-gcc" -O2 -c -o "$T/$arch-plain-fn.o" "$T/plain-fn.c" || { fail "$t-gcc plain-fn.c"; continue; }
	for mode in nopie pie static medany; do
		case $mode in
		nopie) fl="-fno-pie -no-pie" ;; pie) fl="-fPIE -pie" ;; static) fl=-static ;;
		medany) [ "$arch" = riscv64 ] || continue; fl="-fno-pie -no-pie -mcmodel=medany" ;;
		esac
		p=$T/$arch-taker-$mode
		# shellcheck disable=SC2086
		kx "$t" -O2 -DTAKER_HIDDEN $fl -o "$p" "$A/taker.c" "$T/$arch-plain-fn.o" ||
			{ fail "$arch $mode: linking taker.c"; continue; }
		sym() { readelf -sW "$p" | awk -v n="$1" '$8 == n { print $2, $3 }'; }
		text=$(readelf -SW "$p" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".text" { print $3 }')
		set -- $(sym taken_plain) $(sym main)
		fn=$(printf '0x%x' $((0x${1:-0} - 0x${text:-0})))
		lo=$((0x${3:-0} - 0x${text:-0})) hi=$((0x${3:-0} + ${4:-0} - 0x${text:-0}))
		check "$arch $mode: taken_plain's address computed by main's code, no preamble: named, exit 0 (1 under --strict)" sh -c \
			". '$A/lib.sh'; audited '$p' 0 && audited '$p' 1 --strict || exit 1
			 at=\$(sed -n 's/^$(echo "$p" | sed 's/[/.]/\\&/g'): \\.text+$fn <taken_plain>: address taken (\\.text+\\(0x[0-9a-f]*\\)) but no KCFI preamble\$/\\1/p' '$p.audit')
			 [ -n \"\$at\" ] && [ \$((at)) -ge $lo ] && [ \$((at)) -lt $hi ] ||
			 { echo \"no finding at taken_plain ($fn) naming main's code (.text+$lo..$hi)\"; cat '$p.audit'; exit 1; }"
	done
done
finish
