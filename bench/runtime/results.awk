# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime.sh: the plugin's marks (first file: "mark SEQ kernel K user U
# checks C") and the guest's console (second file: "bench-guest: workload
# NAME OPS BEFORE AFTER", each workload with N then 2N operations) give one
# line per workload, "NAME N KERNEL USER CHECKS": what the N more
# operations of the second run cost over the first.
FNR == NR { if ($1 == "mark") { k[$2] = $4; u[$2] = $6; c[$2] = $8 } next }
$1 == "bench-guest:" && $2 == "workload" { w[++n] = $3; ops[n] = $4; m0[n] = $5; m1[n] = $6 }
END {
	if (bad) exit 1
	if (n == 0 || n % 2) { print "results: " n " workload runs, expected pairs" > "/dev/stderr"; exit 1 }
	for (i = 1; i <= n; i += 2) {
		# i: N operations, i+1: 2N; marks m0 (before) and m1 (after)
		a = i; b = i + 1
		if (w[a] != w[b] || ops[b] != 2 * ops[a]) { print "results: bad pairing at " w[a] > "/dev/stderr"; bad = 1; exit 1 }
		if (!(m0[a] in k) || !(m1[a] in k) || !(m0[b] in k) || !(m1[b] in k)) {
			print "results: a marker of " w[a] " is missing from the plugin's log" > "/dev/stderr"; bad = 1; exit 1
		}
		kk = (k[m1[b]] - k[m0[b]]) - (k[m1[a]] - k[m0[a]])
		uu = (u[m1[b]] - u[m0[b]]) - (u[m1[a]] - u[m0[a]])
		cc = (c[m1[b]] - c[m0[b]]) - (c[m1[a]] - c[m0[a]])
		printf "%s %d %.0f %.0f %.0f\n", w[a], ops[a], kk, uu, cc
	}
}
