#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The permissive rows' mismatch judge (boot/mismatch-judge.sh) on canned
# consoles and kcfi-audit --explain outputs of real boots (trimmed; see
# tests/boot/mismatch/README.md): each must pass, and each way an explanation
# can be wrong must fail the kind it concerns.  The canned explanations
# hold @CALL kind@, @MISMATCH kind@ and @TARGET kind@ where the boot printed
# line numbers; they are filled in from the markers of boot/module's
# sources, so that the test follows the module's lines.  (The explainer on
# real ELF files is tests/audit/explain.sh's.)
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
D=$top_srcdir/tests/boot/mismatch
M=$top_srcdir/boot/module
JUDGE=$top_srcdir/boot/mismatch-judge.sh

# fill IN OUT: the canned explanation with the module's current lines.
fill() {
	script=
	for k in static-init 'void\*' union decl; do
		kk=$(printf '%s' "$k" | tr -d '\\')
		for w in CALL MISMATCH; do
			n=$(grep -nF "/* $w: $kk */" "$M/kcfi_mismatch_calls.c" | cut -d: -f1)
			script="$script;s|@$w $k@|$n|g"
		done
		f=$M/kcfi_mismatch_calls.c
		[ "$kk" = decl ] && f=$M/kcfi_mismatch_decl.c
		n=$(grep -nF "/* TARGET: $kk */" "$f" | cut -d: -f1)
		script="$script;s|@TARGET $k@|$n|g"
	done
	sed -e "${script#;}" "$1" > "$2"
}

# judge NAME CONSOLE EXPLAIN [SRCDIR]: run the judge, output in $T/NAME.out.
judge() {
	bash "$JUDGE" "$2" "$3" "${4:-$M}" > "$T/$1.out" 2>&1
	echo $? > "$T/$1.rc"
}
rc() { [ "$(cat "$T/$1.rc")" = "$2" ]; }
said() { grep -Eq -- "$2" "$T/$1.out"; }

for form in x86_64-kcfi x86_64-fineibt arm64; do
	[ -f "$D/console-$form.txt" ] || { fail "$form: no canned console"; continue; }
	fill "$D/explain-$form.txt" "$T/$form.txt"
	judge "$form" "$D/console-$form.txt" "$T/$form.txt"
	check "$form: all four kinds explained" eval "
		grep -qx 'explain: 4/4 kinds explained (static-init void\\* union decl)' '$T/$form.out' &&
		[ \$(grep -c '^kind .*: ok: ' '$T/$form.out') -eq 4 ] && [ \$(cat '$T/$form.rc') -eq 0 ]"
	grep -q '@[A-Z]' "$T/$form.txt" && fail "$form: a placeholder left unfilled"
done

# The mutations, on x86_64's default boot.
G=$T/x86_64-kcfi.txt C=$D/console-x86_64-kcfi.txt
mutate() { name=$1; shift; sed "$@" "$G" > "$T/$name.txt"; judge "$name" "$C" "$T/$name.txt"; }

# Before kcfi-as wrote conversion records: every kind lacks its line to fix.
mutate noconv -e '/^  the line to fix (kcfi-as/,/^    /c\
  the line to fix: unknown: no file read holds conversion records (built by a kcfi-as before them, by Clang, or stripped)'
check "no conversion records: every kind fails for want of the line to fix" eval "
	rc noconv 1; [ \$(grep -c '^kind .*: FAIL: no line to fix' '$T/noconv.out') -eq 4 ] &&
	grep -qx 'explain: 0/4 kinds explained (static-init:FAIL void\\*:FAIL union:FAIL decl:FAIL)' '$T/noconv.out'"

call=$(grep -nF '/* CALL: static-init */' "$M/kcfi_mismatch_calls.c" | cut -d: -f1)
mutate caller -e "s|\\(caller: kcfi_mm_call_static_init, the indirect call at .*kcfi_mismatch_calls.c:\\)$call |\\1$((call + 1)) |"
check "the call's line one off: static-init fails, the rest pass" eval "
	said caller '^kind static-init: FAIL: caller is not kcfi_mm_call_static_init at kcfi_mismatch_calls.c:$call' &&
	said caller '^explain: 3/4 kinds' && rc caller 1"

