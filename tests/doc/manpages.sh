#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The manual pages and --help agree: every option a tool's --help lists has
# an entry in its page and every entry is an option --help lists; the pages
# render without warnings; --version says what each tool is (kcfi-as's first
# line still the real assembler's, which the kernel's as-version.sh reads).
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
MAN=$top_srcdir/doc/man
TYPEID=$top_builddir/kcfi-typeid

# Option names at the start of each item: "  --kcfi-save=FILE   text",
# "    --hash=fnv1a|xxhash64", "  --version, --help".
help_options() {
	grep -E '^ {2,4}-' | sed -E 's/^ +//; s/ {2,}.*//' | tr ',' '\n' |
		sed -E 's/^ +//; s/[=| ].*//' | grep -E '^-' | sort -u
}
# The first word after each .TP in the OPTIONS section of a page.
page_options() {
	awk '/^\.SH /{ on = ($2 == "OPTIONS") } on && tp { print; tp = 0 } /^\.TP/{ tp = on }' "$1" |
		sed -E 's/^\.[A-Z]+ +//; s/\\f[BIPR]//g; s/\\-/-/g; s/"//g; s/[=| ].*//' | sort -u
}
same_options() {	# NAME HELP-TEXT-FILE PAGE
	help_options < "$2" > "$T/$1.help"
	page_options "$3" > "$T/$1.page"
	[ -s "$T/$1.help" ] || { echo "no options found in --help"; return 1; }
	diff -u "$T/$1.help" "$T/$1.page"
}

# Each tool's own part of --help (kcfi-as and kcfi-gcc go on with the real
# tool's options).
"$KCFI_AS" --help 2>&1 | sed -n '/^kcfi options:/,/^Usage: /p' | sed '$d' > "$T/as.txt"
"$KCFI_GCC" --help 2>&1 | sed -n '/^kcfi options:/,/^Environment:/p' > "$T/gcc.txt"
echo "  --help" >> "$T/gcc.txt"; echo "  --version" >> "$T/gcc.txt"	# handled, then passed on
"$TYPEID" --help > "$T/typeid.txt"
"$top_builddir/kcfi-audit" --help > "$T/audit.txt"
check "kcfi-as: --help and kcfi-as.1 list the same options" same_options as "$T/as.txt" "$MAN/kcfi-as.1"
check "kcfi-gcc: --help and kcfi-gcc.1 list the same options" same_options gcc "$T/gcc.txt" "$MAN/kcfi-gcc.1"
check "kcfi-typeid: --help and kcfi-typeid.1 list the same options" same_options typeid "$T/typeid.txt" "$MAN/kcfi-typeid.1"
check "kcfi-audit: --help and kcfi-audit.1 list the same options" same_options audit "$T/audit.txt" "$MAN/kcfi-audit.1"
check "kcfi-gcc --help goes on with the compiler's options" sh -c \
	"'$KCFI_GCC' --help | grep -A3 '^The options of [^ ]*gcc[-0-9]* follow' | grep -q '^Usage: [^ ]*gcc[-0-9]* '"

if command -v groff >/dev/null; then
	for p in "$MAN"/*.1; do
		check "$(basename "$p") renders without warnings" sh -c \
			"groff -man -Tutf8 -ww -z '$p' 2>&1 | (! grep .)"
	done
fi

check "kcfi-as --version: the real assembler's line first" sh -c \
	"'$KCFI_AS' --version | head -1 | grep -q '^GNU assembler'"
check "kcfi-as --version: then its own" sh -c \
	"'$KCFI_AS' --version | grep -q '^kcfi-as [0-9]'"
check "kcfi-gcc --version: the compiler's line first" sh -c \
	"'$KCFI_GCC' --version | head -1 | grep -q 'gcc'"
check "kcfi-gcc --version: then its own, naming the plugin" sh -c \
	"'$KCFI_GCC' --version | grep -q '^kcfi-gcc [0-9].* through /.*kcfi\\.so'"
check "kcfi-typeid --version" sh -c "'$TYPEID' --version | grep -q '^kcfi-typeid (kcfi-as) [0-9]'"
finish
