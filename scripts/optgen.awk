#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-2.0-or-later
# optgen.awk: the options tables (*.opt) to C and to manual pages, the way
# GCC's opt-gather.awk and optc-gen.awk turn its .opt files into options.cc.
#
#   awk -v mode=header -f scripts/optgen.awk TOOL.opt > TOOL-opts.h
#       the C table, the enum of ids, the refusals' reasons, --help's text
#       and, for getopt_long tools, the struct option array
#   awk -v mode=man -v srcdir=DIR -f scripts/optgen.awk PAGE.1 > NEW.1
#       PAGE.1 with every part between
#           .\" BEGIN OPTIONS path/of/TOOL.opt
#           .\" END OPTIONS
#       replaced by the entries of DIR/path/of/TOOL.opt
#   awk -v mode=list -f scripts/optgen.awk TOOL.opt
#       one line per option: SPELLING<TAB>KIND<TAB>ACTION<TAB>ARG<TAB>DOC<TAB>REASON
#       (SPELLING with the Prefix; DOC: documented or undocumented), for
#       tests/doc/options-table.sh
#
# A table is lines "Keyword text"; '#' starts a comment line.  Header lines:
#   Tool NAME           the program (kcfi-as): C names kcfi_as_..., KCFI_AS_...
#   HelpColumn N        --help: the help text starts in column N (default 29)
#   HelpStyle block     --help: the name on its own line, the text under it
#                       indented by 8 (kcfi-typeid's manual style)
#   Getopt              also write a getopt_long struct option array
#   Prefix TEXT         shown before each spelling (-fplugin-arg-kcfi-)
#   Section TEXT        a heading: in --help the line TEXT, in the page .SS
# Then one record per option, opened by its Option line:
#   Option SPELLING     as matched: "--kcfi-save=" (a trailing = : the value
#                       is joined), "-S", "reserve=" (a plugin argument)
#   Kind K              flag (default without =), joined (default with =),
#                       separate (the value is the next word),
#                       joined-or-separate (-B DIR and -BDIR)
#   Arg TEXT            the value as --help and the page show it: FILE (in
#                       capitals: a name for the value), a|b (the values), kcfi
#   Action A            accepted: the tool's own option
#                       translated: replaced by what Does says
#                       dropped: taken off the command line (Does: what of it)
#                       refused: an error, for the Reason given
#                       passed: read, and passed on unchanged
#                       internal: between our own tools only (Undocumented)
#   Does TEXT           what a translated, dropped or passed option becomes
#   Reason TEXT         why a refused option is refused (the error's words)
#   Id NAME             the C name of its id (default: from the spelling);
#                       records sharing an Id are one option (-q, --quiet)
#   Undocumented        not in --help or the page (GCC's flag of that name)
#   HelpName TEXT       the name --help shows instead of SPELLING and Arg
#   Help TEXT           a line of its --help text (none: another's text
#                       names it)
#   ManHead TEXT        the roff line naming it, instead of the generated one
#   Man TEXT            a line of its entry in the page (roff; none: no entry
#                       of its own)

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

function fail(msg) {
	printf "optgen.awk: %s:%d: %s\n", cur_file, cur_line, msg > "/dev/stderr"
	failed = 1
	exit 1
}