mutate target -e 's|target: kcfi_mm_decl_target, defined at \(.*\)kcfi_mismatch_decl.c|target: kcfi_mm_decl_target, defined at \1kcfi_mismatch_calls.c|'
check "the decl target defined in the wrong unit: decl fails" eval "
	said target '^kind decl: FAIL: target is not kcfi_mm_decl_target defined at kcfi_mismatch_decl.c' && rc target 1"

mutate nodiff -e '/^    parameter 1: the call passes int, kcfi_mm_union_target takes unsigned int$/d'
check "a difference missing: union fails" eval "
	said nodiff \"^kind union: FAIL: no difference 'parameter 1: the call passes int, kcfi_mm_union_target takes unsigned int'\" &&
	said nodiff '^explain: 3/4' && rc nodiff 1"

mutate morediff -e '/^    arity: the call passes 2 parameters, kcfi_mm_decl_target takes 1$/a\
    return: the call expects long, kcfi_mm_decl_target returns int'
check "a difference too many: decl fails" eval "
	said morediff '^kind decl: FAIL: 3 difference line\\(s\\), expected 2' && rc morediff 1"

conv=$(grep -nF '/* MISMATCH: union */' "$M/kcfi_mismatch_calls.c" | cut -d: -f1)
mutate convline -e "s|kcfi_mismatch_calls.c:$conv: assign |kcfi_mismatch_calls.c:$((conv - 1)): assign |"
check "the line to fix one off: union fails" eval "
	said convline '^kind union: FAIL: the line to fix is not kcfi_mismatch_calls.c:$conv \\(union\\)' && rc convline 1"

# The canned boots' kcfi-as recorded the union store as assign; today's
# says union: both are the union kind's line to fix, nothing else is.
mutate unionkind -e 's|: assign in kcfi_mm_call_union: |: union in kcfi_mm_call_union: |'
check "the union store recorded as union (kcfi-as since the union kind): all four explained" eval "
	rc unionkind 0 && said unionkind '^kind union: ok: '"
mutate unioncast -e 's|: assign in kcfi_mm_call_union: |: cast in kcfi_mm_call_union: |'
check "the union store recorded as another kind: union fails" eval "
	rc unioncast 1 && said unioncast '^kind union: FAIL: the line to fix is not '"

mutate convkind -e 's|: void\* in kcfi_mm_call_void: |: cast in kcfi_mm_call_void: |'
check "the line to fix of another kind: void* fails" eval "
	said convkind '^kind void\\*: FAIL: the line to fix is not' && rc convkind 1"

# A report the kernel did not make (or the log lost): its kind fails.
awk '/^[^ ]/ { skip = /kcfi_mm_init_target/ } !skip' "$G" > "$T/noreport.txt"
judge noreport "$C" "$T/noreport.txt"
check "a report missing: static-init fails" eval "
	said noreport '^kind static-init: FAIL: no explained report with target kcfi_mm_init_target' && rc noreport 1"

# The console: the module came back, four reports and four warnings.
grep -v 'kcfi_mismatch: survived' "$C" > "$T/nosurvive.log"
judge nosurvive "$T/nosurvive.log" "$G"
check "the module did not come back: the console fails" eval "
	said nosurvive '^console: FAIL: the module did not survive its calls' &&
	said nosurvive '^explain: 4/4 kinds explained .*; console: FAIL' && rc nosurvive 1"
awk '/^WARNING: .*\[kcfi_mismatch\]/ && !done { done = 1; next } 1' "$C" > "$T/nowarn.log"
judge nowarn "$T/nowarn.log" "$G"
check "a warning missing (a trapping kernel): the console fails" eval "
	said nowarn 'console: FAIL: .*3 WARNING\\(s\\) in kcfi_mismatch, expected 4' && rc nowarn 1"

# The sources: a marker that is not there exactly once.
mkdir "$T/src" && cp "$M"/kcfi_mismatch_*.c "$T/src/" &&
	sed -i 's|/\* CALL: union \*/||' "$T/src/kcfi_mismatch_calls.c"
judge nomarker "$C" "$G" "$T/src"
check "a marker missing: its kind fails" eval "
	said nomarker '^kind union: FAIL: no single CALL: union marker' && rc nomarker 1"

judge usage "$C" "$T/absent.txt"
check "an unreadable explanation: exit 2" rc usage 2

finish
