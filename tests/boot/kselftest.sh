#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make kselftest-check's reading of consoles (boot/ktap.awk in its
# kselftest mode) and its verdicts (boot/kunit-lib.sh), on hand-written
# consoles in the shape boot/kselftest/init gives them: kselftest's runner
# TAP as printk records between the kernel's own lines.  A good run, a
# failed program, a boot that died mid-test, one the harness stopped, and a
# CFI failure shared with clang-19 or not.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
B=$top_srcdir/boot
. "$top_srcdir/tests/boot/lib.sh"

# console SECCOMP [CFI] [END]: three programs; SECCOMP is seccomp_bpf's
# second result inside the program and its own (ok / not ok); CFI, if
# given, a CFI failure while seccomp_bpf runs; END crash (an Oops in an
# interrupt, then the panic, in seccomp_bpf) or timeout (the harness's
# line, mid-seccomp_bpf).
console() {
	cat <<-EOT
	[    0.000000] Linux version 6.12.0 (kcfi)
	[    1.500000] Run /init as init process
	[    1.600000] kselftest-check: init running (runner -o 600; 2 CPUs)
	[    1.700000] TAP version 13
	[    1.700001] 1..3
	[    1.700002] # selftests: timers: posix_timers
	[    2.000000] # ok 1 Check itimer virtual
	[    2.000001] # ok 2 Check itimer prof
	[    2.100000] ok 1 selftests: timers: posix_timers
	[    2.100001] # selftests: seccomp: seccomp_bpf
	[    2.200000] # ok 1 global.kcmp
	EOT
	[ -n "${2:-}" ] && echo "[    2.200001] $2" && echo "[    2.200002] Oops: invalid opcode: 0000 [#1] PREEMPT SMP NOPTI"
	case ${3:-} in
	crash) cat <<-EOT
		[    2.300000] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI
		[    2.300001] CPU: 1 UID: 0 PID: 0 Comm: swapper/1 Not tainted 6.12.0 #1
		[    2.300002] RIP: 0010:sched_clock_tick+0x5/0x60
		[    2.300003] Kernel panic - not syncing: Fatal exception in interrupt
		EOT
		return ;;
	timeout) echo "kselftest-check: QEMU timed out after 5400s"; return ;;
	esac
	cat <<-EOT
	[    2.300000] # $1 2 global.user_notification_basic
	[    2.300001] # ok 3 global.user_notification_basic
	[    2.400000] $1 2 selftests: seccomp: seccomp_bpf$([ "$1" = ok ] || echo ' # exit=1')
	[    2.400001] # selftests: vDSO: vdso_test_chacha
	[    2.400002] # ok 1 chacha # SKIP no vgetrandom
	[    2.500000] ok 3 selftests: vDSO: vdso_test_chacha # SKIP
	[    2.600000] kselftest-check: done
	[    2.700000] reboot: Restarting system
	EOT
}
CFI="CFI failure at seccomp_run_filters+0x5e/0x120 (target: bpf_prog_x+0x0/0x40; expected type: 0x12345678)"
CFI2="CFI failure at __seccomp_filter+0x11/0x20 (target: g+0x0/0x7; expected type: 0x12345678)"
OUT=$T/out EXPLAINED=$T/explained.tsv
mkdir -p "$OUT/x86_64"
printf '# nothing explained\n' > "$EXPLAINED"
L=". '$B/kunit-lib.sh'; OUT='$OUT' EXPLAINED='$EXPLAINED'"
# said FILE COMPILER: what the summary line says of one compiler's results.
said() { bash -c "$L; tally '$1' $2 tests 'the runner'"; }
ktap() { awk -f "$B/ktap.awk" "$1"; }

console ok > "$T/good.log"
ktap "$T/good.log" > "$T/good.results"
printf 'sub\ttimers:posix_timers/Check itimer virtual\tok\nsub\ttimers:posix_timers/Check itimer prof\tok\ncase\ttimers:posix_timers\tok\nsub\tseccomp:seccomp_bpf/global.kcmp\tok\nsub\tseccomp:seccomp_bpf/global.user_notification_basic\tok\nsub\tseccomp:seccomp_bpf/global.user_notification_basic#2\tok\ncase\tseccomp:seccomp_bpf\tok\nsub\tvDSO:vdso_test_chacha/chacha\tskip\ncase\tvDSO:vdso_test_chacha\tskip\nplan\t3\ndone\t3\nlast\tvDSO:vdso_test_chacha\n' > "$T/good.want"
check "ktap.awk on the runner's TAP: one case per program, its own results as sub (a repeated name numbered), the totals" \
	cmp "$T/good.want" "$T/good.results"
