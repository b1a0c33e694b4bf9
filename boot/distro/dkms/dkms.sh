# SPDX-License-Identifier: GPL-2.0-or-later
# make dkms-check's checks (boot/dkms-check.sh), sourced by
# kcfi-distro-check from /etc/kcfi-distro.d: the modules DKMS built with
# kcfi-gcc against this kernel, loaded and used.
#
# v4l2loopback: a loopback video device, a frame written on its output
# side and read back on its capture side (kcfi-v4l2-loop), then unloaded.
check dkms-v4l2loopback-load modprobe v4l2loopback devices=1 video_nr=9 card_label=kcfi exclusive_caps=0
check dkms-v4l2loopback-use /usr/local/bin/kcfi-v4l2-loop /dev/video9
check dkms-v4l2loopback-unload modprobe -r v4l2loopback
# lttng-modules: a kernel tracing session (lttng-sessiond, as root, loads
# the probe modules) on scheduler events and a few system calls while a
# workload runs; the trace, read by babeltrace2, must hold events of both.
lttng_session() {
	systemctl is-active -q lttng-sessiond || lttng-sessiond --daemonize || return 1
	lttng create kcfi --output=/tmp/lttng-kcfi &&
	lttng enable-event --kernel sched_switch,sched_wakeup &&
	lttng enable-event --kernel --syscall openat,read,close &&
	lttng start &&
	find /usr/share -type f -name '*.txt' -exec cat {} + > /dev/null &&
	sleep 1 &&
	lttng stop &&
	lttng destroy || return 1
	babeltrace2 /tmp/lttng-kcfi > /tmp/lttng-kcfi.txt || return 1
	sw=$(grep -c 'sched_switch:' /tmp/lttng-kcfi.txt)
	op=$(grep -c 'syscall_entry_openat:' /tmp/lttng-kcfi.txt)
	echo "$(wc -l < /tmp/lttng-kcfi.txt) sched_switch $sw openat $op" > /tmp/lttng-counts
	[ "$sw" -gt 0 ] && [ "$op" -gt 0 ]
}
check dkms-lttng lttng_session
say "lttng-events $(cat /tmp/lttng-counts 2>/dev/null || echo none)"
lsmod | awk 'NR > 1 && /^lttng/ { n++ } END { print "kcfi-distro: lttng-modules-loaded " n + 0 }'
