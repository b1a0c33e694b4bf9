#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make kunit-check's reading of KUnit consoles (boot/ktap.awk) and its
# comparison of compilers (boot/kunit-lib.sh), on hand-written consoles in
# the shape Linux 6.12 prints: counts per case, parameterized cases counted
# once, skips, a crash mid-suite, a boot where KUnit never started, CFI
# failures shared with clang-19 or not, differences explained or not.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
B=$top_srcdir/boot
. "$top_srcdir/tests/boot/lib.sh"

# console B1 [CFI]: two suites; B1 is suite beta's first case (ok / not ok);
# CFI, if given, a CFI failure printed while beta runs.
console() {
	cat <<-EOT
	[    0.000000] Linux version 6.12.0 (kcfi)
	[    1.000000] KTAP version 1
	[    1.000001] 1..2
	[    1.000002]     KTAP version 1
	[    1.000003]     # Subtest: alpha
	[    1.000004]     # module: alpha_test
	[    1.000005]     1..3
	[    1.000006]     ok 1 alpha_one
	[    1.000007]     ok 2 alpha_two # SKIP needs hardware
	[    1.000008]         KTAP version 1
	[    1.000009]         # Subtest: alpha_params
	[    1.000010]         ok 1 value 1
	[    1.000011]         not ok 2 value 2 # SKIP unsupported
	[    1.000012]     # alpha_params: pass:1 fail:0 skip:1 total:2
	[    1.000013]     ok 3 alpha_params
	[    1.000014] # alpha: pass:2 fail:0 skip:1 total:3
	[    1.000015] ok 1 alpha
	[    1.000016]     KTAP version 1
	[    1.000017]     # Subtest: beta
	[    1.000018]     1..2
	EOT
	[ -n "${2:-}" ] && echo "[    1.000019] $2"
	echo "[    1.000020]     $1 1 beta_one"
	[ "${3:-}" = crash ] && { echo "[    1.000021] Kernel panic - not syncing: Fatal exception"; return; }
	cat <<-EOT
	[    1.000021]     ok 2 beta_two
	[    1.000022] # beta: pass:1 fail:1 skip:0 total:2
	[    1.000023] not ok 2 beta
	[    2.000000] reboot: Restarting system
	EOT
}
CFI="CFI failure at beta_helper+0x19/0x1e (target: other_fn+0x0/0x7; expected type: 0x12345678)"
CFI2="CFI failure at gamma_helper+0x11/0x20 (target: g+0x0/0x7; expected type: 0x12345678)"
OUT=$T/out EXPLAINED=$T/explained.tsv
mkdir -p "$OUT/x86_64"
console "not ok" "$CFI" > "$T/k.log"
console ok > "$T/g.log"
console "not ok" "$CFI" > "$T/c.log"
for c in k g c; do awk -f "$B/ktap.awk" "$T/$c.log" > "$T/$c.results"; done
cp "$T/k.results" "$OUT/x86_64/kcfi-gcc.results"
cp "$T/g.results" "$OUT/x86_64/gcc.results"
cp "$T/c.results" "$OUT/x86_64/clang-19.results"
printf '# nothing explained\n' > "$EXPLAINED"

printf 'case\talpha.alpha_one\tok\ncase\talpha.alpha_two\tskip\ncase\talpha.alpha_params\tok\nsuite\talpha\tok\ncfi\tbeta\t%s\ncase\tbeta.beta_one\tfail\ncase\tbeta.beta_two\tok\nsuite\tbeta\tfail\nplan\t2\ndone\t2\nlast\tbeta\n' "$CFI" > "$T/k.want"
check "ktap.awk: one line per case (a parameterized case once), the CFI failure in its suite, the totals" \
	cmp "$T/k.want" "$T/k.results"

L=". '$B/kunit-lib.sh'; OUT='$OUT' EXPLAINED='$EXPLAINED'"
check "tally: kcfi-gcc's counts with its CFI failure" sh -c \
	"[ \"\$(bash -c \"$L; tally '$T/k.results' kcfi-gcc\")\" = 'ok 3, not ok 1, skipped 1, cfi 1' ]"
