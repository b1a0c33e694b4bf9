#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# boot/objtool-layout.sh, which excuses an objtool "relocation to !ENDBR"
# warning on our kernel only when the relocation reads past the end of the
# object it names (where the linker put code decides whether objtool
# speaks).  The object has one instruction of each kind; the warnings are
# written the way objtool prints them.  Only the two out-of-bounds reads
# may be called layout: a reference inside a function -- what a misplaced
# preamble would give -- never is.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"
command -v objdump >/dev/null || skip "objdump not found"
case $(uname -m) in x86_64) ;; *) skip "needs an x86_64 assembler" ;; esac
gcc -c "$top_srcdir/tests/boot/objtool-layout.s" -o "$T/vmlinux.o" || { fail "assemble"; finish; }
w() { echo "vmlinux.o: warning: objtool: reader+$1: relocation to !ENDBR: $2"; }
{
	w 0x4 get_options+0x48		# small+0x10, small is 5 bytes long
	w 0xb other+0x5			# inside other
	w 0xb small+0x1			# inside other, blamed on another function
	w 0x12 other+0x8		# a section symbol says nothing of bounds
	w 0x19 other+0x9		# nosize has no size
	w 0x20 next+0x3			# small-8: before the object
	w 0x27 other+0x0		# no relocation on that instruction
	echo "vmlinux.o: warning: objtool: nowhere+0x4: relocation to !ENDBR: other+0x1"
	echo "vmlinux.o: warning: objtool: reader+0x4: unreachable instruction"
} > "$T/warnings"
bash "$top_srcdir/boot/objtool-layout.sh" "$T/vmlinux.o" < "$T/warnings" > "$T/judged"
rc=$?
cut -f1 "$T/judged" | tr '\n' ' ' > "$T/verdicts"
want="layout unexplained unexplained unexplained unexplained layout unexplained unexplained unexplained "
if [ "$(cat "$T/verdicts")" = "$want" ]; then
	pass "verdicts: $want"
else
	fail "verdicts: got '$(cat "$T/verdicts")', want '$want'"; sed 's/^/    /' "$T/judged"
fi
[ $rc -eq 1 ] && pass "exit 1 when some warning is unexplained" || fail "exit $rc with unexplained warnings"
grep -q 'small+0xc.*reads 16 bytes from small, which is 5 bytes long' "$T/judged" &&
	pass "the reason names the symbol, the read and the size" || fail "reason: $(head -1 "$T/judged")"
grep -q 'points into other itself' "$T/judged" && pass "a reference into the destination itself" ||
	fail "no 'points into other itself' in the reasons"
w 0x4 get_options+0x48 | bash "$top_srcdir/boot/objtool-layout.sh" "$T/vmlinux.o" > /dev/null &&
	pass "exit 0 when every warning is layout" || fail "exit non-zero on a layout-only input"
finish
