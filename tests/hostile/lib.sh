# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the hostile-input tests (tests/hostile/*.sh); sourced.
# Every case ends in one of two ways: a "file:line: error:" from kcfi-as with
# exit status 1 and no object left behind, or an object that is checked for
# what the input asked for.  A signal, a sanitizer report or any other exit
# status fails the case.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
V='	.kcfi_version 1, "x86_64-linux-gnu", ptr=64, long=64, char=signed, prefix=0'
VT="$V
	.kcfi_type 1, \"void (void)\""

# sane NAME RC: kcfi-as ended normally (0 or 1) without a sanitizer report.
sane() {
	if [ "$2" -gt 1 ]; then
		fail "$1: kcfi-as exit status $2 (a signal or a crash)"; sed 's/^/    /' "$T/$1.err" | head -20
		return 1
	fi
	if grep -q 'Sanitizer\|runtime error:' "$T/$1.err"; then
		fail "$1: sanitizer report"; sed 's/^/    /' "$T/$1.err" | head -30
		return 1
	fi
	return 0
}

# expect_error NAME LINE PATTERN: $T/NAME.s must be refused at LINE.
expect_error() {
	name=$1 line=$2 pattern=$3
	echo stale >"$T/$name.o"
	"$KCFI_AS" -o "$T/$name.o" "$T/$name.s" >"$T/$name.err" 2>&1
	rc=$?
	sane "$name" $rc || return
	if [ $rc -eq 0 ]; then
		fail "$name: accepted"; return
	fi
	if ! grep -q "^$T/$name.s:$line:\([0-9]*:\)\{0,1\} error: .*$pattern" "$T/$name.err"; then
		fail "$name: expected '$name.s:$line: error: ...$pattern', got:"
		sed 's/^/    /' "$T/$name.err" | head -5 | cut -c1-300; return
	fi
	if [ -e "$T/$name.o" ]; then
		fail "$name: an object file was left behind"; return
	fi
	pass "$name"
}

# expect_as_error NAME LINE PATTERN: GNU as behind kcfi-as refuses
# $T/NAME.s at LINE (the line markers kcfi-as writes keep LINE right).
expect_as_error() {
	"$KCFI_AS" -o "$T/$1.o" "$T/$1.s" >"$T/$1.err" 2>&1
	rc=$?
	sane "$1" $rc || return
	if [ $rc -ne 0 ] && grep -q "^$T/$1.s:$2: Error: .*$3" "$T/$1.err"; then pass "$1"
	else fail "$1: rc=$rc, expected '$1.s:$2: Error: ...$3'"; sed 's/^/    /' "$T/$1.err" | head -5; fi
}

# expect_ok NAME CHECKS [TRAPS]: $T/NAME.s assembles; kcfi-as counted CHECKS
# checks and the object holds TRAPS (default CHECKS) well-formed traps.
expect_ok() {
	name=$1 checks=$2 traps=${3:-$2}
	"$KCFI_AS" --kcfi-stats -o "$T/$name.o" "$T/$name.s" >"$T/$name.err" 2>&1
	rc=$?
	sane "$name" $rc || return
	if [ $rc -ne 0 ]; then
		fail "$name: refused:"; sed 's/^/    /' "$T/$name.err" | head -5 | cut -c1-300; return
	fi
	got=$(sed -n 's/.* checks=\([0-9]*\) .*/\1/p' "$T/$name.err")
	if [ "${got:-none}" != "$checks" ]; then
		fail "$name: kcfi-as counted checks=${got:-none}, want $checks"; return
	fi
	"$ELFCHECK" "$T/$name.o" >"$T/$name.elf" 2>&1 || {
		fail "$name: kcfi-elfcheck:"; sed 's/^/    /' "$T/$name.elf" | head -5 | cut -c1-300; return; }
	got=$(grep -c '^trap ' "$T/$name.elf")
	if [ "$got" != "$traps" ]; then
		fail "$name: $got traps in the object, want $traps"; return
	fi
	pass "$name"
}

# repeat N STRING: STRING N times, without a newline.
repeat() { awk -v n="$1" -v s="$2" 'BEGIN { while (n-- > 0) printf "%s", s }'; }

[ -x "$ELFCHECK" ] || skip "kcfi-elfcheck is not built"