check "tally: gcc's counts, no cfi field" sh -c \
	"[ \"\$(bash -c \"$L; tally '$T/g.results' gcc\")\" = 'ok 4, not ok 0, skipped 1' ]"
check "complete: every announced suite reported" bash -c "$L; complete '$T/k.results'"

console "not ok" "$CFI" crash > "$T/crash.log"
awk -f "$B/ktap.awk" "$T/crash.log" > "$T/crash.results"
check "a boot that died in beta: crashed, named, counted, its panic quoted" tally_is "$T/crash.results" kcfi-gcc \
	'ok 2, not ok 1, skipped 1, cfi 1 (crashed in beta after 1 of 2 suites: "Kernel panic - not syncing: Fatal exception")'
check "complete: not for the crashed boot" sh -c "! bash -c \"$L; complete '$T/crash.results'\""
printf '[    0.0] Linux version 6.12.0\n[    3.0] Kernel panic - not syncing: VFS\n' > "$T/none.log"
awk -f "$B/ktap.awk" "$T/none.log" > "$T/none.results"
check "a boot where KUnit never started says so, and how it crashed" tally_is "$T/none.results" gcc \
	'ok 0, not ok 0, skipped 0 (KUnit never started; the boot crashed: "Kernel panic - not syncing: VFS")'
check "complete: not for a boot where KUnit never started" sh -c "! bash -c \"$L; complete '$T/none.results'\""

# Each architecture's words for a fatal fault and its register dump: the
# tally quotes the last Oops (an earlier one the kernel survived is not the
# cause) and the function its dump names, not the panic that follows.
# crashed_in_beta OOPS DUMP: the console of a boot that died in beta after
# surviving a warning-class Oops in alpha.
crashed_in_beta() {
	console "not ok" "" crash | sed '/Kernel panic/d; /ok 1 beta_one/q'
	printf '[    1.1] %s\n[    1.2] CPU: 1 UID: 0 PID: 1 Comm: swapper/0\n[    1.3] %s\n[    1.4] Kernel panic - not syncing: Fatal exception\n' "$1" "$2"
}
arch_crash() {
	{ printf '[    0.5] BUG: soft lockup - CPU#0 stuck for 22s! [kworker/0:1:20]\n[    0.6] RIP: 0010:earlier+0x1/0x2\n'
	  crashed_in_beta "$2" "$3"; } > "$T/$1.log"
	awk -f "$B/ktap.awk" "$T/$1.log" > "$T/$1.results"
	check "$1: a crash quotes its Oops and where it hit" tally_is "$T/$1.results" gcc \
		"ok 2, not ok 1, skipped 1 (crashed in beta after 1 of 2 suites: \"$2\" at $4)"
}
arch_crash x86_64 'Oops: int3: 0000 [#1] PREEMPT SMP NOPTI' 'RIP: 0010:sched_clock_tick+0x5/0x60' 'sched_clock_tick+0x5/0x60'
arch_crash arm64 'Internal error: Oops - BRK: 00000000f2008228 [#1] PREEMPT SMP' 'pc : beta_helper+0x10/0x20 [beta_test]' 'beta_helper+0x10/0x20 [beta_test]'
arch_crash riscv64 'Kernel BUG [#1]' 'epc : beta_helper+0x14/0x1c' 'beta_helper+0x14/0x1c'
arch_crash arm 'Internal error: Oops - undefined instruction: 0 [#1] SMP ARM' 'PC is at beta_helper+0x8/0xc' 'beta_helper+0x8/0xc'

bash -c "$L; unexplained x86_64" > "$T/u1"
check "unexplained: beta_one differs from gcc; the CFI failure clang-19 shares is not counted" sh -c \
	"[ \"\$(cat '$T/u1')\" = 'differs: beta.beta_one kcfi-gcc fail, gcc ok' ]"
