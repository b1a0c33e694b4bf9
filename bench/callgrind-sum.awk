# SPDX-License-Identifier: GPL-2.0-or-later
# The instructions of every process of a run, from callgrind's profiles all
# written to one pipe (bench/units.sh): one "summary:" per dump, and a dump
# is made before every exec and fork as well as at exit, so each image's
# instructions are counted once.  Prints "INSTRUCTIONS DUMPS", or fails
# when a dump is cut short (a summary without its totals line), since a
# missing tail would undercount silently.
/^summary: / { s += $2; n++ }
/^totals: / { t++ }
END {
	if (n == 0 || n != t) { printf "callgrind-sum: %d summaries, %d totals\n", n, t > "/dev/stderr"; exit 1 }
	printf "%d %d\n", s, n
}
