# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the plugin tests (tests/prepass/*.sh); sourced.
. "$top_srcdir/tests/lib.sh"
SRC=$top_srcdir/tests/prepass
CC=${PLUGIN_CC:-gcc}
LC_ALL=C
export LC_ALL
[ -f "${KCFI_PLUGIN:-}" ] || skip "the plugin is not built: ${KCFI_PLUGIN:-unset}"
case ${NATIVE_TRIPLE:-} in
x86_64-*) ;;
*) skip "these tests read x86_64 assembly, not ${NATIVE_TRIPLE:-unknown}" ;;
esac

# kcc OUT.s SRC FLAGS...: compile to assembly with the plugin; the
# compiler's messages go to OUT.s.err.
kcc() {
	_kcc_out=$1 _kcc_src=$2
	shift 2
	$CC -fplugin="$KCFI_PLUGIN" -S -o "$_kcc_out" "$@" "$_kcc_src" 2>"$_kcc_out.err"
}

# wellformed FILE.s: the directive contract holds (check-asm.awk).
wellformed() { awk -f "$SRC/check-asm.awk" "$1"; }

# quiet FILE.s: the compiler printed no message at all.
quiet() { [ ! -s "$1.err" ] || { cat "$1.err"; false; }; }

# compiled FILE.s: it compiled without a message and is well formed.
compiled() { quiet "$1" && wellformed "$1"; }

# count ERE FILE: number of matching lines.
count() { grep -cE -- "$1" "$2" || true; }

# has ERE FILE / lacks ERE FILE
has() { grep -qE -- "$1" "$2" || { echo "no line matches /$1/ in $2"; false; }; }
lacks() { ! grep -E -- "$1" "$2"; }

# equal WANT GOT [WHAT]
equal() { [ "$1" = "$2" ] || { echo "${3:-value}: want $1, got $2"; false; }; }

# tag ID FILE: the type text .kcfi_type gives ID.
tag() { sed -n "s/^[[:space:]]*\.kcfi_type $1, \"\(.*\)\"\$/\1/p" "$2"; }

# call_tags FILE: the types of the checked call sites, one per line.
call_tags() {
	for id in $(sed -n 's/^[[:space:]]*\.kcfi_call \([0-9]*\).*/\1/p' "$1"); do
		tag "$id" "$1"
	done
}

# func_id NAME FILE: the id of .kcfi_func NAME ("" if it has none).
func_id() { sed -n "s/^[[:space:]]*\.kcfi_func $1, \([0-9]*\)\$/\1/p" "$2"; }

# body NAME FILE: the lines of function NAME, label to .size.
body() { sed -n "/^$1:/,/^[[:space:]]*\.size[[:space:]]*$1,/p" "$2"; }

# body_count ERE NAME FILE: matching lines in function NAME.
body_count() { body "$2" "$3" | grep -cE -- "$1" || true; }
