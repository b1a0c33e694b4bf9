# SPDX-License-Identifier: GPL-2.0-or-later
# Reads the module log of a debian-cloud boot (the lines boot/init.c's
# load_modules writes to the second serial port) and prints, tab-separated:
#   mod	NAME	STATE	ERR	VIA	EXPLAINED	one per module, its last word
#   summary	TOTAL	LOADED	ABSENT	FAILED	what init counted, if it got there
#   unfinished	NAME	a load began and never reported (the machine died in it)
# EX (-v) is boot/config/debian-cloud/explained.tsv: NAME<TAB>ERR<TAB>why, a
# failure known not to be KCFI's; a module failing through an explained
# dependency (via=) is explained with it.
BEGIN {
	FS = "[ \t]+"
	if (EX != "")
		while ((getline l < EX) > 0) {
			if (l ~ /^#/ || l == "") continue
			split(l, f, "\t")
			ex[f[1] "\t" f[2]] = 1
		}
}
{ sub(/\r$/, "") }
/^kcfi-modload-try: / { trying[$2] = 1; order[++ntry] = $2; next }
/^kcfi-modload: / {
	name = $2; st[name] = $3; err[name] = $4; via[name] = ""
	if ($5 ~ /^via=/) via[name] = substr($5, 5)
	if (!(name in seen)) { seen[name] = 1; names[++n] = name }
	delete trying[name]
	next
}
/^kcfi-modload-summary: / {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); sum[kv[1]] = kv[2] }
	printf "summary\t%d\t%d\t%d\t%d\n", sum["total"], sum["loaded"], sum["absent"], sum["failed"]
}
END {
	for (i = 1; i <= n; i++) {
		m = names[i]; root = via[m] != "" ? via[m] : m
		e = (st[m] == "failed" && ((m "\t" err[m]) in ex || (root "\t" err[root]) in ex)) ? "explained" : "-"
		printf "mod\t%s\t%s\t%s\t%s\t%s\n", m, st[m], err[m], via[m] == "" ? "-" : via[m], e
	}
	for (i = 1; i <= ntry; i++)
		if (order[i] in trying) { printf "unfinished\t%s\n", order[i]; delete trying[order[i]] }
}
