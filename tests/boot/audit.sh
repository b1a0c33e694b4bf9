#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# boot/lib.sh's kcfi_audit, which boot-check runs on every KCFI kernel it
# builds, on arm too: arm's ELF32 vmlinux is audited like the others, not
# passed over.  The kernel is stood in for by ld -r of prog.c and
# target.c (Thumb-2 and ARM state): it passes with the counts in PROOF;
# with apply()'s check removed by hand it fails; with hand-written
# assembly linked in it passes (outside instrumented code, in PROOF); with
# a malformed record and nothing unchecked it fails (kcfi-audit's exit
# status, not the counts, is the verdict).
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
A=$top_srcdir/tests/audit
tr=arm-linux-gnueabihf
[ -x "$top_builddir/$tr-kcfi-gcc" ] || skip "configure found no plugin for $tr-gcc"
command -v $tr-ld >/dev/null || skip "no $tr-ld"
[ -x "$top_builddir/kcfi-audit" ] || skip "kcfi-audit is not built"

# boot_audit FILE: kcfi_audit as boot-check calls it for an arm kernel;
# prints its status and PROOF.
boot_audit() {
	KCFI_BUILDDIR=$top_builddir bash -c '
		log() { echo "log: $*"; }
		. "$1/boot/lib.sh"
		arch_vars arm >/dev/null
		PROOF=
		kcfi_audit "$2"
		echo "status=$? PROOF=$PROOF"' boot_audit "$top_srcdir" "$1"
}

for m in thumb arm; do
	n=$T/$m
	for u in prog target; do
		env -u KCFI_PLUGIN "$top_builddir/$tr-kcfi-gcc" -fsanitize=kcfi -m$m -O2 -S -o "$n-$u.s" "$A/$u.c" &&
			"$KCFI_AS" --kcfi-no-assemble --kcfi-save="$n-$u.k.s" "$n-$u.s" &&
			$tr-as -o "$n-$u.o" "$n-$u.k.s" || fail "$m: building $u.c"
	done
	$tr-ld -r -o "$n-vmlinux" "$n-prog.o" "$n-target.o" || { fail "$m: ld -r"; continue; }
	fns=$(readelf -sW "$n-vmlinux" | awk '$4 == "FUNC"' | wc -l)
	boot_audit "$n-vmlinux" > "$n.out" 2>&1
	check "$m: kcfi_audit audits arm: passes, PROOF has its counts" \
		grep -qx "status=0 PROOF= audit:checked=2,unchecked=0,outside=0,functions=$fns" "$n.out"
	check "$m: the report is kept beside the kernel" test -s "$n-vmlinux.audit"
	awk '/^\tbic\t(ip|lr|r3), / && !done { skip = 1 }
		skip && /^\tbkpt\t/ { skip = 0; done = 1; next } skip && /^\t/ { next } { print }' \
		"$n-prog.k.s" > "$n-nocheck.s"
	$tr-as -o "$n-nocheck.o" "$n-nocheck.s" && $tr-ld -r -o "$n-bad" "$n-nocheck.o" "$n-target.o"
	boot_audit "$n-bad" > "$n-bad.out" 2>&1
	check "$m: a check removed: kcfi_audit fails, 1 unchecked" sh -c \
		"grep -q '^status=1 PROOF= audit:checked=1,unchecked=1,' '$n-bad.out' &&
		 grep -q '^log: kcfi-audit: $n-bad: exit 1: $n-bad: arm: 1 checked, ' '$n-bad.out'"
	# Hand-written assembly linked in: outside instrumented code, in PROOF,
	# not failed (kcfi-audit's exit status 0).
	printf '\t.text\n\t.arm\n\t.globl\thand\n\t.type\thand, %%function\nhand:\n\tblx\tr2\n\tbx\tlr\n\t.size\thand, .-hand\n\t.section\t.note.GNU-stack,"",%%progbits\n' > "$n-hand.s"
	$tr-as -o "$n-hand.o" "$n-hand.s" && $tr-ld -r -o "$n-hand" "$n-prog.o" "$n-hand.o" "$n-target.o"
	boot_audit "$n-hand" > "$n-hand.out" 2>&1
	check "$m: hand-written assembly: kcfi_audit passes, 1 outside in PROOF" \
		grep -qx "status=0 PROOF= audit:checked=2,unchecked=0,outside=1,functions=$fns" "$n-hand.out"
	# A malformed record (a type name of no length) with every branch
	# checked: the exit status fails it, not the counts.
	{ cat "$n-prog.k.s"; printf '\t.pushsection\t.debug,"",%%progbits\n\t.balign\t8\n\t.word\t0x1234, 0, 0, 0, 65, 0\n\t.popsection\n'; } > "$n-rec.s"
	$tr-as -o "$n-rec.o" "$n-rec.s" && $tr-ld -r -o "$n-rec" "$n-target.o" "$n-rec.o"
	boot_audit "$n-rec" > "$n-rec.out" 2>&1
	check "$m: a malformed record, nothing unchecked: kcfi_audit fails on the exit status" sh -c \
		"grep -qx 'status=1 PROOF= audit:checked=2,unchecked=0,outside=0,functions=$fns' '$n-rec.out' &&
		 grep -q '^log: kcfi-audit: $n-rec: exit 1: ' '$n-rec.out' && grep -q 'malformed type name record' '$n-rec.audit'"
done
finish
