# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime.sh: where a kernel's checks run.  Files: the check
# addresses (sites, one a line), kcfi-audit's CSV they came from (same
# order, a header first), the plugin's marks (with its "site ADDRESS N"
# lines) and the guest's console.  Prints per workload the functions whose
# checked calls ran most in the N more operations of the 2N run, as
# "hot WORKLOAD FUNCTION CHECKS-PER-OP", at most -v top=N (default 6) each,
# most first.  Run with -f marks.awk first.
BEGIN { if (!top) top = 6 }
FILENAME == ARGV[1] { addr[FNR + 1] = $1; next }
FILENAME == ARGV[2] {
	if (FNR > 1) { split($0, f, ","); fn = f[4]; gsub(/"/, "", fn); func_of[addr[FNR]] = fn }
	next
}
FILENAME == ARGV[3] {
	if ($1 == "mark") mark($2)
	else if ($1 == "site") last[$2] = $3
	next
}
END {
	snap()
	for (i = 1; i < n; i += 2) {
		split("", per)
		for (a in func_of) if ((d = per_run(i, a))) per[func_of[a]] += d
		for (k = 0; k < top; k++) {
			best = ""; bv = 0
			for (fn in per) if (per[fn] > bv) { bv = per[fn]; best = fn }
			if (best == "") break
			printf "hot %s %s %.2f\n", w[i], best, bv / ops[i]
			delete per[best]
		}
	}
}
