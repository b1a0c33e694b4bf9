# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runtime.sh: the kernel instructions of each function per operation.
# Files: the plugin's marks with its "fn ADDRESS NAME N" lines (cumulative
# counts, logged when they changed) and the guest's console.  Prints
# "WORKLOAD NAME INSNS-PER-OP" for every function that ran in the N more
# operations of the 2N run (2N run minus N run, as results.awk).  Symbols
# of one name (static functions) are summed.  Run with -f marks.awk first.
FNR == NR {
	if ($1 == "mark") mark($2)
	else if ($1 == "fn") { last[$2] = $4; name[$2] = $3 }
	next
}
END {
	snap()
	for (i = 1; i < n; i += 2) {
		split("", per)
		for (f in last) if ((d = per_run(i, f))) per[name[f]] += d
		for (f in per) if (per[f]) printf "%s %s %.2f\n", w[i], f, per[f] / ops[i]
	}
}
