# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime.sh's table: the results files of the variants
# (.../VARIANT/results, lines "NAME N KERNEL USER CHECKS"), -v variants="gcc
# kcfi-gcc clang clang-cfi"; a table per workload and the runtime: line
# (geometric mean and worst of the kernel-instruction ratios; checks per
# operation averaged over the workloads).  Results of several boots
# (mean.awk: two more fields, the smallest and the largest KERNEL) add a
# spread column, (largest - smallest) / mean, and a spread: line before
# the last, the largest spread of each kernel.  The workloads named in -v
# aside="NAME..." get their table but stay out of the runtime: line.
BEGIN { nv = split(variants, V, " "); na = split(aside, A, " "); for (i = 1; i <= na; i++) out[A[i]] = 1 }
{ np = split(FILENAME, p, "/"); v = p[np - 1]
  if (!($1 in seen)) { seen[$1] = 1; W[++nw] = $1 }
  ops[$1] = $2; K[v, $1] = $3; U[v, $1] = $4; C[v, $1] = $5
  if (NF >= 7 && $3 > 0) { sp[v, $1] = ($7 - $6) / $3; spread = 1 } }
function ratio(a, b) { return b > 0 ? a / b : 0 }
END {
	for (i = 1; i <= nw; i++) {
		w = W[i]
		printf "%s (%d operations)%s\n", w, ops[w], (w in out) ? ", not in the runtime: line" : ""
		printf "  %-10s %14s %10s %14s %10s%s\n", "kernel", "kernel insns", "per op", "checks", "per op", spread ? "   spread" : ""
		for (j = 1; j <= nv; j++) {
			v = V[j]
			printf "  %-10s %14.0f %10.1f %14.0f %10.2f", v, K[v, w], K[v, w] / ops[w], C[v, w], C[v, w] / ops[w]
			if (spread) printf " %7.2f%%", 100 * sp[v, w]
			printf "\n"
			if (sp[v, w] >= ws[v]) { ws[v] = sp[v, w]; wws[v] = w }
		}
		ro = ratio(K["kcfi-gcc", w], K["gcc", w]); rc = ratio(K["clang-cfi", w], K["clang", w])
		printf "  kcfi-gcc/gcc %.4f  clang-cfi/clang %.4f  kcfi-gcc/clang-cfi %.4f\n", ro, rc, ratio(K["kcfi-gcc", w], K["clang-cfi", w])
		if (w in out) continue
		ng++
		if (ro > 0) { lo += log(ro); no++; if (ro > wo) { wo = ro; wwo = w } }
		if (rc > 0) { lc += log(rc); nc++; if (rc > wc) { wc = rc; wwc = w } }
		co += C["kcfi-gcc", w] / ops[w]; cc += C["clang-cfi", w] / ops[w]
	}
	if (spread) {
		printf "spread: largest (max - min) / mean of the boots' kernel instructions:"
		for (j = 1; j <= nv; j++) printf "%s %s %.2f%% (%s)", (j > 1 ? ";" : ""), V[j], 100 * ws[V[j]], wws[V[j]]
		printf "\n"
	}
	printf "runtime: kernel instructions kcfi-gcc/gcc geomean %.4f, worst %.4f (%s); clang-cfi/clang geomean %.4f, worst %.4f (%s); checks per op ours %.2f, clang %.2f\n",
		no ? exp(lo / no) : 0, wo, wwo, nc ? exp(lc / nc) : 0, wc, wwc, ng ? co / ng : 0, ng ? cc / ng : 0
}
