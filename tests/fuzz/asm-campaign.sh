#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run a libFuzzer campaign of asm-fuzz and fail on any finding.
#   asm-campaign.sh FUZZER SRCDIR SECONDS
# SRCDIR holds asm-corpus/ (seeds, read only) and asm.dict.  New inputs go to
# a scratch corpus next to FUZZER; findings (crash-*, leak-*, timeout-*,
# oom-*) to FUZZER-artifacts/.  -close_fd_mask=2 silences kcfi-as's own
# "error:" lines (most mutated inputs are rejected, as they should be);
# sanitizer and libFuzzer reports still reach the log.
set -u
fuzzer=$1 src=$2 secs=$3
work=$fuzzer-work
art=$fuzzer-artifacts
mkdir -p "$work" "$art"
rm -f "$art"/*
log=$fuzzer-campaign.log
echo "asm-fuzz: ${secs}s campaign, seeds $src/asm-corpus ($(ls "$src/asm-corpus" | wc -l) files), log $log"
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-dict="$src/asm.dict" -close_fd_mask=2 -print_final_stats=1 \
	-artifact_prefix="$art/" "$work" "$src/asm-corpus" >"$log" 2>&1
rc=$?
grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::number_of_executed_units|stat::peak_rss_mb|Done )' "$log"
found=$(ls "$art")
if [ $rc -ne 0 ] || [ -n "$found" ]; then
	echo "asm-fuzz: FAILED (exit $rc); findings in $art: $found"
	grep -E -A30 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' "$log" | head -60
	exit 1
fi
echo "asm-fuzz: no crash, leak, timeout or out-of-memory in ${secs}s"
