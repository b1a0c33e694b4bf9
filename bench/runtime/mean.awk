# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime.sh: one kernel's results over several boots, each with
# another perturb= value on the command line (results.awk's lines "NAME N
# KERNEL USER CHECKS", the same workloads in each file).  Prints the mean
# of each count and, for the spread, the smallest and largest KERNEL:
# "NAME N KERNEL USER CHECKS KMIN KMAX".  One boot's count is one draw:
# the random pool and the memory layout decide hash chains and copy
# alignments, and a one-byte change of the command line moved a workload
# by 0.6% (doc/performance.md "Same kernel, other counts").
FNR == 1 { nf++ }
nf == 1 { W[++nw] = $1; N[$1] = $2 }
!($1 in N) || N[$1] != $2 { print "mean: " FILENAME ": workload " $1 " " $2 " not in the first file" > "/dev/stderr"; bad = 1; exit 1 }
{
	k[$1] += $3; u[$1] += $4; c[$1] += $5; n[$1]++
	if (n[$1] == 1 || $3 < lo[$1]) lo[$1] = $3
	if (n[$1] == 1 || $3 > hi[$1]) hi[$1] = $3
}
END {
	if (bad) exit 1
	for (i = 1; i <= nw; i++)
		if (n[W[i]] != nf) { print "mean: workload " W[i] " in " n[W[i]] " of " nf " files" > "/dev/stderr"; exit 1 }
	for (i = 1; i <= nw; i++) {
		w = W[i]
		printf "%s %d %.0f %.0f %.0f %.0f %.0f\n", w, N[w], k[w] / nf, u[w] / nf, c[w] / nf, lo[w], hi[w]
	}
}
