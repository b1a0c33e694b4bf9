#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-as's records sit in a debug section of every object (common/exempt.h).
# The tools that walk a program's debug sections must treat a KCFI program
# as they treat the same program from plain gcc: readelf -w and objdump
# --dwarf exit 0, dwz (which debhelper runs on every package) compresses it,
# eu-readelf reads it as plain gcc's, gdb finds its lines, addr2line and ld's messages say
# what they say for plain gcc's object, and strip and objcopy's split debug
# file carry the records as debug information.  binutils' ld suite found
# the first of these (readelf -w of a linked test program, exit 1).
. "$top_srcdir/tests/e2e/lib.sh"

echo 'int missing(int x) { return x; }' >"$T/m.c"
cat >"$T/p.c" <<'END'
extern int missing(int);
int (*volatile hook)(int);
static int twice(int x) { return 2 * x; }
int call_missing(int x) { return missing(x); }
int main(void) { hook = twice; return hook(3) - 6; }
END

for g in -g ""; do
	n=p${g:-0}
	if ! kgcc -O2 $g -o "$T/$n" "$T/p.c" "$T/m.c"; then
		fail "$n: builds"
		continue
	fi
	gcc -O2 $g -o "$T/$n-plain" "$T/p.c" "$T/m.c"
	check "$n: runs" "$T/$n"
	check "$n: the records are in a linked section" sh -c \
		"$READELF -SW '$T/$n' | grep -q ' \\.debug '"
	check "$n: readelf -w exits 0 and knows every section" sh -c \
		"$READELF -w '$T/$n' >'$T/$n.w' && ! grep -q 'Unrecognized' '$T/$n.w'"
	check "$n: objdump --dwarf exits 0" sh -c "$OBJDUMP --dwarf '$T/$n' >/dev/null"
	check "$n: eu-readelf -w exits as for plain gcc's program" equal \
		"$(eu-readelf -w "$T/$n-plain" >/dev/null 2>&1; echo $?)" \
		"$(eu-readelf -w "$T/$n" >/dev/null 2>&1; echo $?)" status
	a=$($OBJDUMP -d "$T/$n" | awk '/<main>:$/ { print $1; exit }')
	check "$n: addr2line says for main what it says for plain gcc's" equal \
		"$(addr2line -f -e "$T/$n-plain" 0x$($OBJDUMP -d "$T/$n-plain" | awk '/<main>:$/ { print $1; exit }') | sed 's/:.*//')" \
		"$(addr2line -f -e "$T/$n" 0x$a | sed 's/:.*//')" addr2line
done

# dwz rewrites the DWARF of -g programs (dh_dwz) and refuses a debug
# section it does not know.
cp "$T/p-g" "$T/dwz"
check "dwz: accepts the program" dwz "$T/dwz"
summary() { "$top_builddir/kcfi-audit" "$1" | tail -1 | sed 's/^[^:]*: //'; }
check "dwz: kcfi-audit reads the same records as before" sh -c \
	"[ \"\$1\" = \"\$2\" ] && echo \"\$1\" | grep -q ' 4 instrumented functions'" - \
	"$(summary "$T/p-g")" "$(summary "$T/dwz")"
check "gdb: finds main's line" sh -c \
	"gdb -batch -nx -ex 'info line main' '$T/p-g' 2>&1 | grep -q 'Line 5 of .*p.c'"

# ld's messages about an object without DWARF 2 fall back on BFD's DWARF 1
# reader, which would read the records as DWARF 1: the same message as for
# plain gcc's object.
ld_msg() {
	"$@" -O2 -o "$T/u" "$T/p.c" 2>&1 | grep 'undefined reference' |
		sed -e 's/^[^:]*: //' -e 's/+0x[0-9a-f]*)/)/'
}
want=$(ld_msg gcc)
check "ld: an undefined reference is reported as for plain gcc ($want)" sh -c \
	"[ -n \"\$1\" ] && [ \"\$1\" = \"\$2\" ]" - "$want" "$(ld_msg "$KCFI_GCC" -fsanitize=kcfi)"

# The records are debug information: strip takes them, a split debug file
# keeps them.
strip --strip-debug -o "$T/stripped" "$T/p-g"
check "strip --strip-debug: the records go with the DWARF" sh -c \
	"! $READELF -SW '$T/stripped' | grep -q ' \\.debug '"
objcopy --only-keep-debug "$T/p-g" "$T/p.dbg"
check "objcopy --only-keep-debug: the debug file keeps them" sh -c \
	"$READELF -SW '$T/p.dbg' | grep -q ' \\.debug  *PROGBITS'"
finish
