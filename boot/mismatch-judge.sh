#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The judge of the permissive rows' deliberate mismatches
# (boot/module/kcfi_mismatch_calls.c, doc/kernel.md 5b): reads a console and
# what `kcfi-audit --explain=CONSOLE vmlinux kcfi_mismatch.ko` said of it,
# and requires for each kind of mismatch the explanation of its report:
#   caller:      the calling function, the indirect call at the CALL: line
#   target:      the target, defined at the TARGET: line
#   differences: the prototypes' differences, word for word
#   line to fix: the conversion record at the MISMATCH: line, of its kind
# The line numbers come from the marker comments of the sources in SRCDIR,
# never from here.
#
# Usage: boot/mismatch-judge.sh CONSOLE EXPLAIN SRCDIR
# Prints one line per kind, then "explain: N/4 kinds explained (...)";
# exit 0 when all four are, 1 otherwise, 2 on a usage error.
# (tests/boot/mismatch.sh runs it on canned consoles and explanations.)
set -u
[ $# -eq 3 ] || { echo "usage: $0 CONSOLE EXPLAIN SRCDIR" >&2; exit 2; }
console=$1 explain=$2 src=$3
calls=kcfi_mismatch_calls.c decl=kcfi_mismatch_decl.c
for f in "$console" "$explain" "$src/$calls" "$src/$decl"; do
	[ -r "$f" ] || { echo "mismatch-judge: cannot read $f" >&2; exit 2; }
done

# kind|caller|target|file of the target|record kind|differences (;-separated)
KINDS='static-init|kcfi_mm_call_static_init|kcfi_mm_init_target|calls|init|return: the call expects void, kcfi_mm_init_target returns int;parameter 1: the call passes int *, kcfi_mm_init_target takes long
void*|kcfi_mm_call_void|kcfi_mm_void_target|calls|void*|parameter 1: the call passes const char *, kcfi_mm_void_target takes char *
union|kcfi_mm_call_union|kcfi_mm_union_target|calls|union|parameter 1: the call passes int, kcfi_mm_union_target takes unsigned int
decl|kcfi_mm_call_decl|kcfi_mm_decl_target|decl|decl|arity: the call passes 2 parameters, kcfi_mm_decl_target takes 1;parameter 2: the call passes int, kcfi_mm_decl_target takes nothing'

# marker FILE WHAT KIND: the line number of "/* WHAT: KIND */" in FILE
# (exactly one such line).
marker() {
	local n
	n=$(grep -nF "/* $2: $3 */" "$1" | cut -d: -f1)
	[ "$(wc -w <<< "$n")" -eq 1 ] && echo "$n"
}

# block TARGET: the explanation of the first report whose target is
# TARGET (its "CFI failure at" line and the indented lines after it).
block() {
	awk -v t="$1" '
		/^[^ ]/ { if (found) exit; cur = "" }
		{ cur = cur $0 "\n" }
		index($0, "  target: " t ",") == 1 { found = 1 }
		END { if (found) printf "%s", cur }' "$explain"
}

# has BLOCK REGEX: BLOCK has a line matching the extended REGEX.
has() { grep -Eq -- "$2" <<< "$1"; }
# re STRING: STRING as an extended regex matching itself.
re() { sed -E 's/[][\.*^$+?(){}|/]/\\&/g' <<< "$1"; }

ok=0 said=()
while IFS='|' read -r kind caller target tfile rkind diffs; do
	why=()
	tsrc=$calls
	[ "$tfile" = decl ] && tsrc=$decl
	call=$(marker "$src/$calls" CALL "$kind") || why+=("no single CALL: $kind marker in $calls")
	conv=$(marker "$src/$calls" MISMATCH "$kind") || why+=("no single MISMATCH: $kind marker in $calls")
	def=$(marker "$src/$tsrc" TARGET "$kind") || why+=("no single TARGET: $kind marker in $tsrc")
	b=$(block "$target")
	if [ ${#why[@]} -gt 0 ]; then :
	elif [ -z "$b" ]; then
		why+=("no explained report with target $target")
	else
		has "$b" "^  caller: $caller, the indirect call at (.*/)?$(re "$calls"):$call \\(" ||
			why+=("caller is not $caller at $calls:$call ($(grep -m1 '^  caller:' <<< "$b" | cut -c3-))")
		has "$b" "^  target: $target, defined at (.*/)?$(re "$tsrc"):$def \\(" ||
			why+=("target is not $target defined at $tsrc:$def ($(grep -m1 '^  target:' <<< "$b" | cut -c3-))")
		n=0
		IFS=';' read -ra want <<< "$diffs"
		for d in "${want[@]}"; do
			n=$((n + 1))
			has "$b" "^    $(re "$d")\$" || why+=("no difference '$d'")
		done
		got=$(sed -n '/^  differences:$/,/^  [^ ]/p' <<< "$b" | grep -c '^    ')
		[ "$got" -eq "$n" ] || why+=("$got difference line(s), expected $n")
		# A kcfi-as before the union kind recorded a union store as assign.
		rre=$(re "$rkind")
		[ "$rkind" = union ] && rre='(union|assign)'
		if ! has "$b" "^  the line to fix \\(kcfi-as's conversion records\\):\$"; then
			why+=("no line to fix ($(grep -m1 '^  the line to fix' <<< "$b" | cut -c3- | cut -c1-100))")
		elif ! has "$b" "^    (.*/)?$(re "$calls"):$conv: $rre in [A-Za-z0-9_]+: $target taken as "; then
			why+=("the line to fix is not $calls:$conv ($rkind): $(sed -n '/^  the line to fix/{n;p;}' <<< "$b" | sed 's/^ *//')")
		fi
	fi
	if [ ${#why[@]} -eq 0 ]; then
		ok=$((ok + 1)) said+=("$kind")
		echo "kind $kind: ok: $caller ($calls:$call) -> $target ($tsrc:$def), $n difference(s), line to fix $calls:$conv ($rkind)"
	else
		said+=("$kind:FAIL")
		echo "kind $kind: FAIL: $(printf '%s; ' "${why[@]}" | sed 's/; $//')"
	fi
done <<< "$KINDS"
# The console (without printk's timestamps): the module loaded, made its
# four calls and came back, each call reported once and warned of.
cw=()
con=$(sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' "$console")
grep -q 'kcfi_mismatch: survived 4 mismatched indirect calls' <<< "$con" ||
	cw+=("the module did not survive its calls")
n=$(grep 'CFI failure at' <<< "$con" | grep -c '\[kcfi_mismatch\]')
[ "$n" -eq 4 ] || cw+=("$n CFI failure(s) in kcfi_mismatch, expected 4")
w=$(grep -c '^WARNING: .*\[kcfi_mismatch\]' <<< "$con")
[ "$w" -eq 4 ] || cw+=("$w WARNING(s) in kcfi_mismatch, expected 4")
[ ${#cw[@]} -eq 0 ] || echo "console: FAIL: $(printf '%s; ' "${cw[@]}" | sed 's/; $//')"
echo "explain: $ok/4 kinds explained (${said[*]})${cw:+; console: FAIL}"
[ "$ok" -eq 4 ] && [ ${#cw[@]} -eq 0 ]
