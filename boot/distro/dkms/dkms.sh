# SPDX-License-Identifier: GPL-2.0-or-later
# make dkms-check's checks (boot/dkms-check.sh), sourced by
# kcfi-distro-check from /etc/kcfi-distro.d: the modules DKMS built with
# kcfi-gcc against this kernel, loaded and used.  Check names start with
# dkms-<the module's dkms name>.
#
# v4l2loopback: a loopback video device, a frame written on its output
# side and read back on its capture side (kcfi-v4l2-loop), then unloaded.
check dkms-v4l2loopback-load modprobe v4l2loopback devices=1 video_nr=9 card_label=kcfi exclusive_caps=0
check dkms-v4l2loopback-use /usr/local/bin/kcfi-v4l2-loop /dev/video9
check dkms-v4l2loopback-unload modprobe -r v4l2loopback
# gost-crypto: its Streebog (the kernel here has none of its own) hashes a
# file through AF_ALG, in pieces; the digest must be rhash's GOST R
# 34.11-2012 one of the same file.
streebog() {
	modprobe streebog_generic &&
	awk '/^name/ { n = $3 } /^module/ && n == "streebog256" { print $3 }' /proc/crypto | grep -qx streebog_generic &&
	a=$(/usr/local/bin/kcfi-af-alg-hash streebog256 /etc/services) &&
	b=$(rhash --gost12-256 /etc/services | cut -d' ' -f1) &&
	echo "kernel $a, rhash $b" && [ "$a" = "$b" ]
}
check dkms-gost-crypto-streebog streebog
check dkms-gost-crypto-unload modprobe -r streebog_generic
# scap (falcosecurity's driver, which sysdig reads): system calls captured
# through the module's tracepoint probes and ring buffers while a loop
# opens a file; sysdig must see those openat calls.
capture() {
	modprobe scap || return 1
	# (sysdig reads every process's /proc at start: slow under TCG)
	(sleep 15; i=0; while [ $i -lt 30 ]; do cat /etc/hostname > /dev/null; sleep 1; i=$((i + 1)); done) &
	timeout -s INT 60 sysdig "evt.type=openat and evt.dir=< and fd.name=/etc/hostname" > /tmp/sysdig.out 2>&1
	wait
	grep -c 'openat' /tmp/sysdig.out > /tmp/scap-count
	tail -n 2 /tmp/sysdig.out
	[ "$(cat /tmp/scap-count)" -gt 0 ]
}
check dkms-scap-capture capture
say "scap-events $(cat /tmp/scap-count 2>/dev/null || echo none)"
check dkms-scap-unload modprobe -r scap
