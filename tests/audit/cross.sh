#!/bin/sh
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
finish
