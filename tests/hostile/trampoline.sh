#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GCC's nested-function trampoline template: aarch64 prints it as text
# (".LTRAMP0: ... br x17") that the plugin cannot annotate.  kcfi-as lets
# that one block pass and nothing around it; the trampoline itself has no
# type id, so the plugin refuses taking a nested function's address unless
# the function doing it is no_sanitize("kcfi").
. "$top_srcdir/tests/hostile/lib.sh"
A='	.kcfi_version 1, "aarch64-linux-gnu", ptr=64, long=64, char=unsigned, prefix=0'
tramp='	.align	3
.LTRAMP0:
	hint	34 // bti c
	ldr	x17, .+20
	ldr	x18, .+24
	br	x17
	dsb	sy
	isb
	.xword	0
	.xword	0'

printf '%s\n%s\n' "$A" "$tramp" >"$T/template.s"
"$KCFI_AS" --kcfi-no-assemble --kcfi-stats "$T/template.s" >"$T/template.err" 2>&1
rc=$?
if sane template $rc; then
	[ $rc -eq 0 ] && grep -q ' trampoline=1 ' "$T/template.err" &&
		pass "template: accepted and counted" || fail "template: rc=$rc $(cat "$T/template.err")"
fi
# The same branch anywhere else is an unannotated indirect jump.
printf '%s\n%s\n.L5:\n\tbr\tx17\n' "$A" "$tramp" >"$T/after-label.s"
expect_error after-label 13 'without a kcfi annotation'
printf '%s\n%s\n\t.text\n\tbr\tx17\n' "$A" "$tramp" >"$T/after-section.s"
expect_error after-section 13 'without a kcfi annotation'
printf '%s\n.LTRAMPOLINE:\n\tbr\tx17\n' "$A" >"$T/other-name.s"
expect_error other-name 3 'without a kcfi annotation'

# A real nested function, through aarch64-linux-gnu-kcfi-gcc and qemu.
# Taking its address is refused by the plugin (the trampoline has no type
# id); where the author opts out with no_sanitize("kcfi") and the call is
# unchecked, the template goes through kcfi-as and the program runs.
KGCC=$top_builddir/aarch64-linux-gnu-kcfi-gcc
if [ -x "$KGCC" ] && [ -f "$top_builddir/prepass/plugins/aarch64-linux-gnu/kcfi.so" ] &&
   command -v qemu-aarch64 >/dev/null; then
	cat >"$T/nested.c" <<'C'
#ifdef OPT_OUT
#define UNCHECKED __attribute__((no_sanitize("kcfi")))
#else
#define UNCHECKED
#endif
UNCHECKED int apply(int (*f)(int), int x) { return f(x); }
UNCHECKED int main(void)
{
	int k = 3;
	int add(int x) { return x + k; }
	return apply(add, 4) == 7 ? 0 : 1;
}
C
	# (KCFI_PLUGIN names the native plugin: the wrapper must pick its own.)
	if env -u KCFI_PLUGIN "$KGCC" -fsanitize=kcfi -O0 -o "$T/nested" "$T/nested.c" 2>"$T/nested.err"; then
		fail "nested: built, want the nested-function error"
	elif grep -q "nested.c:11:[0-9]*: error: taking the address of nested function 'add'" "$T/nested.err"; then
		pass "nested: taking the address is refused"
	else
		fail "nested: $(head -3 "$T/nested.err")"
	fi
	if env -u KCFI_PLUGIN "$KGCC" -fsanitize=kcfi -O0 -DOPT_OUT -o "$T/nested" "$T/nested.c" 2>"$T/nested.err"; then
		qemu-aarch64 -L /usr/aarch64-linux-gnu "$T/nested" 2>/dev/null
		rc=$?
		[ $rc -eq 0 ] && pass "nested, opted out: builds, the unchecked call through the trampoline runs" ||
			fail "nested, opted out: exit status $rc, want 0"
	else
		fail "nested, opted out: $(head -3 "$T/nested.err")"
	fi
else
	echo "SKIP: nested (no aarch64 kcfi-gcc, plugin or qemu-aarch64)"
fi
finish
