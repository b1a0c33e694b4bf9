# SPDX-License-Identifier: GPL-2.0-or-later
# The prototype language: what each declaration's type prints as.
. "$top_srcdir/tests/prepass/lib.sh"

expect() {
	s=$1 name=$2 want=$3
	id=$(sed -n "s/.*\.kcfi_extern $name, \([0-9]*\)\$/\1/p" "$s")
	[ -n "$id" ] || { echo "no .kcfi_extern for $name"; return 1; }
	equal "$want" "$(tag "$id" "$s")" "$name"
}

# types.c takes _Float16 where the compiler has it (x86: GCC 12 and later).
f16=
echo '_Float16 x;' | $CC -fsyntax-only -x c - 2>/dev/null && f16='_Float16, '

types() {
	s=$1
	compiled "$s" &&
	expect "$s" t_chars "void (char, signed char, unsigned char, char *, const char *)" &&
	expect "$s" t_ints "void (short, unsigned short, int, unsigned int, long, unsigned long, long long, unsigned long long, _Bool)" &&
	expect "$s" t_wide "void (__int128, unsigned __int128, unsigned long, unsigned long, int)" &&
	expect "$s" t_floats "void (float, double, long double, ${f16}_Float32, _Float64, _Float128, _Float32x, _Float64x)" &&
	expect "$s" t_decimal "void (_Decimal32, _Decimal64, _Decimal128)" &&
	expect "$s" t_complex "void (_Complex float, _Complex double, _Complex int)" &&
	expect "$s" t_tags "void (struct tagged *, union utagged *, enum etagged, struct tagged *)" &&
	expect "$s" t_anon "void (struct anon_s, struct anon_s *, union anon_u, enum anon_e, const struct anon_s *)" &&
	expect "$s" t_multi "void (struct multi_s *, struct multi_s *, struct multi_s *, struct ptrfirst_s *, struct ptrfirst_s *, union multi_u *, enum multi_e *, const enum multi_e *)" &&
	expect "$s" t_transparent "void (int *, const char *, union tu_sizes, int *, union tu_ptr *, void (*)(union tu_ptr))" &&
	expect "$s" returns_transparent "int *(int)" &&
	expect "$s" returns_qualified "int *const (void)" &&
	expect "$s" t_bare 'void (struct $_0 *, union $_1 *)' &&
	expect "$s" t_quals "void (const int *, volatile int *, const volatile int *, _Atomic int *, int *const *, char *restrict *, int *)" &&
	expect "$s" t_arrays "void (int (*)[10], int (*)[], int (*)[0], int **, int *)" &&
	expect "$s" t_funcs "void (void (*)(int), int (*(*)(int))(char), void (*)(void), int (*)(), int (*)(int), void (*)(const char *, ...))" &&
	expect "$s" t_vla "void (int, int (*)[*])" &&
	expect "$s" t_vector "void (__vector(4) float)" &&
	expect "$s" t_va "void (const char *, ...)" &&
	expect "$s" t_void "void (void)" &&
	expect "$s" t_unproto "void ()" &&
	expect "$s" returns_pointer "int *(int)" &&
	expect "$s" returns_fp "int (*(void))(int)"
}

for o in $OPT_LEVELS; do
	kcc "$T/t$o.s" "$SRC/types.c" $o -std=gnu17
	check "type names at $o" types "$T/t$o.s"
done

# Truly anonymous tags are numbered in the order first printed.
printf 'struct { int a; } *f (union { int b; } *, struct { int c; } *);\nvoid *p = f;\n' >"$T/anon.c"
kcc "$T/anon.s" "$T/anon.c" -O2
check "anonymous tags are numbered left to right" \
	equal 'struct $_0 *(union $_1 *, struct $_2 *)' "$(tag 1 "$T/anon.s")"

# Clang numbers anonymous tags as its mangler meets them: functions in the
# order first mentioned (here, the initializer's), a function's return
# type before its parameters.
cat >"$T/anon-order.c" <<'EOF'
typedef struct { int a; } const qa_t, *qa_p;
typedef const union { int b; } qb_t;
typedef volatile enum { QC_ZERO } qc_t;
extern qa_p (*m_ret (qb_t *)) (qc_t *);
extern void m_1 (qb_t *);
extern void m_2 (qa_p);
extern void m_3 (qc_t *, qa_p);
void *m_tbl[] = { m_ret, m_3, m_1, m_2 };
EOF
kcc "$T/anon-order.s" "$T/anon-order.c" -O2
anon_order() {
	expect "$1" m_ret 'const struct $_0 *(*(const union $_2 *))(volatile enum $_1 *)' &&
	expect "$1" m_3 'void (volatile enum $_1 *, const struct $_0 *)' &&
	expect "$1" m_1 'void (const union $_2 *)' &&
	expect "$1" m_2 'void (const struct $_0 *)'
}
check "anonymous tags are numbered as Clang mangles them" anon_order "$T/anon-order.s"

