#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime/workloads and bench/runtime/select.awk (make
# bench-runtime's BENCH_WORKLOADS): the filter keeps the named workloads in
# the file's order and refuses a name no line has; the workloads left out
# of the runtime: line by default (BENCH_ASIDE) exist; every module file a
# workload loads is one bench/runtime.sh puts in the guest's initramfs.
. "$top_srcdir/tests/lib.sh"
B=$top_srcdir/bench/runtime
W=$B/workloads
names() { grep -v '^[[:space:]]*#' "$1" | awk 'NF { print $1 }' | tr '\n' ' '; }
awk -v only= -f "$B/select.awk" "$W" > "$T/all"
check "no filter: the whole file" cmp "$W" "$T/all"
awk -v only="module-unstripped pipe" -f "$B/select.awk" "$W" > "$T/two"
check "a filter keeps its workloads in the file's order" test "$(names "$T/two")" = "pipe module-unstripped "
check "a name no workload has is an error" sh -c "! awk -v only='pipe modul' -f '$B/select.awk' '$W' > /dev/null 2>&1"
aside=$(sed -n 's/^ASIDE=\${BENCH_ASIDE-\(.*\)}$/\1/p' "$top_srcdir/bench/runtime.sh")
check "runtime.sh has a default BENCH_ASIDE" test -n "$aside"
check "BENCH_ASIDE's workloads exist" awk -v only="$aside" -f "$B/select.awk" "$W"
ok=0
for f in $(awk '$3 == "@module" { print $4 }' "$W"); do
	grep -q "echo \"file $f " "$top_srcdir/bench/runtime.sh" || { echo "no $f in the initramfs" >&2; ok=1; }
done
check "every module a workload loads is in the initramfs" test $ok = 0
check "module loads a module" test -n "$(awk '$1 == "module" && $3 == "@module" && $4' "$W")"
finish
