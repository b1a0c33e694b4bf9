#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make dkms-check's judge (boot/dkms-judge.sh) on hand-written inputs in the
# shape boot/dkms-check.sh, kcfi-audit, the kernel Makefile and the
# distro-check workload give them: a good run, then one fault at a time --
# a module dkms did not build, one with an unchecked call or a branch
# outside recorded code (dkms strips the records), one without
# preambles, plain gcc that built, or stopped without naming kcfi-gcc, a
# module check that failed, a module without a check, a failed unit (then explained), a
# CFI failure and a boot that did not end.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
J="bash $top_srcdir/boot/dkms-judge.sh"
D="bash $top_srcdir/boot/distro-judge.sh"
M="v4l2loopback gost-crypto scap"

modules() {	# modules [V4L2_LINE]: modules.txt
	echo "${1:-v4l2loopback 0.12.7 modules 1 checked 61 unchecked 0 outside 0 preambles 48 traps 61 findings 0}"
	echo "gost-crypto 0.3.4 modules 6 checked 210 unchecked 0 outside 0 preambles 160 traps 210 findings 0"
	echo "scap 0.1.1dev modules 1 checked 95 unchecked 0 outside 0 preambles 190 traps 95 findings 0"
}
plain_refused() {
	echo "Makefile:1031: *** gcc cannot compile with -fsanitize=kcfi, which this kernel's modules need: it was built with KCFI (CONFIG_CFI_CLANG) by kcfi-gcc, and a module without KCFI traps on the first call the kernel makes into it.  Build with CC=kcfi-gcc.  Stop."
}
results() {	# results [USE_RESULT] [END]; UNIT a failed unit, NOSCAP drops scap's checks
	printf 'kcfi-distro: begin 6.1.0\r\n'
	echo "kcfi-distro: state ${UNIT:+degraded}${UNIT:-running}"
	[ -z "${UNIT:-}" ] || echo "kcfi-distro: failed-unit $UNIT"
	echo "kcfi-distro: check ssh ok"
	echo "kcfi-distro: check dkms-v4l2loopback-load ok"
	echo "kcfi-distro: check dkms-v4l2loopback-use ${1:-ok}"
	echo "kcfi-distro: check dkms-v4l2loopback-unload ok"
	echo "kcfi-distro: check dkms-gost-crypto-streebog ok"
	[ -n "${NOSCAP:-}" ] || echo "kcfi-distro: check dkms-scap-capture ok"
	echo "kcfi-distro: scap-events 12"
	echo "kcfi-distro: stressor pipe start"
	echo "kcfi-distro: stressor pipe rc 0"
	[ "${2:-yes}" = no ] || echo "kcfi-distro: end"
}
run() {	# the judge on the current files, output in $T/out
	$D facts "$T/res" "$T/con" > "$T/facts"
	$J x86_64 6.1.158 "$M" "$T/mod" "$T/plain" "$T/facts" "$T/res" "$T/ex" > "$T/out"
}
refuses() {	# refuses NAME PATTERN: the judge fails, and says PATTERN
	if run; then fail "$1: the judge passed it"
	elif grep -q "$2" "$T/out"; then pass "$1"
	else fail "$1: no '$2' in: $(cat "$T/out")"; fi
}
reset() { modules > "$T/mod"; plain_refused > "$T/plain"; results > "$T/res"; : > "$T/con"; : > "$T/ex"; }

reset
check "a good run passes" run
check "and its line says so" grep -qx 'dkms x86_64 (Linux 6.1.158): built 3/3 by kcfi-gcc (preambles 398, trap entries 366, unchecked 0, findings 0), plain gcc refused yes; checks ok 6, failed 0; state running, failed units 0; scap events 12; cfi 0' "$T/out"

{ modules | grep -v '^v4l2'; echo "v4l2loopback not-installed"; } > "$T/mod"
refuses "a module dkms did not install" 'v4l2loopback: dkms did not build'
check "it is not counted as built" grep -q 'built 2/3' "$T/out"
modules "v4l2loopback 0.12.7 modules 1 checked 60 unchecked 1 outside 0 preambles 48 traps 60 findings 0" > "$T/mod"
refuses "an unchecked indirect call" 'v4l2loopback: 1 indirect calls without a KCFI check'
modules "v4l2loopback 0.12.7 modules 1 checked 60 unchecked 0 outside 2 preambles 48 traps 60 findings 0" > "$T/mod"
refuses "a branch outside recorded code (stripped records)" 'v4l2loopback: 2 indirect calls without a KCFI check'
modules "v4l2loopback 0.12.7 modules 1 checked 0 unchecked 0 outside 0 preambles 0 traps 0 findings 0" > "$T/mod"
refuses "a module without preambles" 'not compiled with KCFI'
: > "$T/mod"
refuses "no audit at all" 'scap: dkms did not build'
reset

{ plain_refused; echo "plain-gcc: built"; } > "$T/plain"
refuses "plain gcc that built a module" 'a module built with plain gcc'
echo "gcc: error: unrecognized argument to '-fsanitize=' option: 'kcfi'" > "$T/plain"
refuses "plain gcc stopping without naming kcfi-gcc" 'without naming kcfi-gcc'
check "then plain gcc is not counted as refused" grep -q 'plain gcc refused no' "$T/out"
reset

results fail > "$T/res"
refuses "a module check that failed" 'check dkms-v4l2loopback-use: fail'
NOSCAP=1 results > "$T/res"
refuses "a module without a check" 'no check of scap (dkms-scap-...) ran'
UNIT=sysdig.service results > "$T/res"
refuses "a failed unit" 'failed unit sysdig.service'
printf 'x86_64\tunit:sysdig.service\twhy it fails, understood\n' > "$T/ex"
check "explained, it passes" run
reset

echo 'CFI failure at v4l2_ioctl+0x4f/0x90 (target: vidioc_querycap+0x0/0x10; expected type: 0x12345678)' > "$T/con"
refuses "a CFI failure" '1 CFI failure report'
reset
results ok no > "$T/res"
refuses "a boot that did not end" 'did not finish the workload'
check "a wrong number of arguments is an error" sh -c "! $J x86_64 6.1"
finish