printf 'x86_64\tbeta.beta_one\tthe test asks for CFI_CLANG=n\n' >> "$EXPLAINED"
bash -c "$L; unexplained x86_64" > "$T/u2"
check "unexplained: nothing once explained.tsv lists it" test ! -s "$T/u2"
console "not ok" "$CFI2" > "$T/c2.log"
awk -f "$B/ktap.awk" "$T/c2.log" > "$OUT/x86_64/clang-19.results"
bash -c "$L; unexplained x86_64" > "$T/u3"
check "unexplained: a CFI failure clang-19 does not have at that function is named" sh -c \
	"[ \"\$(cat '$T/u3')\" = 'cfi in beta: $CFI' ]"
printf '*\tcfi:beta_helper\ta real mismatch, reported upstream\n' >> "$EXPLAINED"
check "unexplained: an explained CFI failure is not" sh -c "[ -z \"\$(bash -c \"$L; unexplained x86_64\")\" ]"
printf 'x86_64\tbeta.beta_one\tfoo\n' > "$EXPLAINED"
rm "$OUT/x86_64/gcc.results"; console ok | grep -v beta_two > "$T/g2.log"
awk -f "$B/ktap.awk" "$T/g2.log" > "$OUT/x86_64/gcc.results"
awk -f "$B/ktap.awk" "$T/k.log" > "$OUT/x86_64/clang-19.results"
check "unexplained: a case gcc never ran is named" sh -c \
	"[ \"\$(bash -c \"$L; unexplained x86_64\")\" = 'only in kcfi-gcc: beta.beta_two ok' ]"
# A compiler this run leaves out is still compared, from the results its
# last run left: the line shows them as such, not as "not run".
check "arch_line: compilers left out of this run show their earlier results, marked" sh -c \
	"[ \"\$(bash -c \"$L; declare -A said=([kcfi-gcc]=now); earlier_runs x86_64 kcfi-gcc; arch_line kunit x86_64\")\" = 'kunit x86_64: kcfi-gcc now; gcc ok 3, not ok 0, skipped 1 (earlier run); clang-19 ok 3, not ok 1, skipped 1, cfi 1 (earlier run); unexplained 1' ]"
# The table: suites and cases per compiler, CFI failures, and each case
# kcfi-gcc and gcc disagree on, with its explanation when it has one.
bash -c "$L; table kunit x86_64" > "$T/table"
cat > "$T/table.want" <<-EOT
	kunit x86_64:
	            suites ok  not ok  skipped  cases ok  not ok  skipped   cfi
	  kcfi-gcc         1       1        0         3       1        1     1
	  gcc              1       1        0         3       0        1     -
	  clang-19         1       1        0         3       1        1     1
	  differs: beta.beta_one kcfi-gcc fail, gcc ok (explained: foo)
	  differs: beta.beta_two kcfi-gcc ok, gcc absent
EOT
check "table: suites, cases and CFI failures per compiler; the cases kcfi-gcc and gcc differ on" \
	diff -u "$T/table.want" "$T/table"
# A clang-19 kernel needs LLVM 19's binary tools too (LLVM=-19): without one
# the harness stops before extracting or building anything, and says which.
mkdir "$T/path"
for f in "$(dirname "$(command -v bash)")"/*; do
	case ${f##*/} in llvm-ar-19) ;; *) ln -s "$f" "$T/path/${f##*/}" 2>/dev/null ;; esac
done
PATH=$T/path KUNIT_ARCHES=x86_64 KCFI_BOOT_CACHE=$T/cache bash "$B/kunit-check.sh" > "$T/pre.out" 2>&1
echo $? >> "$T/pre.out"
check "kunit-check names the missing LLVM tool and stops" sh -c \
	"grep -q 'missing:.* llvm-ar-19' '$T/pre.out' && [ \"\$(tail -n 1 '$T/pre.out')\" = 2 ] && [ ! -e '$T/cache' ]"
finish
