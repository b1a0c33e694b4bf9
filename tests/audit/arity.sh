#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kcfi-audit on x86_64 code built with -fsanitize-kcfi-arity: the preambles
# whose movl goes to another register than %eax are well formed (exit 0,
# no finding), the summary adds their distribution by arity, --arity names
# each function's; code without the option keeps its output as it was.
. "$top_srcdir/tests/audit/lib.sh"
case ${NATIVE_TRIPLE:-} in
x86_64-*) ;;
*) skip "x86_64 code, not ${NATIVE_TRIPLE:-unknown}" ;;
esac
[ -f "${KCFI_PLUGIN:-}" ] || skip "the plugin is not built"
SRC=$top_srcdir/tests/e2e/arity.c

"$KCFI_GCC" -fsanitize=kcfi -fsanitize-kcfi-arity -O2 -c -o "$T/a.o" "$SRC" 2>/dev/null ||
	{ fail "kcfi-gcc -fsanitize-kcfi-arity on tests/e2e/arity.c"; finish; }
check "arity preambles: exit 0" audited "$T/a.o" 0
check "... 26 preambles, no finding" grep -q ', 26 preambles, 0 traps, 0 findings$' "$T/a.o.audit"
check "the summary gives them by arity" has_line "$T/a.o" \
	"$T/a.o: x86_64: preambles by arity: 0: 4, 1: 8, 2: 6, 3: 0, 4: 0, 5: 0, 6: 1, 7: 7"
"$AUDIT" --arity "$T/a.o" > "$T/a.o.audit" 2>&1
for fa in f0:0 f1:1 fs16:2 f6:6 fld:7 vstart:7 o2_unused:2; do
	check "--arity: <${fa%:*}> has arity ${fa#*:}" has_line "$T/a.o" "$T/a.o: <${fa%:*}>: arity ${fa#*:}"
done
# An alias shares its function's preamble; a movl to %ecx before code
# that no __cfi_ symbol marks is ordinary code, not a preamble.
printf '\t.text\n\t.type __cfi_g, @function\n__cfi_g:\n\tmovl $1234, %%ecx\n\t.size __cfi_g, 5\n\t.globl g\n\t.type g, @function\ng:\n\t.globl g_alias\n\t.type g_alias, @function\ng_alias:\n\tret\n\t.size g, 1\n\t.size g_alias, 1\n\tmovl $1234, %%ecx\n\t.globl h\n\t.type h, @function\nh:\n\tret\n\t.size h, 1\n\t.data\n\t.quad g_alias, h\n' >"$T/alias.s"
as -o "$T/alias.o" "$T/alias.s"
"$AUDIT" --arity "$T/alias.o" > "$T/alias.o.audit" 2>&1
check "an alias of a function with arity 1: its preamble, arity 1" has_line "$T/alias.o" "$T/alias.o: <g_alias>: arity 1"
check "a movl to %ecx no __cfi_ symbol marks: no preamble" sh -c \
	"grep -q '<h>: address taken (.*) but no KCFI preamble' '$T/alias.o.audit' && ! grep -q '<h>: arity' '$T/alias.o.audit'"
"$KCFI_GCC" -fsanitize=kcfi -O2 -c -o "$T/p.o" "$SRC" 2>/dev/null
check "without -fsanitize-kcfi-arity: no arity line" sh -c \
	". '$A/lib.sh'; audited '$T/p.o' 0 && ! grep -q 'by arity' '$T/p.o.audit'"
finish