check "a good run: counted, complete" sh -c \
	"[ \"\$(bash -c \"$L; tally '$T/good.results' kcfi-gcc tests 'the runner'\")\" = 'ok 2, not ok 0, skipped 1, cfi 0' ] &&
	 bash -c \"$L; complete '$T/good.results'\""

console "not ok" > "$T/failed.log"
ktap "$T/failed.log" > "$T/failed.results"
check "a failed program: counted as not ok, the run still complete" sh -c \
	"[ \"\$(bash -c \"$L; tally '$T/failed.results' gcc tests 'the runner'\")\" = 'ok 1, not ok 1, skipped 1' ] &&
	 bash -c \"$L; complete '$T/failed.results'\""

console ok "" crash > "$T/crash.log"
ktap "$T/crash.log" > "$T/crash.results"
check "a boot that died mid-test: crashed, in that test, after what finished, its Oops quoted" tally_is "$T/crash.results" gcc \
	'ok 1, not ok 0, skipped 0 (crashed in seccomp:seccomp_bpf after 1 of 3 tests: "Oops: int3: 0000 [#1] PREEMPT SMP NOPTI" at sched_clock_tick+0x5/0x60)' tests 'the runner'
check "complete: not for the crashed boot" sh -c "! bash -c \"$L; complete '$T/crash.results'\""
console ok "" timeout > "$T/timeout.log"
ktap "$T/timeout.log" > "$T/timeout.results"
check "a boot the harness stopped: timed out, in that test" sh -c \
	"[ \"\$(bash -c \"$L; tally '$T/timeout.results' gcc tests 'the runner'\")\" = 'ok 1, not ok 0, skipped 0 (timed out in seccomp:seccomp_bpf after 1 of 3 tests)' ]"
printf '[    0.0] Linux version 6.12.0\n[    3.0] Kernel panic - not syncing: VFS: Unable to mount root fs\n' > "$T/none.log"
ktap "$T/none.log" > "$T/none.results"
check "a boot where the runner never started says so, and how it crashed" tally_is "$T/none.results" gcc \
	'ok 0, not ok 0, skipped 0 (the runner never started; the boot crashed: "Kernel panic - not syncing: VFS: Unable to mount root fs")' tests 'the runner'


console "not ok" "$CFI" > "$T/cfi.log"
ktap "$T/cfi.log" > "$T/cfi.results"
check "a CFI failure: counted, in the program that ran" sh -c \
	"[ \"\$(bash -c \"$L; tally '$T/cfi.results' kcfi-gcc tests 'the runner'\")\" = 'ok 1, not ok 1, skipped 1, cfi 1' ] &&
	 grep -qx 'cfi	seccomp:seccomp_bpf	$CFI' '$T/cfi.results'"

# The comparison: kcfi-gcc failed seccomp_bpf with a CFI failure, gcc passed.
cp "$T/cfi.results" "$OUT/x86_64/kcfi-gcc.results"
cp "$T/good.results" "$OUT/x86_64/gcc.results"
cp "$T/cfi.results" "$OUT/x86_64/clang-19.results"
bash -c "$L; unexplained x86_64" > "$T/u1"
check "unexplained: the failed program once (not its results one by one); the CFI failure clang-19 shares is not counted" sh -c \
	"[ \"\$(cat '$T/u1')\" = 'differs: seccomp:seccomp_bpf kcfi-gcc fail, gcc ok' ]"
console "not ok" "$CFI2" > "$T/c2.log"
ktap "$T/c2.log" > "$OUT/x86_64/clang-19.results"
bash -c "$L; unexplained x86_64" > "$T/u2"
check "unexplained: a CFI failure clang-19 does not have at that function is named" sh -c \
	"[ \"\$(sed -n 1p '$T/u2')\" = 'cfi in seccomp:seccomp_bpf: $CFI' ] && [ \$(wc -l < '$T/u2') -eq 2 ]"
