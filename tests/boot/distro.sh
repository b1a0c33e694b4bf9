#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make distro-check's judge (boot/distro-judge.sh) on hand-written boots in
# the shape boot/distro/kcfi-distro-check and the console give them: two
# equal boots, a stressor that fails only under kcfi-gcc (unexplained, then
# explained), a failed unit, a CFI failure, a kernel warning of ours only,
# a boot that hung in a stressor and one that never reached the workload;
# a unit that failed once and was restarted, on one boot only; the third
# boot, of Clang's CFI kernel, sharing a difference or not.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
J="bash $top_srcdir/boot/distro-judge.sh"
# judge_refuses NAME: the judge compares the two canned boots and must fail;
# its output stays in $T/out for the checks that follow.
judge_refuses() {
	if $J compare x86_64 "$EX" "$T/k.res" "$T/k.con" "$T/g.res" "$T/g.con" > "$T/out"; then
		fail "$1: the judge passed it"
	else
		pass "$1"
	fi
}

# results FILE [SEM] [END]: a workload's lines; SEM is sem-sysv's rc (0);
# END no leaves the boot inside stressor tee; UNIT a failed unit.
results() {
	{
	printf 'kcfi-distro: begin 6.12.0\r\n'
	echo "kcfi-distro: state ${STATE:-running}"
	[ -z "${UNIT:-}" ] || echo "kcfi-distro: failed-unit $UNIT"
	echo "kcfi-distro: module-at-boot virtio_rng"
	echo "kcfi-distro: check ssh ok"
	echo "kcfi-distro: check http ok"
	echo "kcfi-distro: check fs-ext4 ${FS:-ok}"
	echo "kcfi-distro: class pipe: pipe sem-sysv tee swap"
	echo "kcfi-distro: stressor pipe start"
	echo "kcfi-distro: stressor-uptime pipe 400.25"
	echo "kcfi-distro: stressor pipe rc 0"
	echo "kcfi-distro: stressor sem-sysv start"
	echo "kcfi-distro: stressor-uptime sem-sysv 460.50"
	[ "${2:-0}" = 0 ] || echo "kcfi-distro: stressor sem-sysv says: stress-ng: fail: [812] semop: errno=22 (Invalid argument)"
	echo "kcfi-distro: stressor sem-sysv rc ${2:-0}"
	echo "kcfi-distro: stressor swap excluded: no swap device"
	echo "kcfi-distro: stressor bind-mount start"
	echo "kcfi-distro: stressor bind-mount excluded: stress-ng's pathological stressors (it may hang or reboot the machine) run only with --pathological"
	echo "kcfi-distro: stressor bad-ioctl start"
	echo "kcfi-distro: stressor bad-ioctl skipped: unsupported here (exit 0)"
	echo "kcfi-distro: stressor tee start"
	if [ "${3:-yes}" = yes ]; then
		echo "kcfi-distro: stressor tee rc 4"
		[ -z "${ONCE:-}" ] || echo "kcfi-distro: unit-failed-once $ONCE"
		echo "kcfi-distro: end"
	fi
	} > "$1"
}
# console FILE [LINE]: a console with LINE among the kernel's.
console() {
	{
	echo "[    0.000000] Linux version 6.12.0"
	echo "[    2.000000] Run /sbin/init as init process"
	echo "[  OK  ] Started systemd-udevd.service - Rule-based Manager for Device Events and Files."
	printf '         Starting \033[0;1;39mssh.service\033[0m - OpenBSD Secure Shell server...\n'
	[ -z "${2:-}" ] || echo "[   40.100000] $2"
	echo "[  200.000000] reboot: Power down"
	} > "$1"
}
EX=$T/explained.tsv
printf '# comment\n' > "$EX"

results "$T/k.res"; console "$T/k.con"; results "$T/g.res"; console "$T/g.con"
check "two equal boots pass" sh -c "$J compare x86_64 $EX $T/k.res $T/k.con $T/g.res $T/g.con > $T/out"
check "their line" grep -qx 'distro x86_64: kcfi-gcc state running, failed units 0, stressors ok 2, failed 0, skipped 2, cfi 0; gcc state running, failed units 0, stressors ok 2, failed 0, skipped 2; unexplained 0' "$T/out"

