# SPDX-License-Identifier: GPL-2.0-or-later
# Input: "UNIT GCC KCFI" lines, instructions of a unit through plain gcc and
# through kcfi-gcc.  Output, one line: "TOTAL MEDIAN P90 WORST WORST_UNIT N".
# TOTAL is the ratio of the sums, not a mean of ratios: a large unit weighs
# as much as the build spends on it.  The median of an even count is the
# mean of the middle two; P90 is the nearest rank, the ceil(0.9 n)-th
# smallest ratio, so that it is always a ratio some unit had.  The worst is
# the largest ratio, the first in input order on a tie.
NF >= 3 && $2 > 0 {
	n++; u[n] = $1; r[n] = $3 / $2; g += $2; k += $3
	if (n == 1 || r[n] > worst) { worst = r[n]; wu = $1 }
}
END {
	if (n == 0) { print "units-stats: no units" > "/dev/stderr"; exit 1 }
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && r[j - 1] > r[j]; j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
	med = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
	p = int(0.9 * n); if (p < 0.9 * n) p++
	printf "%.4f %.4f %.4f %.4f %s %d\n", k / g, med, r[p], worst, wu, n
}
