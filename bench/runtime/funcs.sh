#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# funcs.sh VMLINUX: the kinsn.c plugin's funcs= file, "HEXADDRESS NAME" for
# every text symbol in address order, then "[above]" at _end so that code
# beyond the image (modules sit above it on x86_64) is not charged to the
# image's last function.
set -u
nm -n "$1" | awk '$2 ~ /^[tTwW]$/ { print $1, $3 } $3 == "_end" { end = $1 }
	END { if (end == "") { print "funcs.sh: no _end" > "/dev/stderr"; exit 1 } print end, "[above]" }'
