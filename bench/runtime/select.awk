# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime.sh's BENCH_WORKLOADS: bench/runtime/workloads reduced to
# the workloads named in -v only="NAME..." (all of them when it is empty),
# comments kept.  A name no line has is an error, so that a misspelt
# filter cannot pass for a run that measured nothing.
BEGIN { n = split(only, o, " "); for (i = 1; i <= n; i++) want[o[i]] = 1 }
/^[ \t]*(#|$)/ { print; next }
!n || ($1 in want) { print; got[$1] = 1 }
END {
	for (w in want)
		if (!(w in got)) { print "select: no workload " w > "/dev/stderr"; bad = 1 }
	exit bad
}