# Read table FILE into the arrays below (n options).
function read_table(file,    line, kw, rest, sp) {
	n = 0; nsect = 0; tool = ""; prefix = ""; helpcol = 29; helpstyle = "column"; getopt = 0
	section_pending = ""
	cur_file = file; cur_line = 0
	while ((getline line < file) > 0) {
		cur_line++
		if (line ~ /^[ \t]*(#|$)/)
			continue
		kw = line; sub(/[ \t].*/, "", kw)
		rest = line; sub(/^[^ \t]+[ \t]?/, "", rest)
		if (kw == "Tool") tool = trim(rest)
		else if (kw == "HelpColumn") helpcol = rest + 0
		else if (kw == "HelpStyle") helpstyle = trim(rest)
		else if (kw == "Prefix") prefix = trim(rest)
		else if (kw == "Getopt") getopt = 1
		else if (kw == "Section") section_pending = trim(rest)
		else if (kw == "Option") {
			sp = trim(rest)
			if (sp == "") fail("Option without a spelling")
			for (i = 1; i <= n; i++)
				if (spell[i] == sp) fail("option " sp " declared twice")
			n++
			spell[n] = sp; kind[n] = ""; arg[n] = ""; action[n] = ""
			does[n] = ""; reason[n] = ""; id[n] = ""; undoc[n] = 0
			helpname[n] = ""; help[n] = ""; manhead[n] = ""; man[n] = ""
			section[n] = section_pending; section_pending = ""
		} else if (n == 0) {
			fail("'" kw "' before the first Option")
		} else if (kw == "Kind") kind[n] = trim(rest)
		else if (kw == "Arg") arg[n] = trim(rest)
		else if (kw == "Action") action[n] = trim(rest)
		else if (kw == "Does") does[n] = does[n] (does[n] == "" ? "" : " ") trim(rest)
		else if (kw == "Reason") reason[n] = reason[n] (reason[n] == "" ? "" : " ") trim(rest)
		else if (kw == "Id") id[n] = trim(rest)
		else if (kw == "Undocumented") undoc[n] = 1
		else if (kw == "HelpName") helpname[n] = rest
		else if (kw == "Help") help[n] = help[n] rest "\n"
		else if (kw == "ManHead") manhead[n] = rest
		else if (kw == "Man") man[n] = man[n] rest "\n"
		else fail("unknown keyword '" kw "'")
	}
	close(file)
	if (tool == "") fail("no Tool line")
	for (i = 1; i <= n; i++) {
		cur_line = 0
		if (kind[i] == "")
			kind[i] = spell[i] ~ /=$/ ? "joined" : "flag"
		if (kind[i] !~ /^(flag|joined|separate|joined-or-separate)$/)
			fail(spell[i] ": unknown Kind " kind[i])
		if (action[i] !~ /^(accepted|translated|dropped|refused|passed|internal)$/)
			fail(spell[i] ": Action must be accepted, translated, dropped, refused, passed or internal")
		if (action[i] == "refused" && reason[i] == "")
			fail(spell[i] ": refused without a Reason")
		if (action[i] ~ /^(translated|dropped)$/ && does[i] == "")
			fail(spell[i] ": " action[i] " without Does")
		if (action[i] == "internal")
			undoc[i] = 1
		if (kind[i] == "flag" && arg[i] != "" && spell[i] !~ /=$/)
			fail(spell[i] ": a flag with an Arg")
		if (id[i] == "") {
			id[i] = toupper(spell[i])
			gsub(/^-+/, "", id[i]); gsub(/[^A-Z0-9]+/, "_", id[i]); sub(/_$/, "", id[i])
		}
	}
}

function cstr(s) {
	gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\n/, "\\n", s)
	return "\"" s "\""
}

function roff_escape(s) { gsub(/-/, "\\-", s); return s }

# The name --help shows.
function shown(i) {
	if (helpname[i] != "") return helpname[i]
	return prefix spell[i] (kind[i] == "separate" || (kind[i] == "joined-or-separate" && arg[i] != "") ? " " : "") arg[i]
}

# --help's text of all documented options.
function help_text(    i, s, name, lines, k, nl, pad, ind) {
	s = ""
	for (i = 1; i <= n; i++) {
		if (section[i] != "")
			s = s section[i] "\n"
		if (undoc[i] || help[i] == "")
			continue
		name = shown(i)
		nl = split(help[i], lines, "\n") - 1
		if (helpstyle == "block") {
			s = s "    " name "\n"
			for (k = 1; k <= nl; k++) s = s "        " lines[k] "\n"
			continue
		}
		ind = sprintf("%" (helpcol - 1) "s", "")
		if (2 + length(name) + 1 <= helpcol - 1) {
			pad = sprintf("%" (helpcol - 1 - 2 - length(name)) "s", "")
			s = s "  " name pad lines[1] "\n"
			k = 2
		} else {
			s = s "  " name "\n"
			k = 1
		}
		for (; k <= nl; k++) s = s ind lines[k] "\n"
	}
	return s
}

function header(    P, U, i, j, v, seen, first, s, lines, k, nl, long, has) {
	P = tool; gsub(/[^A-Za-z0-9]/, "_", P); U = toupper(P)
	printf "/* Generated by scripts/optgen.awk from %s: do not edit. */\n", FILENAME_IN
	printf "#ifndef %s_OPTS_H\n#define %s_OPTS_H\n\n#include \"common/opts.h\"\n", U, U
	if (getopt) printf "#include <getopt.h>\n"
	printf "\n/* The options' ids: getopt_long's values for %s. */\nenum %s_opt_id {\n", tool, P
	v = 256
	for (i = 1; i <= n; i++) {
		if (id[i] in seen) continue
		seen[id[i]] = 1
		short_of = ""
		for (j = i; j <= n; j++)
			if (id[j] == id[i] && spell[j] ~ /^-[A-Za-z0-9]$/)
				short_of = substr(spell[j], 2, 1)
		if (short_of != "") printf "\t%s_OPT_%s = '%s',\n", U, id[i], short_of
		else printf "\t%s_OPT_%s = %d,\n", U, id[i], v++
	}
	printf "};\n\n"
	for (i = 1; i <= n; i++)
		if (reason[i] != "")
			printf "#define %s_REASON_%s %s\n", U, id[i], cstr(reason[i])
	printf "\n__attribute__((unused)) static const struct kcfi_opt %s_opts[] = {\n", P
	for (i = 1; i <= n; i++)
		printf "\t{ %s, KCFI_OPT_%s, KCFI_OPT_%s, %s_OPT_%s, %s },\n", cstr(spell[i]),
			toupper(kind[i] == "joined-or-separate" ? "joined_or_separate" : kind[i]),
			toupper(action[i]), U, id[i], action[i] == "refused" ? cstr(reason[i]) : "0"
	printf "\t{ 0, KCFI_OPT_FLAG, KCFI_OPT_ACCEPTED, 0, 0 },\n};\n\n"
	s = help_text()
	printf "/* --help: the options part. */\n__attribute__((unused)) static const char %s_opts_help[] =", P
	nl = split(s, lines, "\n") - 1
	for (k = 1; k <= nl; k++) printf "\n\t%s", cstr(lines[k] "\n")
	if (nl <= 0) printf " \"\""
	printf ";\n"
	s = ""
	for (i = 1; i <= n; i++)
		if (!undoc[i]) s = s (s == "" ? "" : ", ") spell[i] arg[i]
	printf "\n/* The documented options, for a message naming them. */\n"
	printf "#define %s_OPTS_KNOWN %s\n", U, cstr(s)
	if (getopt) {
		printf "\n__attribute__((unused)) static const struct option %s_longopts[] = {\n", P
		short = ""
		for (i = 1; i <= n; i++) {
			if (spell[i] ~ /^-[A-Za-z0-9]$/) {
				short = short substr(spell[i], 2, 1) (kind[i] == "flag" ? "" : ":")
				continue
			}
			if (spell[i] !~ /^--/) fail(spell[i] ": getopt_long takes --long or -x options")
			long = substr(spell[i], 3); has = "no_argument"
			if (long ~ /=$/) { sub(/=$/, "", long); has = "required_argument" }
			printf "\t{ %s, %s, 0, %s_OPT_%s },\n", cstr(long), has, U, id[i]
		}
		printf "\t{ 0, 0, 0, 0 },\n};\n\n"
		printf "#define %s_SHORTOPTS %s\n", U, cstr(short)
	}
	printf "\n#endif\n"
}

# One page entry per documented option with Man lines.
function man_text(    i, s, sp, a, alts, k, head) {
	s = ""
	for (i = 1; i <= n; i++) {
		if (section[i] != "") {
			sp = section[i]; sub(/:$/, "", sp)
			s = s ".SS \"" sp "\"\n"
		}
		if (undoc[i] || man[i] == "")
			continue
		if (manhead[i] != "") head = manhead[i]
		else {
			sp = roff_escape(prefix spell[i])
			a = arg[i]
			if (a == "") head = ".B " sp
			else if (a ~ /^[A-Z][A-Z0-9_,]*$/)
				head = ".BI " (kind[i] ~ /separate/ && sp !~ /=$/ ? "\"" sp " \" " : sp " ") a
			else if (a ~ /\|/) {
				k = split(a, alts, "|")
				head = ".BR " sp roff_escape(alts[1])
				for (j = 2; j <= k; j++) head = head " | " roff_escape(alts[j])
			} else head = ".B " sp roff_escape(a)
		}
		s = s ".TP\n" head "\n" man[i]
	}
	return s
}

function list(    i) {
	for (i = 1; i <= n; i++)
		printf "%s%s\t%s\t%s\t%s\t%s\t%s\n", prefix, spell[i], kind[i], action[i], arg[i],
			undoc[i] ? "undocumented" : "documented", reason[i]
}

BEGIN {
	if (mode == "header" || mode == "list") {
		FILENAME_IN = ARGV[1]
		if (FILENAME_IN == "") { print "optgen.awk: no table" > "/dev/stderr"; exit 1 }
		if (name != "") FILENAME_IN = name
		read_table(ARGV[1])
		if (mode == "header") header(); else list()
		exit 0
	}
	if (mode != "man") { print "optgen.awk: mode must be header, man or list" > "/dev/stderr"; exit 1 }
	if (srcdir == "") srcdir = "."
}

mode == "man" && skipping && /^\.\\" END OPTIONS/ { skipping = 0 }
mode == "man" && skipping { next }
mode == "man" {
	print
	if ($0 ~ /^\.\\" BEGIN OPTIONS /) {
		t = $0; sub(/^\.\\" BEGIN OPTIONS /, "", t)
		read_table(srcdir "/" trim(t))
		printf "%s", man_text()
		skipping = 1
	}
}
END {
	if (failed) exit 1
	if (mode == "man" && skipping) { print "optgen.awk: BEGIN OPTIONS without END OPTIONS" > "/dev/stderr"; exit 1 }
}