printf 'x86_64\tseccomp:seccomp_bpf\tsee doc/kernel.md\n*\tcfi:seccomp_run_filters\treported\n' >> "$EXPLAINED"
check "unexplained: nothing once explained.tsv lists the program and the CFI failure" sh -c \
	"[ -z \"\$(bash -c \"$L; unexplained x86_64\")\" ]"

# Same program result, one result inside it differs: named by itself.
printf '# nothing explained\n' > "$EXPLAINED"
sed 's/# ok 2 global.user_notification_basic/# ok 2 global.user_notification_basic # SKIP no user notification/' \
	"$T/good.log" > "$T/subskip.log"
ktap "$T/subskip.log" > "$OUT/x86_64/kcfi-gcc.results"
rm -f "$OUT/x86_64/clang-19.results"
check "unexplained: a result inside a program that differs while the program's does not" sh -c \
	"[ \"\$(bash -c \"$L; unexplained x86_64\")\" = 'differs: seccomp:seccomp_bpf/global.user_notification_basic kcfi-gcc skip, gcc ok' ]"

# BPF's test_verifier does not speak TAP: its own lines are read.
printf '[ 1.0] TAP version 13\n[ 1.0] 1..1\n[ 1.1] # selftests: bpf: test_verifier\n[ 1.2] # #0/u and of negative number OK\n[ 1.2] # #1/p ld_abs FAIL retval 1 != 0 \n[ 1.3] # #2/u map SKIP (unsupported map type 5)\n[ 1.3] # #3/p atomic OK (NOTE: x)\n[ 1.3] # #4/p map_kptr Failed to load BTF spec\n[ 1.3] # FAIL\n[ 1.4] not ok 1 selftests: bpf: test_verifier # exit=1\n' > "$T/tv.log"
ktap "$T/tv.log" | grep '^sub' > "$T/tv.results"
printf 'sub\tbpf:test_verifier/#0/u and of negative number\tok\nsub\tbpf:test_verifier/#1/p ld_abs\tfail\nsub\tbpf:test_verifier/#2/u map\tskip\nsub\tbpf:test_verifier/#3/p atomic\tok\nsub\tbpf:test_verifier/#4/p map_kptr Failed to load BTF spec\tfail\n' > "$T/tv.want"
check "test_verifier: one result per program it loads, OK, FAIL and SKIP, a verdict after a message of its own" cmp "$T/tv.want" "$T/tv.results"
ktap "$T/tv.log" > "$OUT/x86_64/gcc.results"
sed 's|#3/p atomic OK|#3/p atomic FAIL|' "$T/tv.log" | awk -f "$B/ktap.awk" > "$OUT/x86_64/kcfi-gcc.results"
check "unexplained: a test_verifier program that fails under kcfi-gcc only, under a program that fails on both" sh -c \
	"[ \"\$(bash -c \"$L; unexplained x86_64\")\" = 'differs: bpf:test_verifier/#3/p atomic kcfi-gcc fail, gcc ok' ]"

