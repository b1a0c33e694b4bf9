# SPDX-License-Identifier: GPL-2.0-or-later
# Judge and count the results of run-torture.sh (one line per test and level:
# NAME OPT PLAIN KCFI ACC COUNTS...), against expected-traps.txt and
# expected-refusals.txt.
#   awk -v arch=A -v trapsig=N -v secs=S -v expect=FILE -v refusals=FILE \
#       -f summarize.awk RESULTS
# Both lists, NAME LEVELS ARCHES REASON a line, go into one table; ekind
# tells which list a line came from.
function load(file, kind,   l, f, r) {
	while ((getline l < file) > 0) {
		if (l ~ /^[ \t]*(#|$)/) continue
		split(l, f, /[ \t]+/)
		ne++; en[ne] = f[1]; eo[ne] = f[2]; ea[ne] = f[3]; ekind[ne] = kind
		r = l; sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", r); ereason[ne] = r
	}
}
BEGIN {
	load(expect, "trap")
	if (refusals != "") load(refusals, "refusal")
}
# LEVELS: sets (their words joined by "_": -O3_-g) separated by ",";
# an item ending in "*" names every set that starts with the rest ("-O3*").
function has_set(levels, opt,   n, l, i, p) {
	if (levels == "*") return 1
	n = split(levels, l, ",")
	for (i = 1; i <= n; i++) {
		if (l[i] == opt) return 1
		if (l[i] ~ /\*$/) {
			p = substr(l[i], 1, length(l[i]) - 1)
			if (substr(opt, 1, length(p)) == p) return 1
		}
	}
	return 0
}
function listed(name, opt, kind,   i) {
	for (i = 1; i <= ne; i++)
		if (ekind[i] == kind && en[i] == name && has_set(eo[i], opt) &&
		    (ea[i] == "*" || ("," ea[i] ",") ~ ("," arch ",")))
			return i
	return 0
}
function failure(msg) { nfail++; print "FAIL: " msg }
{
	name = $1; opt = $2; plain = $3; kcfi = $4; acc = $5
	total++
	if (plain == "nobuild") { skipped++; next }
	built++
	r = listed(name, opt, "refusal")
	if (kcfi == "refused") {
		if (r) { refused++; print "refused: " name " " opt ": " ereason[r] }
		else failure(name " " opt ": refused (nested function address), not listed in expected-refusals.txt")
		next
	}
	if (r) { failure(name " " opt ": listed in expected-refusals.txt but kcfi=" kcfi); next }
	if (kcfi ~ /^no(build|link)/) { failure(name " " opt ": kcfi-gcc " kcfi ", plain gcc builds it"); next }
	if (kcfi ~ /\+errors$/) { failure(name " " opt ": kcfi-as reported errors"); next }
	if (acc ~ /^bad/) failure(name " " opt ": accounting: " substr(acc, 5))
	else if (acc == "ok") {
		accounted++
		for (i = 6; i <= NF; i++) { split($i, kv, "="); sum[kv[1]] += kv[2] }
	}
	e = listed(name, opt, "trap")
	if (e) {
		if (kcfi == "sig:" trapsig && plain != kcfi) { trapped++; print "trap: " name " " opt ": " ereason[e] }
		else failure(name " " opt ": listed in expected-traps.txt but kcfi=" kcfi " plain=" plain)
		next
	}
	if (plain == kcfi) { same++; if (plain != "ok") bothfail++; next }
	failure(name " " opt ": run-time difference: plain=" plain " kcfi=" kcfi)
}
END {
	printf "\ntorture summary (%s, %d s): %d runs; %d skipped (plain gcc cannot build); " \
	       "%d same outcome (%d of them fail with plain gcc too); %d expected traps trapped; " \
	       "%d refused as expected (nested function address); %d FAILED\n",
	       arch, secs, total, skipped, same, bothfail, trapped, refused, nfail
	printf "accounting over %d kcfi objects: checked calls=%d sibcalls=%d; exempt: " \
	       "no_sanitize=%d unprototyped=%d direct-as-indirect=%d inline-asm=%d trampoline-templates=%d; " \
	       "nocall: jump tables=%d computed goto/longjmp=%d; indirect branches in objects=%d\n",
	       accounted, sum["call"], sum["sibcall"], sum["nosan"], sum["noproto"], sum["direct"],
	       sum["inline"], sum["tramp"], sum["table"], sum["nocall_goto"], sum["indirect"]
	exit nfail ? 1 : 0
}
