#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The options tables (driver/kcfi-gcc.opt, asmpass/kcfi-as.opt,
# audit/kcfi-audit.opt, tools/kcfi-typeid.opt, prepass/plugin.opt) and the
# parsers agree: every option a table declares is accepted by its parser
# with a valid value (a refused one is refused, for the table's reason) and
# is named by --help and the manual page; options no table declares are
# refused; every option spelling the parsers' sources compare is in their
# table; the pages' generated parts are what the tables make of them now
# (make update-man).  Numeric values are numbers (kcfi-audit --top=abc).
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
MAN=$top_srcdir/doc/man
GEN=$top_srcdir/scripts/optgen.awk
AUDIT=$top_builddir/kcfi-audit
TYPEID=$top_builddir/kcfi-typeid
: "${PLUGIN_CC:=gcc}"

list() { awk -v mode=list -f "$GEN" "$top_srcdir/$1"; }

# A valid value for an option's Arg: the first of a|b, else by its name.
value_for() {	# SPELLING ARG
	case $2 in
	'') echo ;;
	*'|'*) echo "${2%%|*}" ;;
	[a-z]*) echo "$2" ;;
	FILE|OBJFILE) echo "$T/value.out" ;;
	PATH) command -v as ;;
	NAME) echo input.s ;;
	N) echo 3 ;;
	LOG) echo "$T/empty.log" ;;
	TRIPLE) echo x86_64-linux-gnu ;;
	CPU|ARCH) echo x86-64 ;;
	LANG) echo c ;;
	DIR) echo "$T/nodir" ;;
	MODEL) echo small ;;
	CHOICE) echo thunk-extern ;;
	PROG,ARGS) echo env ;;
	REG) echo r11 ;;
	*) echo "no sample value for $1 $2" >&2; echo "$2" ;;
	esac
}
# The option's words on a command line: --x=V, -xV... or -x V.
words_for() {	# SPELLING KIND ARG
	v=$(value_for "$1" "$3")
	case $2 in
	flag) printf '%s\n' "$1" ;;
	joined) printf '%s\n' "$1$v" ;;
	*) printf '%s\n%s\n' "$1" "$v" ;;
	esac
}
# What to look for in --help and the page: the spelling, with a literal
# value (-fsanitize=kcfi), not with a placeholder (--csv=FILE).
needle_for() {	# SPELLING ARG
	case $2 in
	[a-z]*|*'|'*) echo "$1${2%%|*}" ;;
	*) echo "$1" ;;
	esac
}
# names TEXTFILE NEEDLE: the option in the text as a word of its own.
names() {
	re=$(printf '%s' "$2" | sed 's/[][\.*^$+?(){}|/]/\\&/g')
	case $2 in
	*[A-Za-z0-9]) grep -Eq -- "(^|[^-A-Za-z0-9])$re(\$|[^-A-Za-z0-9=])" "$1" ;;
	*) grep -Eq -- "(^|[^-A-Za-z0-9])$re" "$1" ;;
	esac
}
# The page's text in SECTION, roff escapes taken out.
page_section() {	# PAGE SECTION
	awk -v s="$2" '/^\.SH /{ sub(/^\.SH +/, ""); gsub(/"/, ""); on = ($0 == s); next } on' "$1" |
		sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\(dq/"/g'
}

printf '\t.text\n' > "$T/empty.s"
: > "$T/empty.log"
printf 'int f(int x) { return x + 1; }\n' > "$T/t.c"
$PLUGIN_CC -c -o "$T/t.o" "$T/t.c" || fail "cannot compile a probe"

# ---- kcfi-as -------------------------------------------------------------
"$KCFI_AS" --help > "$T/as.help" 2>&1
page_section "$MAN/kcfi-as.1" OPTIONS > "$T/as.page"
list asmpass/kcfi-as.opt > "$T/as.list"
while IFS='	' read -r sp kind act arg doc reason; do
	set -- $(words_for "$sp" "$kind" "$arg")
	case $sp in --help|--version) extra= ;; *) extra=--kcfi-no-assemble ;; esac
	if "$KCFI_AS" $extra "$@" "$T/empty.s" > "$T/out" 2>&1 && ! grep -q 'unknown' "$T/out"; then
		pass "kcfi-as accepts $*"
	else
		fail "kcfi-as refuses $* (asmpass/kcfi-as.opt has it)"; sed 's/^/    /' "$T/out" | head -5
	fi
	[ "$doc" = documented ] || continue
	n=$(needle_for "$sp" "$arg")
	names "$T/as.help" "$n" || fail "kcfi-as --help does not name $n"
	names "$T/as.page" "$n" || fail "kcfi-as.1 does not name $n"
