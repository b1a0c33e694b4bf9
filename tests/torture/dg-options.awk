# SPDX-License-Identifier: GPL-2.0-or-later
# Print the extra compiler options a gcc.c-torture/execute test asks for,
# read minimally from its dg-options / dg-additional-options comments:
#   awk -v triple=x86_64-linux-gnu -f dg-options.awk test.c
# A "{ target SELECTOR }" is honoured when SELECTOR is a list of target globs
# (optionally negated with "!"), plus the effective targets "fpic" and "signal"; any other
# effective-target keyword counts as false.  The same options go to plain
# gcc and to kcfi-gcc, so a misreading only changes what both are compared on.
function glob_match(pat, s,   re) {
	re = pat
	gsub(/[.+^$()|]/, "\\\\&", re)
	gsub(/\*/, ".*", re)
	gsub(/\?/, ".", re)
	return s ~ ("^" re "$")
}
function selector_true(sel,   n, w, i, neg, any, hasand) {
	gsub(/[{}]/, " ", sel)
	n = split(sel, w, /[ \t]+/)
	neg = 0; any = 0; hasand = 0
	for (i = 1; i <= n; i++) {
		if (w[i] == "") continue
		if (w[i] == "!") { neg = 1; continue }
		if (w[i] == "&&") { hasand = 1; continue }
		if (w[i] ~ /-/) { if (glob_match(w[i], triple)) any = 1; continue }
		if (w[i] == "fpic" || w[i] == "signal") { any = 1; continue }
		if (hasand) { any = 0 }	# "X && ia32": the keyword decides, and is false
	}
	return neg ? !any : any
}
{
	line = $0
	while (match(line, /dg-(additional-)?options[ \t]+("[^"]*"|\{[^}]*\})/)) {
		item = substr(line, RSTART, RLENGTH)
		rest = substr(line, RSTART + RLENGTH)
		line = rest
		sub(/^dg-(additional-)?options[ \t]+/, "", item)
		gsub(/^[{"]+[ \t]*"?|"?[ \t]*[}"]+$/, "", item)
		ok = 1
		if (match(rest, /^[ \t]*\{[ \t]*target[ \t]+/)) {
			sel = substr(rest, RLENGTH + 1)
			# The selector ends where its braces balance.
			depth = 1; out = ""
			for (i = 1; i <= length(sel) && depth > 0; i++) {
				c = substr(sel, i, 1)
				if (c == "{") depth++
				if (c == "}") depth--
				if (depth > 0) out = out c
			}
			ok = selector_true(out)
		}
		if (ok && item != "") opts = opts " " item
	}
}
END { sub(/^ /, "", opts); print opts }
