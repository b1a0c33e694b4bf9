#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -fsanitize-kcfi-arity on x86_64 (doc/abi.md 1, "Arity"): each preamble's
# movl names the register of its arity, at every level (arity.c: every
# psABI way of passing arguments); at -O0 the preambles are clang-22's,
# byte for byte, and at -O2 each kind of difference is the documented one
# (Clang counts live registers only), and under -flto; the kernel's probe
# $(cc-option,-fsanitize=kcfi -fsanitize-kcfi-arity) passes; 32-bit x86
# and arm are refused as Clang refuses them, aarch64 and riscv64 accept the
# option and emit what they would without it.
. "$top_srcdir/tests/e2e/lib.sh"
A="-fsanitize-kcfi-arity"

# regs OBJ: "NAME REG" of every preamble's movl.
regs() {
	"$OBJDUMP" -d "$1" | awk '/^[0-9a-f]+ <__cfi_/ { n = $2; sub(/^<__cfi_/, "", n); sub(/>:$/, "", n); next }
		n != "" && /\tmov +\$0x[0-9a-f]+,%e/ { r = $NF; sub(/.*%/, "", r); print n, r; n = "" }' | sort
}
want='f0 eax
f1 ecx
f2 edx
f6 esi
f7 edi
fd eax
ff_i ecx
fld edi
fi128 edx
fi128_last edi
fcd eax
fci ecx
fcl edi
fs8 ecx
fs16 edx
fs24 edi
fsf eax
fsmix ecx
fempty ecx
ftu ecx
sret edx
vnamed ecx
vstart edi
ms edi
o2_unused edx
o2_second edx'
printf '%s\n' "$want" | sort > "$T/want"
for o in $OPT_LEVELS; do
	if kgcc $A $o -c -o "$T/a$o.o" "$E2E/arity.c"; then
		regs "$T/a$o.o" > "$T/a$o.regs"
		check "each preamble names its arity at $o" diff -u "$T/want" "$T/a$o.regs"
	else
		fail "arity.c builds at $o"
	fi
done
# -flto: lto1 counts, from what cc1 noted (va_start) and its own expand.
if kgcc $A -O2 -flto -fPIC -c -o "$T/lto.o" "$E2E/arity.c" &&
	kgcc $A -O2 -flto -fPIC -shared -o "$T/lto.so" "$T/lto.o"; then
	regs "$T/lto.so" | grep -E '^(f2|fld|sret|vnamed|vstart|o2_second) ' > "$T/lto.regs"
	check "-flto: the same arities" sh -c "grep -E '^(f2|fld|sret|vnamed|vstart|o2_second) ' '$T/want' | diff -u - '$T/lto.regs'"
	# The choice is the compile line's, kept in the IR as Clang keeps it in
	# a module flag: a link line without the option, or without KCFI at
	# all, gives the same preambles; a unit compiled without it keeps %eax
	# in the same program.
	printf 'int two_plain(int a, int b) { return a + b; }\nint (*volatile two_plain_p)(int, int) = two_plain;\n' > "$T/two.c"
	kgcc -O2 -flto -fPIC -c -o "$T/two.o" "$T/two.c"
	for link in kcfi follow; do
		case $link in
		kcfi) kgcc -O2 -flto -fPIC -shared -o "$T/lto-$link.so" "$T/lto.o" "$T/two.o" ;;
		follow) "$KCFI_GCC" -O2 -flto -fPIC -shared -o "$T/lto-$link.so" "$T/lto.o" "$T/two.o" ;;
		esac || { fail "-flto, linked without $A ($link)"; continue; }
		regs "$T/lto-$link.so" | grep -E '^(f2|fld|sret|vnamed|vstart|o2_second|two_plain) ' > "$T/lto-$link.regs"
		check "-flto, compiled with $A, linked without it ($link): the same arities, %eax for the unit compiled without" \
			sh -c "{ grep -E '^(f2|fld|sret|vnamed|vstart|o2_second) ' '$T/want'; echo 'two_plain eax'; } | sort | diff -u - '$T/lto-$link.regs'"
	done
else
	fail "arity.c links with -flto"