# A typedef that adds qualifiers to an anonymous tag does not name it
# (Clang's rule): the tag stays anonymous, under every name.
cat >"$T/qual-anon.c" <<'EOF'
typedef const struct { int a; } cs_t;
typedef volatile union { int b; } vu_t;
typedef struct { int c; } const sc_t, *sc_p;
typedef const enum { CE_ZERO } ce_t;
void f (cs_t *, vu_t *, sc_t *, sc_p, const ce_t *);
void *p = f;
EOF
kcc "$T/qual-anon.s" "$T/qual-anon.c" -O2
check "qualified typedefs leave anonymous tags anonymous" \
	equal 'void (const struct $_0 *, volatile union $_1 *, const struct $_2 *, const struct $_2 *, const enum $_3 *)' \
	"$(tag 1 "$T/qual-anon.s")"

# Clang 21 and earlier keep transparent unions as they are.
kcc "$T/tu-union.s" "$SRC/types.c" -O2 -fplugin-arg-kcfi-transparent-union=union
check "transparent-union=union: parameters" expect "$T/tu-union.s" t_transparent \
	"void (union tu_ptr, union tu_named, union tu_sizes, union tu_late, union tu_ptr *, void (*)(union tu_ptr))"
check "transparent-union=union: return types" expect "$T/tu-union.s" returns_transparent "union tu_ptr (int)"

# Calls through such a pointer expect the member's type too; so does a
# K&R definition's preamble.
cat >"$T/tu-calls.c" <<'EOF'
typedef union __attribute__ ((transparent_union)) { int *ip; long *lp; } tu_ptr;
void call (void (*fp) (tu_ptr), int *p) { fp (p); }
int kr (u) tu_ptr u; { return *u.ip; }
EOF
kcc "$T/tu-calls.s" "$T/tu-calls.c" -O2
check "a call through void (*)(tu_ptr) expects void (int *)" \
	equal "void (int *)" "$(call_tags "$T/tu-calls.s")"
check "a K&R definition with a transparent union parameter" \
	equal "int (int *)" "$(tag "$(func_id kr "$T/tu-calls.s")" "$T/tu-calls.s")"

# Clang returns the array a transparent union begins with, which the
# language cannot write: an error, not a guess.
printf 'typedef union __attribute__ ((transparent_union)) { long a[1]; long l; } tu_arr;\ntu_arr r (void);\nvoid *p = r;\n' >"$T/tu-arr.c"
check "returning a transparent union that begins with an array is an error" sh -c \
	"! $CC -fplugin='$KCFI_PLUGIN' -S -o '$T/tu-arr.s' '$T/tu-arr.c' 2>'$T/tu-arr.err' && grep -q 'error: kcfi: .*cannot be written' '$T/tu-arr.err'"
check "a bad transparent-union value is refused" sh -c \
	"! $CC -fplugin='$KCFI_PLUGIN' -fplugin-arg-kcfi-transparent-union=first -S -o /dev/null '$T/tu-calls.c' 2>'$T/tu-bad.err' && grep -q 'transparent-union=member|union' '$T/tu-bad.err'"

# -funsigned-char keeps char, signed char and unsigned char apart.
kcc "$T/uchar.s" "$SRC/types.c" -O2 -funsigned-char
check "char stays char under -funsigned-char" expect "$T/uchar.s" t_chars \
	"void (char, signed char, unsigned char, char *, const char *)"

# x86 named address spaces have a spelling (Clang's U5AS256, U5AS257).
printf 'void (*q) (int __seg_gs *, __seg_fs char *);\nvoid g (void) { q (0, 0); }\n' >"$T/seg.c"
kcc "$T/seg.s" "$T/seg.c" -O2
check "a call through __seg_gs/__seg_fs parameters" \
	equal "void (__seg_gs int *, __seg_fs char *)" "$(call_tags "$T/seg.s")"
finish
