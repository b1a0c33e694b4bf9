# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime.sh: where a kernel's checks run.  Files: the check
# addresses (sites, one a line), kcfi-audit's CSV they came from (same
# order, a header first), the plugin's marks (with its "site ADDRESS N"
# lines) and the guest's console.  Prints per workload the functions whose
# checked calls ran most in the N more operations of the 2N run, as
# "hot WORKLOAD FUNCTION CHECKS-PER-OP", at most -v top=N (default 6) each.
BEGIN { if (!top) top = 6 }
FILENAME == ARGV[1] { addr[FNR + 1] = $1; next }
FILENAME == ARGV[2] {
	if (FNR > 1) { split($0, f, ","); fn = f[4]; gsub(/"/, "", fn); func_of[addr[FNR]] = fn }
	next
}
FILENAME == ARGV[3] {
	if ($1 == "mark") { snap(); m = $2 }
	else if ($1 == "site") last[$2] = $3
	next
}
$1 == "bench-guest:" && $2 == "workload" { w[++n] = $3; ops[n] = $4; m0[n] = $5; m1[n] = $6 }
function snap(  a) { if (m) for (a in last) v[m, a] = last[a] }
function at(mk, a) { return ((mk, a) in v) ? v[mk, a] : 0 }
END {
	snap()
	for (i = 1; i < n; i += 2) {
		split("", per)
		for (a in func_of) {
			d = (at(m1[i + 1], a) - at(m0[i + 1], a)) - (at(m1[i], a) - at(m0[i], a))
			if (d) per[func_of[a]] += d
		}
		for (k = 0; k < top; k++) {
			best = ""; bv = 0
			for (fn in per) if (per[fn] > bv) { bv = per[fn]; best = fn }
			if (best == "") break
			printf "hot %s %s %.2f\n", w[i], best, bv / ops[i]
			delete per[best]
		}
	}
}