done < "$T/as.list"
for o in --kcfi-frobnicate --kcfi-save --kcfi-stats=1 --kcfi-warn-cast=fatal --kcfi-hash=md5; do
	check "kcfi-as refuses $o" sh -c "! '$KCFI_AS' --kcfi-no-assemble $o '$T/empty.s' 2>'$T/err' &&
		grep -q \"^kcfi-as: unknown .*'\" '$T/err'"
done

# ---- kcfi-audit ------------------------------------------------------------
"$AUDIT" --help > "$T/audit.help"
page_section "$MAN/kcfi-audit.1" OPTIONS > "$T/audit.page"
list audit/kcfi-audit.opt > "$T/audit.list"
while IFS='	' read -r sp kind act arg doc reason; do
	set -- $(words_for "$sp" "$kind" "$arg")
	case $sp in
	--csv=|--json=|--names-from=|--top=) set -- --targets "$@" ;;
	--plot=) set -- --targets "$1.svg" ;;
	esac
	"$AUDIT" "$@" "$T/t.o" > "$T/out" 2>"$T/err"
	case $sp in --help|--version) : > "$T/err" ;; esac
	if grep -Eq 'unrecognized option|requires an argument|Usage: kcfi-audit|not a number|need --targets|takes no' "$T/err"; then
		fail "kcfi-audit refuses $* (audit/kcfi-audit.opt has it)"; sed 's/^/    /' "$T/err" | head -5
	else
		pass "kcfi-audit accepts $*"
	fi
	[ "$doc" = documented ] || continue
	n=$(needle_for "$sp" "$arg")
	names "$T/audit.help" "$n" || fail "kcfi-audit --help does not name $n"
	names "$T/audit.page" "$n" || fail "kcfi-audit.1 does not name $n"
done < "$T/audit.list"
# (getopt_long takes an unambiguous abbreviation: --target is --targets.)
for o in --frobnicate --targets=1 -x --strict=1 --top; do
	check "kcfi-audit refuses $o" sh -c "'$AUDIT' '$T/t.o' $o >/dev/null 2>'$T/err'; [ \$? = 2 ] &&
		grep -q 'Usage: kcfi-audit' '$T/err'"
done
for v in abc 5x -1 '' 99999999999999999999999; do
	check "kcfi-audit --targets --top='$v' is an error naming --top" sh -c \
		"'$AUDIT' --targets --top='$v' '$T/t.o' >/dev/null 2>'$T/err'; [ \$? = 2 ] && grep -q -- '--top' '$T/err'"
done
check "kcfi-audit --targets --top=0 is a number" sh -c "'$AUDIT' --targets --top=0 '$T/t.o' >/dev/null"

# ---- kcfi-typeid -----------------------------------------------------------
"$TYPEID" --help > "$T/typeid.help"
page_section "$MAN/kcfi-typeid.1" OPTIONS > "$T/typeid.page"
list tools/kcfi-typeid.opt > "$T/typeid.list"
while IFS='	' read -r sp kind act arg doc reason; do
	set -- $(words_for "$sp" "$kind" "$arg")
	check "kcfi-typeid accepts $*" "$TYPEID" "$@" 'int (int)'
	[ "$doc" = documented ] || continue
	n=$(needle_for "$sp" "$arg")
	names "$T/typeid.help" "$n" || fail "kcfi-typeid --help does not name $n"
	names "$T/typeid.page" "$n" || fail "kcfi-typeid.1 does not name $n"
done < "$T/typeid.list"
for o in --frobnicate --hash --hash=md5 --target --normalize-integers=1; do
	check "kcfi-typeid refuses $o" sh -c "'$TYPEID' $o 'int (int)' >/dev/null 2>'$T/err'; [ \$? = 2 ]"
done