check "the stressors not run are named" grep -qx "not run on kcfi-gcc's boot: swap bind-mount" "$T/out"

$J facts "$T/k.res" "$T/k.con" > "$T/facts"
check "facts: an excluded stressor is named" grep -qx 'stressor	swap	excluded' "$T/facts"
check "facts: rc 4 is skipped" grep -qx 'stressor	tee	skipped' "$T/facts"
check "facts: one stress-ng declines is skipped, not hung" grep -qx 'stressor	bad-ioctl	skipped' "$T/facts"
check "facts: a pathological one is excluded" grep -qx 'stressor	bind-mount	excluded' "$T/facts"
check "facts: a boot that ended hung nowhere" sh -c "! grep -q 'hung' $T/facts"
check "facts: a CR from the serial line is dropped" grep -qx 'state	running' "$T/facts"

results "$T/k.res" 2
judge_refuses "a stressor failing only under kcfi-gcc fails the judge"
check "it is named" grep -qx 'UNEXPLAINED: stressor sem-sysv: kcfi-gcc failed, gcc ok' "$T/out"
check "and counted" grep -q 'stressors ok 1, failed 1, skipped 2, cfi 0; .*; unexplained 1$' "$T/out"
printf 'arm64\tstressor:sem-sysv\tnot this architecture\n' >> "$EX"
judge_refuses "an explanation for another architecture does not apply"
printf '*\tstressor:sem-sysv\tsemop EINVAL, understood\n' >> "$EX"
check "explained, it passes" sh -c "$J compare x86_64 $EX $T/k.res $T/k.con $T/g.res $T/g.con > $T/out"
check "shown as explained" grep -qx 'explained: stressor sem-sysv: kcfi-gcc failed, gcc ok' "$T/out"
results "$T/k.res"

UNIT=apt-daily.service results "$T/g.res"
judge_refuses "a failed unit, even gcc's only, fails until explained"
check "the failed unit is named with its boot" grep -qx 'UNEXPLAINED: failed unit apt-daily.service (gcc)' "$T/out"
results "$T/g.res"

FS='fail: mkfs.ext4: no such device' results "$T/k.res"
FS='fail: mkfs.ext4: no such device' results "$T/g.res"
judge_refuses "a check that fails on both boots fails"
check "the check is named" grep -qx 'UNEXPLAINED: check fs-ext4: kcfi-gcc fail, gcc fail' "$T/out"
results "$T/k.res"; results "$T/g.res"

console "$T/k.con" 'CFI failure at sock_ioctl+0x4f/0x90 (target: dummy_ioctl+0x0/0x10; expected type: 0x12345678)'
judge_refuses "a CFI failure fails"
check "it is counted in the line" grep -q 'cfi 1; gcc' "$T/out"

console "$T/k.con" 'WARNING: CPU: 1 PID: 812 at mm/slub.c:1234 kfree+0x40/0x90'
console "$T/g.con" 'WARNING: CPU: 0 PID: 90 at mm/slub.c:1234 kfree+0x40/0x90'
check "a warning both kernels have is no difference" $J compare x86_64 "$EX" "$T/k.res" "$T/k.con" "$T/g.res" "$T/g.con"
console "$T/g.con"
judge_refuses "a warning of kcfi-gcc's only fails"
check "it is shown without CPU and PID" grep -qx 'UNEXPLAINED: kernel: WARNING: at mm/slub.c:1234 kfree (kcfi-gcc only)' "$T/out"
console "$T/k.con"

results "$T/k.res" 0 no
judge_refuses "a hung boot fails"
check "with the stressor it was in" grep -qx "HUNG: kcfi-gcc's boot did not finish the workload; last: stressor tee" "$T/out"
: > "$T/k.res"
$J compare x86_64 "$EX" "$T/k.res" "$T/k.con" "$T/g.res" "$T/g.con" > "$T/out"
check "a boot without workload names systemd's last unit" grep -qx "HUNG: kcfi-gcc's boot did not finish the workload; last: unit ssh.service - OpenBSD Secure Shell server" "$T/out"
check "and its state is none" grep -q 'kcfi-gcc state none, failed units 0, stressors ok 0' "$T/out"
results "$T/k.res"