fi
kgcc -O2 -c -o "$T/plain.o" "$E2E/arity.c" &&
	check "without the option: %eax everywhere" sh -c "! grep -v ' eax\$' '$T/plain.o.regs' 2>/dev/null &&
		[ -z \"\$(\"$OBJDUMP\" -d '$T/plain.o' | grep -E 'mov +\\\$0x[0-9a-f]+,%e(cx|dx|bx|sp|bp|si|di)\$')\" ]"

if command -v clang-22 >/dev/null 2>&1; then
	# -O0: the bytes from __cfi_f to f (clang pads functions to 16).
	pre() {
		"$OBJDUMP" -d "$1" | awk '/^[0-9a-f]+ <__cfi_/ { n = $2; b = ""; next }
			/^[0-9a-f]+ </ { if (n != "") print n, b; n = ""; next }
			n != "" && /^ +[0-9a-f]+:\t/ { split($0, f, "\t"); x = f[2]; gsub(/ /, "", x); b = b x }' | sort
	}
	clang-22 -O0 -fsanitize=kcfi $A -Xclang -fsanitize-kcfi-hash=FNV-1a -c -o "$T/c0.o" "$E2E/arity.c" &&
		kgcc -O0 $A -falign-functions=16 -c -o "$T/g0.o" "$E2E/arity.c" &&
		pre "$T/c0.o" > "$T/c0.pre" && pre "$T/g0.o" > "$T/g0.pre" &&
		check "-O0: 26 preambles, byte-identical to clang-22's" sh -c \
			"[ \$(wc -l < '$T/c0.pre') -eq 26 ] && diff -u '$T/c0.pre' '$T/g0.pre'"
	# -O2: Clang counts the registers live at entry; its values for the
	# kinds doc/abi.md lists, and ours.
	clang-22 -O2 -fsanitize=kcfi $A -c -o "$T/c2.o" "$E2E/arity.c" && regs "$T/c2.o" > "$T/c2.regs"
	kind() {	# NAME CLANG OURS
		grep -qx "$1 $2" "$T/c2.regs" && grep -qx "$1 $3" "$T/a-O2.regs" ||
			{ echo "$1: clang $(grep "^$1 " "$T/c2.regs"), ours $(grep "^$1 " "$T/a-O2.regs")"; false; }
	}
	check "-O2, unused parameters: Clang 0 (eax), ours 2 (edx)" kind o2_unused eax edx
	check "-O2, only the second used: Clang 1 (ecx, so %rdi), ours 2 (edx)" kind o2_second ecx edx
	check "-O2, va_start reading ints only: Clang 6 (esi), ours 7 (edi)" kind vstart esi edi
	check "-O2, everything used: the same" sh -c "join '$T/c2.regs' '$T/a-O2.regs' |
		awk '\$1 !~ /^(o2_|vstart)/ && \$2 != \$3 { print; bad = 1 } END { exit bad }'"
fi

# The kernel's probe, with its -Werror.
check "the kernel's probe passes" "$KCFI_GCC" -Werror -fsanitize=kcfi $A -c -x c /dev/null -o "$T/probe.o"
check "-m32: refused, naming the option and the target" sh -c \
	"! '$KCFI_GCC' -m32 -fsanitize=kcfi $A -c -x c /dev/null -o '$T/m32.o' 2>'$T/m32.err' &&
	 grep -q \"error: target 'x86_64-linux-gnu' with -m32 is unsupported by -fsanitize-kcfi-arity\" '$T/m32.err'"
check "-m32 without -fsanitize=kcfi: no error, as with Clang" \
	"$KCFI_GCC" -m32 $A -fsyntax-only -x c /dev/null
for t in arm-linux-gnueabihf i686-linux-gnu; do
	[ -x "$top_builddir/$t-kcfi-gcc" ] || continue
	check "$t: refused" sh -c "! env -u KCFI_PLUGIN '$top_builddir/$t-kcfi-gcc' -fsanitize=kcfi $A -c -x c /dev/null \
		-o '$T/x.o' 2>'$T/x.err' && grep -q \"error: target '$t' is unsupported by -fsanitize-kcfi-arity\" '$T/x.err'"
done
for t in aarch64-linux-gnu riscv64-linux-gnu; do
	[ -x "$top_builddir/$t-kcfi-gcc" ] || continue
	env -u KCFI_PLUGIN "$top_builddir/$t-kcfi-gcc" -fsanitize=kcfi -O2 -S -o "$T/$t.s" "$E2E/arity.c" &&
		env -u KCFI_PLUGIN "$top_builddir/$t-kcfi-gcc" -fsanitize=kcfi $A -O2 -S -o "$T/$t-a.s" "$E2E/arity.c" &&
		check "$t: accepted, the same code as without it" cmp "$T/$t.s" "$T/$t-a.s" ||
		fail "$t: kcfi-gcc $A"
done
finish