# ---- kcfi-gcc --------------------------------------------------------------
# The table's options are x86_64's and GCC's; acceptance is tried natively.
"$KCFI_GCC" --help > "$T/gcc.help" 2>&1
page_section "$MAN/kcfi-gcc.1" OPTIONS > "$T/gcc.page"
list driver/kcfi-gcc.opt > "$T/gcc.list"
native_x86_64=no
case $NATIVE_TRIPLE in x86_64-*) native_x86_64=yes ;; esac
while IFS='	' read -r sp kind act arg doc reason; do
	if [ "$doc" = documented ]; then
		n=$(needle_for "$sp" "$arg")
		names "$T/gcc.help" "$n" || fail "kcfi-gcc --help does not name $n"
		names "$T/gcc.page" "$n" || fail "kcfi-gcc.1 does not name $n"
	fi
	[ $native_x86_64 = yes ] || continue
	set -- $(words_for "$sp" "$kind" "$arg")
	case $act in
	internal)
		# Only kcfi-gcc's own -wrapper gives them, first: anywhere
		# else they are refused, not passed to GCC.
		check "kcfi-gcc refuses $* in the command line" sh -c \
			"! '$KCFI_GCC' -fsanitize=kcfi -c $* '$T/t.c' -o '$T/i.o' 2>'$T/err' &&
			 grep -q '^kcfi-gcc: error: ' '$T/err'" ;;
	refused)
		if "$KCFI_GCC" -fsanitize=kcfi "$@" -c "$T/t.c" -o "$T/r.o" 2>"$T/err"; then
			fail "kcfi-gcc -fsanitize=kcfi $* was not refused"
		elif grep -qF "$reason" "$T/err"; then
			pass "kcfi-gcc -fsanitize=kcfi refuses $*, for the table's reason"
		else
			fail "kcfi-gcc refuses $* but not for '$reason':"; sed 's/^/    /' "$T/err" | head -5
		fi ;;
	*)
		case $sp in
		--help|--version) out=; more= ;;
		-E|-M|-MM|-fsyntax-only) out=; more="$T/t.c" ;;
		-o) out=; more="-c $T/t.c" ;;
		-S) out="-o $T/a.s"; more="$T/t.c" ;;
		-fno-sanitize-kcfi-extern-stubs) out="-c -o $T/a.o"; more="$T/t.c" ;;
		*) out="-c -o $T/a.o"; more="$T/t.c" ;;
		esac
		if "$KCFI_GCC" -fsanitize=kcfi "$@" $out $more > "$T/out" 2>&1; then
			pass "kcfi-gcc accepts $*"
		else
			fail "kcfi-gcc -fsanitize=kcfi $* fails"; sed 's/^/    /' "$T/out" | head -5
		fi ;;
	esac
done < "$T/gcc.list"
# Ours that the table lacks are refused by kcfi-gcc itself, not by GCC.
for o in --kcfi-frobnicate --kcfi-save=x -fsanitize-kcfi-frobnicate -fno-sanitize-kcfi-arity \
	 -fsanitize-kcfi-hash; do
	check "kcfi-gcc refuses $o itself" sh -c \
		"! '$KCFI_GCC' -fsanitize=kcfi $o -c '$T/t.c' -o '$T/u.o' 2>'$T/err' &&
		 grep -q \"^kcfi-gcc: error: unknown option '$o'\" '$T/err'"
done
check "kcfi-gcc refuses -fsanitize-kcfi-hash=md5" sh -c \
	"! '$KCFI_GCC' -fsanitize=kcfi -fsanitize-kcfi-hash=md5 -c '$T/t.c' -o '$T/u.o' 2>'$T/err' &&
	 grep -q 'kcfi-gcc: unknown -fsanitize-kcfi-hash' '$T/err'"

# ---- the plugin's arguments --------------------------------------------------
page_section "$MAN/kcfi-gcc.1" 'PLUGIN ARGUMENTS' > "$T/plugin.page"
list prepass/plugin.opt > "$T/plugin.list"
$PLUGIN_CC -fplugin="$KCFI_PLUGIN" -fplugin-arg-kcfi-frobnicate -S -o "$T/p.s" "$T/t.c" \
	> "$T/plugin.known" 2>&1