# A unit that failed and was restarted: not in failed-unit, only in the
# journal's list, with when and the stressor then running.
ONCE='systemd-timesyncd.service 465 exit-code' results "$T/k.res"
$J facts "$T/k.res" "$T/k.con" > "$T/facts"
check "facts: a unit failed once, put down to its stressor" \
	grep -qx 'once	systemd-timesyncd.service	465 s, result exit-code, during stressor sem-sysv' "$T/facts"
judge_refuses "a unit that failed once on kcfi-gcc's boot only fails"
check "it is named with when" grep -qx "UNEXPLAINED: unit systemd-timesyncd.service failed at 465 s, result exit-code, during stressor sem-sysv on kcfi-gcc's boot, never on gcc's" "$T/out"
ONCE='systemd-timesyncd.service 12 exit-code' results "$T/g.res"
check "on both boots it is no difference" $J compare x86_64 "$EX" "$T/k.res" "$T/k.con" "$T/g.res" "$T/g.con"
results "$T/g.res"

# The third boot: Clang's CFI kernel.
results "$T/c.res"; console "$T/c.con"
$J compare x86_64 "$EX" "$T/k.res" "$T/k.con" "$T/g.res" "$T/g.con" "$T/c.res" "$T/c.con" > "$T/out"
check "with clang-cfi: a difference Clang's boot does not share is ours" \
	grep -qx "UNEXPLAINED: unit systemd-timesyncd.service failed at 465 s, result exit-code, during stressor sem-sysv on kcfi-gcc's boot, never on gcc's \\[clang-cfi: did not fail\\]" "$T/out"
check "and counted as ours in the line" \
	grep -qx "distro x86_64: kcfi-gcc state running, failed units 0, stressors ok 2, failed 0, skipped 2, cfi 0; gcc state running, failed units 0, stressors ok 2, failed 0, skipped 2; clang-cfi state running, failed units 0, stressors ok 2, failed 0, skipped 2, cfi 0; unexplained 1, not in clang-cfi's boot 1" "$T/out"
ONCE='systemd-timesyncd.service 470 exit-code' results "$T/c.res"
judge_refuses_clang() {
	if $J compare x86_64 "$EX" "$T/k.res" "$T/k.con" "$T/g.res" "$T/g.con" "$T/c.res" "$T/c.con" > "$T/out"; then
		fail "$1: the judge passed it"
	else
		pass "$1"
	fi
}
judge_refuses_clang "a difference Clang's CFI boot shares still fails until explained"
check "it says Clang's boot shares it" grep -q "never on gcc's \\[clang-cfi: shared\\]$" "$T/out"
check "and it is not counted as ours" grep -q "; unexplained 1, not in clang-cfi's boot 0$" "$T/out"
FS='fail: mkfs.ext4: no such device' results "$T/k.res"
judge_refuses_clang "a check failing under kcfi-gcc, not Clang, is ours"
check "said so" grep -qx "UNEXPLAINED: check fs-ext4: kcfi-gcc fail, gcc ok \\[clang-cfi: ok\\]" "$T/out"
check "and counted" grep -q "; unexplained 1, not in clang-cfi's boot 1$" "$T/out"
results "$T/k.res"; results "$T/c.res" 0 no
judge_refuses_clang "a hung Clang boot fails"
check "it is named" grep -qx "HUNG: clang-cfi's boot did not finish the workload; last: stressor tee" "$T/out"

rm -f "$T/k.res"
$J compare x86_64 "$EX" "$T/k.res" "$T/k.con" "$T/g.res" "$T/g.con" > "$T/out"
check "a missing results file is a boot that did not finish" grep -q "^HUNG: kcfi-gcc's" "$T/out"
check "a wrong number of arguments is an error" sh -c "! $J compare x86_64 $EX"
finish
