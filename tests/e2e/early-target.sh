#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The insn that sets a checked call's target goes above the argument set-up
# (prepass/early-target.cc), so the check's load of the type id does not
# wait on a load right before it: kernel flags, -Os (no scheduler) and -O2.
# It stays below a store that may alias its load, a volatile load, an asm
# and the write of its address; -g changes no code; the programs compute
# the same.
. "$top_srcdir/tests/e2e/lib.sh"

KFLAGS="-mindirect-branch=thunk-extern -mindirect-branch-register -mcmodel=kernel -fno-pic -fpatchable-function-entry=11,11"
# body OBJ FUNC: FUNC's instructions, one per line, without addresses.
body() {
	"$OBJDUMP" -d -w --no-show-raw-insn "$1" | awk -v f="<$2>:" '
		$2 == f { on = 1; next } /^$/ { on = 0 }
		on { sub(/^ *[0-9a-f]+:\t/, ""); gsub(/ +/, " "); print }'
}
# before_check OBJ FUNC: the instruction right before FUNC's check.
before_check() {
	body "$1" "$2" | awk '/^mov \$0x[0-9a-f]+,%r10d$/ { print prev; exit } { prev = $0 }'
}
# line_of OBJ FUNC ERE: the number of FUNC's first instruction matching ERE
# (the last one with "last"), 0 if none.
line_of() {
	body "$1" "$2" | RE=$3 LAST=${4:-} awk '
		$0 ~ ENVIRON["RE"] { n = NR; if (!ENVIRON["LAST"]) exit } END { print n + 0 }'
}
target_load='^mov .*\(%r[a-z0-9]+.*\),%r11$'

for o in -Os -O2; do
	if kgcc $o $KFLAGS -c -o "$T/k$o.o" "$E2E/early-target.c"; then
		pass "$o kernel flags: builds"
	else
		fail "$o kernel flags: builds"
		continue
	fi
	k="$T/k$o.o"
	for f in shuffle after_asm; do
		got=$(before_check "$k" $f)
		check "$o $f: the check does not start with the target's load ($got)" \
			sh -c "[ -n '$got' ] && ! echo '$got' | grep -Eq '$target_load'"
	done
	# The load is above at least one instruction of the argument set-up.
	ld=$(line_of "$k" shuffle "$target_load") ck=$(line_of "$k" shuffle '^mov \$0x[0-9a-f]+,%r10d$')
	check "$o shuffle: the target's load is 2 or more instructions above the check" \
		sh -c "[ $ld -gt 0 ] && [ $((ck - ld)) -ge 3 ]"
	st=$(line_of "$k" after_store '^mov %r[a-z0-9]+,\(%r[a-z0-9]+\)$')
	ld=$(line_of "$k" after_store "$target_load")
	check "$o after_store: the load stays below the store ($st < $ld)" sh -c "[ $st -gt 0 ] && [ $st -lt $ld ]"
	vo=$(line_of "$k" after_volatile '^mov 0x10\(%r[a-z0-9]+\),%r[a-z0-9]+$')
	ld=$(line_of "$k" after_volatile "$target_load")
	check "$o after_volatile: the load stays below the volatile load ($vo < $ld)" sh -c "[ $vo -gt 0 ] && [ $vo -lt $ld ]"
	as=$(line_of "$k" after_asm '^nop$' last) ld=$(line_of "$k" after_asm "$target_load")
	check "$o after_asm: the load stays below the asm ($as < $ld)" sh -c "[ $as -gt 0 ] && [ $as -lt $ld ]"
	check "$o kernel flags: every trap guards a thunk call" adjacent "$k"
	# -fcompare-debug compiles again with -g0 and fails if the code differs.
	check "$o -g: the same code as without (-fcompare-debug)" \
		kgcc $o -g $KFLAGS -fcompare-debug -c -o "$T/cd$o.o" "$E2E/early-target.c"
done

for o in -O0 -O1 -O2 -Os -O3; do
	for t in keep thunk; do
		if kgcc $o -mindirect-branch=$t -DEARLY_TARGET_MAIN -o "$T/run$o$t" "$E2E/early-target.c"; then
			check "$o -mindirect-branch=$t: the calls compute" "$T/run$o$t"
		else
			fail "$o -mindirect-branch=$t: builds"
		fi
	done
done
finish