check "the plugin refuses -fplugin-arg-kcfi-frobnicate" grep -q 'bad plugin argument' "$T/plugin.known"
while IFS='	' read -r sp kind act arg doc reason; do
	set -- $(words_for "$sp" "$kind" "$arg")
	case $NATIVE_TRIPLE in x86_64-*) ;; *) [ "$sp" = -fplugin-arg-kcfi-call-reg= ] && set -- "${sp}ra" ;; esac
	check "the plugin accepts $*" $PLUGIN_CC -fplugin="$KCFI_PLUGIN" "$@" -S -o "$T/p.s" "$T/t.c"
	check "the plugin refuses $*x" sh -c "! $PLUGIN_CC -fplugin='$KCFI_PLUGIN' '$*x' -S -o '$T/p.s' '$T/t.c' 2>'$T/err' &&
		grep -Eq 'bad plugin argument|not a general register' '$T/err'"
	[ "$doc" = documented ] || continue
	n=$(needle_for "$sp" "$arg")
	names "$T/plugin.page" "$n" || fail "kcfi-gcc.1's PLUGIN ARGUMENTS do not name $n"
	names "$T/plugin.known" "$(needle_for "${sp#-fplugin-arg-kcfi-}" "$arg")" ||
		fail "the plugin's refusal does not name ${sp#-fplugin-arg-kcfi-}"
done < "$T/plugin.list"

# ---- the parsers' sources: every option spelling they compare is declared ----
# unlisted TABLE FILE...: the option literals compared in FILEs ("-x",
# "--kcfi-save=") that TABLE does not declare.  A literal is declared when
# it is a spelling or starts with a joined one ("--prefix=" is --prefix
# DIR).  "-", "--" and the prefixes of our own families (refused whole when
# unknown) are no options.
unlisted() {
	table=$1; shift
	grep -ohE 'str(n)?cmp *\( *[A-Za-z_][][A-Za-z0-9_.>-]* *, *"-[^"]*"' "$@" |
	grep -oE '"-[^"]*"' | tr -d '"' | sort -u |
	awk -F'\t' -v table="$table" '
		BEGIN { while ((getline l < table) > 0) { split(l, f, "\t"); sp[f[1]] = f[2] } }
		$0 == "-" || $0 == "--" || $0 == "--kcfi-" || $0 == "-fsanitize-kcfi-" ||
		    $0 == "-fno-sanitize-kcfi-" { next }
		{ ok = ($0 in sp)
		  for (s in sp) if (sp[s] != "flag" && sp[s] != "separate" && index($0, s) == 1) ok = 1
		  if (!ok) print }'
}
static_check() {	# NAME TABLE-LIST FILE...
	name=$1 tl=$2; shift 2
	unlisted "$tl" "$@" > "$T/unlisted"
	if [ -s "$T/unlisted" ]; then
		fail "$name: options compared but not in the table: $(tr '\n' ' ' < "$T/unlisted")"
	else
		pass "$name: every option its source compares is in the table"
	fi
}
S=$top_srcdir
static_check kcfi-gcc "$T/gcc.list" "$S"/driver/*.c
static_check kcfi-as "$T/as.list" "$S/asmpass/kcfi-as.c"
static_check kcfi-audit "$T/audit.list" "$S/audit/kcfi-audit.c"
static_check kcfi-typeid "$T/typeid.list" "$S"/tools/*.c
check "kcfi-audit's getopt options are the table's (no struct option of its own)" sh -c \
	"! grep -nE '(no|required|optional)_argument' '$S/audit/kcfi-audit.c'"
sed 's/^-fplugin-arg-kcfi-//' "$T/plugin.list" > "$T/plugin.keys"
check "the plugin compares no argument key of its own (plugin_init reads the table)" sh -c \
	"! grep -nE 'str(n)?cmp *\\([^,]*key *, *\"' '$S/prepass/plugin.cc'"
# ...and the check can fail: a parser comparing an option the table lacks.
printf 'if (!strcmp(a, "--kcfi-frobnicate") || !strncmp(a, "-mfoo=", 6))\n' > "$T/bad.c"
unlisted "$T/as.list" "$T/bad.c" > "$T/unlisted"
check "the static check finds options missing from the table" sh -c \
	"grep -qx -- --kcfi-frobnicate '$T/unlisted' && grep -qx -- -mfoo= '$T/unlisted'"

# ---- the pages' generated parts are up to date ---------------------------------
for p in "$MAN"/*.1; do
	b=$(basename "$p")
	if ! grep -q '^\.\\" BEGIN OPTIONS ' "$p"; then
		fail "$b: no generated options (.\\\" BEGIN OPTIONS TABLE)"
	elif awk -v mode=man -v srcdir="$top_srcdir" -f "$GEN" "$p" > "$T/$b" &&
	     cmp -s "$T/$b" "$p"; then
		pass "$b: its options are the tables' (make update-man)"
	else
		fail "$b: out of date with its table: run make update-man"
		diff -u "$p" "$T/$b" | head -20 | sed 's/^/    /'
	fi
done
finish
