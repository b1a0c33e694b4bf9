#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cfi_salt (Clang 22) and x86 named address spaces in the plugin's output:
# the types of definitions, address-taken declarations and checked calls
# (doc/directives.md 4), and Clang's diagnostics for a misused cfi_salt.
. "$top_srcdir/tests/prepass/lib.sh"

# extern_tag NAME FILE: the type .kcfi_extern NAME names.
extern_tag() { tag "$(sed -n "s/.*\.kcfi_extern $1, \([0-9]*\)\$/\1/p" "$2")" "$2"; }
salt() { printf ' __attribute__((cfi_salt(\\"%s\\")))' "$1"; }

types() {
	s=$1
	compiled "$s" &&
	equal "void (int)$(salt kvm)" "$(tag "$(func_id s_prefix "$s")" "$s")" s_prefix &&
	equal "void (int)$(salt kvm)" "$(tag "$(func_id s_postfix "$s")" "$s")" s_postfix &&
	equal "void (int)$(salt kvm)" "$(tag "$(func_id s_typedef "$s")" "$s")" s_typedef &&
	equal "void (int)" "$(extern_tag s_empty "$s")" "empty salt" &&
	equal 'void (void) __attribute__((cfi_salt(\"q\\\"b\\\\n\\012\\303\\251\")))' "$(extern_tag s_escapes "$s")" escapes &&
	equal "void (void (*)(int)$(salt kvm), void (*)(int), void (*)(int)$(salt kvm), void (*)(int))" \
		"$(extern_tag s_params "$s")" "salted parameters" &&
	equal "void (*(void)$(salt outer))(int)" "$(extern_tag s_returns "$s")" "salted function returning a pointer" &&
	equal "void (int, ...)$(salt v)" "$(extern_tag s_variadic "$s")" variadic &&
	equal "void (const __seg_gs int *, __seg_fs char *, int *__seg_gs *, __seg_gs long (*)[2])" \
		"$(extern_tag s_gs "$s")" "address spaces" &&
	equal "$(printf '%s\n' "void (int)$(salt kvm)" "void (int)$(salt kvm)" "void (int)$(salt ops)" \
		"void (int)" "void (int)")" "$(call_tags "$s")" "calls"
}

for o in $OPT_LEVELS; do
	kcc "$T/s$o.s" "$SRC/salt-types.c" $o -std=gnu17
	check "salted and address-space types at $o" types "$T/s$o.s"
done

# Misuse: Clang 22's wording, error or warning as Clang has it (checked
# against clang-22 -fsanitize=kcfi); GCC's location, GCC's option name.
cat > "$T/misuse.c" <<'EOF2'
void a1(void) __attribute__((cfi_salt));
void a2(void) __attribute__((cfi_salt()));
void a3(void) __attribute__((cfi_salt(1)));
void a4(void) __attribute__((cfi_salt("a", "b")));
int v5 __attribute__((cfi_salt("x")));
struct s6 { int x; } __attribute__((cfi_salt("x")));
void a7(int p __attribute__((cfi_salt("x"))));
int *p8 __attribute__((cfi_salt("x")));
typedef void (**pp9)(void) __attribute__((cfi_salt("x")));
void (*arr10[2])(void) __attribute__((cfi_salt("x")));
void a11() __attribute__((cfi_salt("x")));
void a12(void) __attribute__((cfi_salt(L"x")));
void a13(void) __attribute__((cfi_salt("a\0b")));
int (*p14)[3] __attribute__((cfi_salt("x")));
enum __attribute__((cfi_salt("x"))) e15 { E15 };
EOF2
kcc "$T/misuse.s" "$T/misuse.c" -std=gnu17
diag() { check "misuse line $1: $2" grep -qF "misuse.c:$1:" "$T/misuse.s.err" &&
	 check "misuse line $1 wording" sh -c "grep -F 'misuse.c:$1:' '$T/misuse.s.err' | grep -qF \"$2\""; }
diag 1 "error: 'cfi_salt' attribute takes one argument"
diag 2 "error: 'cfi_salt' attribute takes one argument"
diag 3 "error: expected string literal as argument of 'cfi_salt' attribute"
diag 4 "error: 'cfi_salt' attribute takes one argument"
diag 5 "warning: 'cfi_salt' only applies to function types; type here is 'int'"
diag 6 "error: 'cfi_salt' attribute only applies to functions and function pointers"
diag 7 "warning: 'cfi_salt' only applies to function types; type here is 'int'"
diag 8 "warning: 'cfi_salt' only applies to function types; type here is 'int *'"
diag 9 "error: 'cfi_salt' attribute only applies to functions and function pointers"
diag 10 "error: 'cfi_salt' attribute only applies to functions and function pointers"
diag 11 "error: 'cfi_salt' attribute only applies to non-K&R-style functions"
diag 12 "warning: encoding prefix 'L' on an unevaluated string literal has no effect"
diag 13 "error: invalid escape sequence '\\\\0' in an unevaluated string literal"
diag 14 "warning: 'cfi_salt' only applies to function types; type here is 'int (*)[3]'"
diag 15 "error: 'cfi_salt' attribute only applies to functions and function pointers"
check "no 'attribute directive ignored'" sh -c "! grep -q 'directive ignored' '$T/misuse.s.err'"

# The salt is part of the type (Clang: "conflicting types"); one declaration
# with two different salts is refused (Clang takes the later in source
# order, GCC applies the attributes in another order).
cat > "$T/conflict.c" <<'EOF2'
void c1(void) __attribute__((cfi_salt("x")));
void c1(void) __attribute__((cfi_salt("y")));
void c2(void) __attribute__((cfi_salt("x")));
void c2(void) {}
void c3(void);
void c3(void) __attribute__((cfi_salt("x")));
void __attribute__((cfi_salt("x"))) c4(void) __attribute__((cfi_salt("y")));
void c5(void) __attribute__((cfi_salt("x")));
void c5(void) __attribute__((cfi_salt("x")));
typedef void (*c6_t)(void) __attribute__((cfi_salt("x")));
void c6_plain(void);
c6_t c6 = c6_plain;
EOF2
kcc "$T/conflict.s" "$T/conflict.c" -std=gnu17
for l in 2 4 6; do
	check "conflicting salts, line $l" grep -q "conflict.c:$l:[0-9]*: error: conflicting types for" "$T/conflict.s.err"
done
check "two salts on one declaration" grep -qF "conflict.c:7:1: error: conflicting 'cfi_salt' attributes on one declaration: 'y' and 'x'" "$T/conflict.s.err"
check "the same salt twice is one type" sh -c "! grep -q 'conflict.c:9:' '$T/conflict.s.err'"
check "an unsalted function for a salted pointer" grep -q "conflict.c:12:[0-9]*: warning: initialization of 'c6_t' .* from incompatible pointer type" "$T/conflict.s.err"
# cfi_salt is known to the preprocessor as well (the kernel's __cfi_salt is
# defined only where __has_attribute(cfi_salt) holds).
printf '#if __has_attribute(cfi_salt)\nint salt_known;\n#endif\n' > "$T/has.c"
kcc "$T/has.s" "$T/has.c"
check "__has_attribute(cfi_salt)" grep -q '^salt_known:' "$T/has.s"
finish
