# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime.sh: what funcs.awk and hot.awk share -- per-key counters of
# the plugin's log taken at each marker, and the guest's workload runs.
# The including script keeps the cumulative count of each key in last[KEY]
# as it reads the log and calls mark(NAME) on each "mark NAME" line;
# per_run(I, KEY) is then what KEY counted in the N more operations of
# workload I's 2N run (the runs come in pairs, N then 2N, as results.awk).
$1 == "bench-guest:" && $2 == "workload" { w[++n] = $3; ops[n] = $4; m0[n] = $5; m1[n] = $6 }
function mark(name) { snap(); m = name }
function snap(  k) { if (m) for (k in last) v[m, k] = last[k] }
function at(mk, k) { return ((mk, k) in v) ? v[mk, k] : 0 }
function per_run(i, k) { return (at(m1[i + 1], k) - at(m0[i + 1], k)) - (at(m1[i], k) - at(m0[i], k)) }