# The summary line, with a compiler whose kernel is missing.
check "the per-arch line: counts, a missing kernel by name, unexplained D (and a failure status)" bash -c \
	"$L; declare -A said=([kcfi-gcc]='ok 2, not ok 0, skipped 1, cfi 0' [gcc]='ok 2, not ok 0, skipped 1' [clang-19]='no kernel');
	 l=\$(arch_line kselftest x86_64); rc=\$?;
	 [ \"\$l\" = 'kselftest x86_64: kcfi-gcc ok 2, not ok 0, skipped 1, cfi 0; gcc ok 2, not ok 0, skipped 1; clang-19 no kernel; unexplained 1 (no test passed on gcc'\''s kernel: the comparison says nothing)' ] && [ \$rc -eq 1 ]"
# Both kernels failing everything agree, and that proves nothing: an
# initramfs or configuration that breaks every program must fail the run.
ktap "$T/tv.log" > "$OUT/x86_64/kcfi-gcc.results"
check "the per-arch line: nothing passed on gcc's kernel fails the run, though nothing differs" bash -c \
	"$L; declare -A said=([kcfi-gcc]=k [gcc]=g [clang-19]=c); l=\$(arch_line kselftest x86_64); rc=\$?;
	 [ \"\$l\" = 'kselftest x86_64: kcfi-gcc k; gcc g; clang-19 c; unexplained 0 (no test passed on gcc'\''s kernel: the comparison says nothing)' ] && [ \$rc -eq 1 ]"

# The initramfs's timeout (boot/kselftest/timeout), as the runner calls it:
# a test that leaves a child holding the output pipe is stopped with its
# children at SECS, and 124 says so; a test that ends passes its status on
# at once, its output pipe closed behind it.
TO=$B/kselftest/timeout
SHS=sh
command -v busybox >/dev/null && SHS="sh busybox"
for sh in $SHS; do
	[ $sh = busybox ] && run="busybox sh" || run=sh
	check "timeout ($run): a test whose child holds the pipe stops at SECS with its children, 124" bash -c \
		"s=\$(date +%s); $run '$TO' --foreground 1 $run '$TO' 1 sh -c 'sleep 61 & sleep 61' | cat;
		 rc=\${PIPESTATUS[0]}; [ \$rc = 124 ] && [ \$(( \$(date +%s) - s )) -le 5 ] && ! pgrep -f '^sleep 61\$' >/dev/null"
	check "timeout ($run): a test's own status, at once" sh -c \
		"s=\$(date +%s); out=\$($run '$TO' --foreground 30 $run '$TO' 30 sh -c 'echo hi; exit 3'; echo \"rc \$?\");
		 [ \"\$out\" = \"\$(printf 'hi\\nrc 3')\" ] && [ \$(( \$(date +%s) - s )) -le 3 ]"
	check "timeout ($run): 124 when the time ran out" sh -c \
		"$run '$TO' 1 sleep 30; [ \$? = 124 ]"
done

# What a kernel must have before the harness builds and boots anything for
# it: each missing option named with its reason, the virtio console only
# where the programs' output goes there (hvc0, not x86_64's ttyS1).
full='CONFIG_64BIT=y CONFIG_BLK_DEV_INITRD=y CONFIG_BINFMT_SCRIPT=y CONFIG_PROC_FS=y CONFIG_DEVTMPFS=y CONFIG_MULTIUSER=y CONFIG_FUTEX=y'
printf '%s\n' $full > "$T/full.config"
printf '%s\n' $full | grep -v PROC_FS > "$T/noproc.config"
printf '# CONFIG_PROC_FS is not set\n' >> "$T/noproc.config"
# lacks_is OUTDEV CONFIG WANT: kernel_lacks's answer for CONFIG is WANT.
lacks_is() {
	got=$(OUTDEV=$1; . "$B/kselftest/kernel-needs.sh" && kernel_lacks "$2") ||
		{ echo "kernel_lacks did not run"; return 1; }
	[ "$got" = "$3" ] || { echo "got:  $got"; echo "want: $3"; return 1; }
}
check "kernel_lacks: nothing for a kernel with everything (ttyS1)" lacks_is /dev/ttyS1 "$T/full.config" ""
check "kernel_lacks: PROC_FS named, with why" lacks_is /dev/ttyS1 "$T/noproc.config" \
	"CONFIG_PROC_FS (the runner and most programs read /proc)"
check "kernel_lacks: the virtio console, where the output goes to hvc0" lacks_is /dev/hvc0 "$T/full.config" \
	"CONFIG_VIRTIO_CONSOLE (the programs' output channel, hvc0)"
printf '%s\n' $full | grep -v 64BIT > "$T/32bit.config"
check "kernel_lacks: a 32-bit kernel without the 32-bit time calls glibc makes" lacks_is /dev/ttyS1 "$T/32bit.config" \
	"CONFIG_COMPAT_32BIT_TIME (a 32-bit glibc makes the 32-bit time calls (sleep, nanosleep) whenever the time fits)"
# arm's KUnit kernels start from tinyconfig, where everything is off unless a
# fragment asks for it: the fragments kunit-check uses for arm must ask for
# all the selftests need (kunit-check's own check_config then sees that
# Kconfig kept them).
cat "$B/config/common.config" "$B/config/arm.config" "$B/config/row-arm.config" \
	"$B/config/kunit/common.config" "$B/config/kunit/arm.config" > "$T/arm-frags.config"
check "kernel_lacks: nothing missing from arm's KUnit fragments" lacks_is /dev/hvc0 "$T/arm-frags.config" ""
finish
