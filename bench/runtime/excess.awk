# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime.sh: where one kernel executes more than another, function
# by function.  Files: funcs.awk's output for the base kernel, then for the
# CFI kernel, then (may be empty) hot.awk -v top=1000000 of the CFI kernel.
# A function's excess is its instructions per operation in the CFI kernel
# minus the base's, less -v check=N instructions (default 3) per check its
# checked calls ran: what the checks themselves do not explain.  Prints per
# workload the -v top=N (default 8) functions of largest excess, and of
# largest deficit, as "excess WORKLOAD NAME BASE CFI CHECKS EXCESS", and
# "total WORKLOAD BASE CFI CHECKS EXCESS" over all functions.
BEGIN { if (!top) top = 8; if (check == "") check = 3 }
FILENAME == ARGV[1] { a[$1, $2] = $3; wl[$1] = 1; next }
FILENAME == ARGV[2] { b[$1, $2] = $3; wl[$1] = 1; next }
$1 == "hot" { c[$2, $3] = $4 }
function get(arr, k) { return (k in arr) ? arr[k] : 0 }
END {
	for (k in a) ex[k] = 0
	for (k in b) ex[k] = 0
	for (k in c) ex[k] = 0
	for (k in ex) {
		ex[k] = get(b, k) - get(a, k) - check * get(c, k)
		split(k, p, SUBSEP)
		ta[p[1]] += get(a, k); tb[p[1]] += get(b, k); tc[p[1]] += get(c, k)
	}
	for (wk in wl) {
		printf "total %s %.2f %.2f %.2f %.2f\n", wk, ta[wk], tb[wk], tc[wk], tb[wk] - ta[wk] - check * tc[wk]
		for (s = 1; s >= -1; s -= 2) {
			split("", mine)
			for (k in ex) { split(k, p, SUBSEP); if (p[1] == wk) mine[k] = ex[k] }
			for (i = 0; i < top; i++) {
				best = ""; bv = 0
				for (k in mine) if (s * mine[k] > bv) { bv = s * mine[k]; best = k }
				if (best == "") break
				split(best, p, SUBSEP)
				printf "excess %s %s %.2f %.2f %.2f %+.2f\n", wk, p[2], get(a, best), get(b, best), get(c, best), mine[best]
				delete mine[best]
			}
		}
	}
}
