/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of libtypeids: prototype text -> mangled name -> id.
 *
 *   unit [--speed]
 *
 * The tables hold the encodings Clang produces (checked against clang-19 and
 * clang-22; most of the function types are also in clang-cases.txt, which
 * clang-diff.sh compares id by id), the facts GCC's KCFI series tests for
 * (builtin-typeinfo*.c) that the prototype language can express, the hash
 * vectors (doc/abi.md 5), and the errors the parser must report.
 * --speed adds the speed figures bench/typeids.sh reports (never part of
 * `make check`: timings on a shared machine are not test results).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "typeids/typeid.h"

static int failures, checks;

#define FAIL(...) do { failures++; printf("FAIL: " __VA_ARGS__); putchar('\n'); } while (0)

static const struct kcfi_typeid_opts lp64 = {
	.hash = KCFI_HASH_FNV1A,
	.model = { .ptr_bits = 64, .long_bits = 64, .char_signed = true },
};

enum api { TYPE, FUNCTION, CALLEE };

static int run(enum api api, const char *text, size_t len, const struct kcfi_typeid_opts *o,
	       struct kcfi_typeid *r, struct kcfi_type_error *e)
{
	switch (api) {
	case TYPE:	return kcfi_typeid_of_type(text, len, o, r, e);
	case FUNCTION:	return kcfi_typeid_of_function(text, len, o, r, e);
	default:	return kcfi_typeid_of_callee(text, len, o, r, e);
	}
}

/* TEXT must mangle to "_ZTS" ENCODING (+ ".normalized" under O), and its id
 * must be the hash of exactly that string. */
static void expect(enum api api, const char *text, const char *encoding,
		   const struct kcfi_typeid_opts *o)
{
	char want[512];
	snprintf(want, sizeof(want), "_ZTS%s%s", encoding, o->normalize_integers ? ".normalized" : "");
	struct kcfi_typeid r;
	struct kcfi_type_error e;
	checks++;
	if (run(api, text, strlen(text), o, &r, &e)) {
		FAIL("'%s': error at column %u: %s (expected %s)", text, e.column, e.message, want);
		return;
	}
	if (strcmp(r.mangled, want))
		FAIL("'%s': got %s, expected %s", text, r.mangled, want);
	else if (r.id != kcfi_hash_bytes(o->hash, want, strlen(want)))
		FAIL("'%s': id 0x%08x is not the hash of %s", text, (unsigned)r.id, want);
	kcfi_typeid_release(&r);
}

struct mangling {
	const char *text;
	const char *encoding;	/* after "_ZTS" */
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- type names (kcfi_typeid_of_type) ---- */

static const struct mangling type_names[] = {
	/* a salt is hashed only on the function type itself */
	{ "void (*)(void) __attribute__((cfi_salt(\"kvm\")))", "PFvvE" },
	{ "__seg_gs int *", "PU5AS256i" },
	{ "int *__seg_fs", "U5AS257Pi" },
	/* builtins */
	{ "void", "v" }, { "_Bool", "b" }, { "bool", "b" }, { "char", "c" },
	{ "signed char", "a" }, { "unsigned char", "h" }, { "short", "s" },
	{ "unsigned short", "t" }, { "int", "i" }, { "unsigned", "j" }, { "long", "l" },
	{ "unsigned long", "m" }, { "long long", "x" }, { "unsigned long long", "y" },
	{ "__int128", "n" }, { "unsigned __int128", "o" }, { "float", "f" }, { "double", "d" },
	{ "long double", "e" }, { "__float128", "g" }, { "_Float16", "DF16_" }, { "__bf16", "DF16b" },
	{ "_Float32", "DF32_" }, { "_Float64", "DF64_" }, { "_Float128", "DF128_" },
	{ "_Float32x", "DF32x" }, { "_Float64x", "DF64x" },
	{ "_Decimal32", "Df" }, { "_Decimal64", "Dd" }, { "_Decimal128", "De" },
	{ "nullptr_t", "Dn" }, { "nullptr_t *", "PDn" },
	/* qualifiers, pointers, arrays */
	{ "const int", "Ki" }, { "volatile int", "Vi" }, { "char *", "Pc" }, { "int*", "Pi" },
	{ "void *", "Pv" }, { "const char *", "PKc" }, { "int[10]", "A10_i" }, { "char [20]", "A20_c" },
	{ "short []", "A_s" }, { "const int [3]", "A3_Ki" }, { "int [0x10][010]", "A16_A8_i" },
	{ "int *const volatile restrict *", "PrVKPi" }, { "int *const", "KPi" },
	{ "const _Atomic int", "KU7_Atomici" }, { "_Atomic(int *)", "U7_AtomicPi" },
	{ "int *_Atomic", "U7_AtomicPi" },
	/* complex and _BitInt */
	{ "_Complex float", "Cf" }, { "_Complex double", "Cd" }, { "_Complex long double", "Ce" },
	{ "_Complex int", "Ci" }, { "_Complex float *", "PCf" }, { "__complex__ double", "Cd" },
	{ "_BitInt(2)", "DB2_" }, { "_BitInt(7)", "DB7_" }, { "_BitInt(17)", "DB17_" },
	{ "_BitInt(32)", "DB32_" }, { "_BitInt(64)", "DB64_" }, { "signed _BitInt(17)", "DB17_" },
	{ "unsigned _BitInt(1)", "DU1_" }, { "unsigned _BitInt(7)", "DU7_" },
	{ "unsigned _BitInt(32)", "DU32_" }, { "unsigned _BitInt(64)", "DU64_" },
	{ "const _BitInt(32)", "KDB32_" }, { "volatile _BitInt(32)", "VDB32_" },
	{ "_BitInt(32) *", "PDB32_" }, { "unsigned _BitInt(7) *", "PDU7_" },
	/* vectors */
	{ "__vector(4) int", "Dv4_i" }, { "__vector(2) double *", "PDv2_d" },
	{ "const __vector(16) unsigned char", "KDv16_h" },
	/* tags, including typedef'd and truly anonymous ones */
	{ "struct test_struct_a", "13test_struct_a" }, { "union test_union_a", "12test_union_a" },
	{ "enum test_enum_a", "11test_enum_a" }, { "struct tasklet", "7tasklet" },
	{ "struct vla_member", "10vla_member" }, { "struct typedef_struct_x", "16typedef_struct_x" },
	{ "union typedef_union_x", "15typedef_union_x" }, { "enum typedef_enum_x", "14typedef_enum_x" },
	{ "struct $_0", "3$_0" }, { "union $_1", "3$_1" }, { "enum $_2", "3$_2" },
	/* function types and pointers to them */
	{ "void (*)(int, char)", "PFvicE" }, { "int (*)(void)", "PFivE" }, { "void (int)", "FviE" },
	{ "void (*)(int)", "PFviE" }, { "int (*)()", "PFiE" },
	{ "int (*(*)(int))(char)", "PFPFicEiE" },
	/* VLA objects (typeof of one), each VLA its own type */
	{ "int [*]", "A_i" }, { "int [*][*]", "A_A_i" }, { "int (*(void))[*]", "FPA_ivE" },
	/* fixed point: vendor types named after the spelling, substitutable */
	{ "_Fract", "u6_Fract" }, { "unsigned _Fract", "u15_unsigned_Fract" },
	{ "_Sat _Fract", "u10_Sat_Fract" }, { "long _Fract", "u11_long_Fract" },
	{ "_Accum", "u6_Accum" }, { "_Sat _Accum", "u10_Sat_Accum" },
	{ "short _Accum", "u12_short_Accum" }, { "_Sat unsigned long long _Accum", "u29_Sat_unsigned_long_long_Accum" },
	{ "signed short _Fract", "u12_short_Fract" }, { "long _Sat unsigned _Accum", "u24_Sat_unsigned_long_Accum" },
	{ "void (_Fract, _Fract, long _Accum *, long _Accum)", "Fvu6_FractS_Pu11_long_AccumS0_E" },
	/* calling conventions Clang encodes */
	{ "void (int) __attribute__((ms_abi))", "U6ms_abiFviE" },
	{ "void (*)(int) __attribute__ ( ( __ms_abi__ ) )", "PU6ms_abiFviE" },
	{ "void (int) __attribute__((sysv_abi))", "FviE" },
	{ "void (void (*)(void) __attribute__((ms_abi)), void (*)(void) __attribute__((ms_abi)))",
	  "FvPU6ms_abiFvvES0_E" },
	{ "int () __attribute__((ms_abi))", "FiE" },	/* as Clang: no-proto types carry no CC */
};

/* ---- function types (kcfi_typeid_of_function) ---- */

static const struct mangling functions[] = {
	/* one builtin parameter or return value */
	{ "void (void)", "FvvE" }, { "void (char)", "FvcE" }, { "void (short)", "FvsE" },
	{ "void (int)", "FviE" }, { "void (long)", "FvlE" }, { "void (unsigned char x)", "FvhE" },
	{ "void (unsigned short)", "FvtE" }, { "void (unsigned int)", "FvjE" },
	{ "void (signed char)", "FvaE" }, { "void (signed short)", "FvsE" },
	{ "void (signed int)", "FviE" }, { "void (_Bool)", "FvbE" }, { "_Bool (void)", "FbvE" },
	{ "void (float)", "FvfE" }, { "float (void)", "FfvE" }, { "double (void)", "FdvE" },
	{ "int (void)", "FivE" }, { "char (void)", "FcvE" }, { "void *(void)", "FPvvE" },
	{ "void (_Complex double)", "FvCdE" }, { "_Complex float (void)", "FCfvE" },
	{ "void (_BitInt(32))", "FvDB32_E" }, { "void (unsigned _BitInt(64))", "FvDU64_E" },
	{ "_BitInt(64) (void)", "FDB64_vE" },
	{ "void (int, _BitInt(32), unsigned _BitInt(7))", "FviDB32_DU7_E" },
	{ "void (nullptr_t)", "FvDnE" },
	/* pointers and qualifiers */
	{ "void (void *)", "FvPvE" }, { "void (char *)", "FvPcE" }, { "void (short *)", "FvPsE" },
	{ "void (int *)", "FvPiE" }, { "void (long *)", "FvPlE" }, { "void (double *)", "FvPdE" },
	{ "void (float *)", "FvPfE" }, { "void (const void *)", "FvPKvE" },
	{ "void (const char *)", "FvPKcE" }, { "void (const short *)", "FvPKsE" },
	{ "void (const int *)", "FvPKiE" }, { "void (const long *)", "FvPKlE" },
	{ "void (int **)", "FvPPiE" }, { "void (char **)", "FvPPcE" }, { "void (void **)", "FvPPvE" },
	{ "void (_Bool *)", "FvPbE" }, { "void (const _Bool *)", "FvPKbE" },
	{ "void (int *, int)", "FvPiiE" }, { "void (int, int *)", "FviPiE" },
	{ "void (int *restrict *)", "FvPrPiE" }, { "void (int *const volatile restrict *)", "FvPrVKPiE" },
	{ "void (const volatile int *)", "FvPVKiE" }, { "void (volatile const int *)", "FvPVKiE" },
	{ "void (void (*)(int *restrict))", "FvPFvPiEE" },
	{ "void (int *restrict *(*)(void))", "FvPFPrPivEE" },
	{ "void (int *__restrict *, int *__restrict__ *)", "FvPrPiS1_E" },
	{ "void (__const int *, __const__ int *, __volatile__ int *)", "FvPKiS0_PViE" },
	/* top-level parameter qualifiers are not part of the type; return
	 * type qualifiers are (as Clang keeps them) */
	{ "void (const int)", "FviE" }, { "void (int *const)", "FvPiE" },
	{ "void (int *restrict)", "FvPiE" }, { "void (int *volatile)", "FvPiE" },
	{ "void (const int *const)", "FvPKiE" }, { "void (struct qual_s *const)", "FvP6qual_sE" },
	{ "void (int [const])", "FvPiE" }, { "void (int x[const])", "FvPiE" },
	{ "const int (void)", "FKivE" }, { "const void (void)", "FKvvE" },
	{ "const int (const int *, const int)", "FKiPS_iE" },
	{ "const volatile int *(volatile const int *restrict)", "FPVKiS0_E" },
	/* parameter lists */
	{ "void (int, char)", "FvicE" }, { "void (char, int)", "FvciE" }, { "void (int, int)", "FviiE" },
	{ "void (const char *, ...)", "FvPKczE" }, { "void (int, const char *, ...)", "FviPKczE" },
	{ "void (int, char, const char *, ...)", "FvicPKczE" },
	{ "void (struct audit_context *ctx, unsigned int gfp_mask, int type, const char *fmt, ...)",
	  "FvP13audit_contextjiPKczE" },
	{ "void (int x, const char *fmt)", "FviPKcE" }, { "void (...)", "FvzE" },
	{ "int ()", "FiE" }, { "void (int (*)())", "FvPFiEE" },
	/* tags */
	{ "void (struct test_struct_a *)", "FvP13test_struct_aE" },
	{ "void (struct test_struct_b *)", "FvP13test_struct_bE" },
	{ "void (struct test_struct_c *)", "FvP13test_struct_cE" },
	{ "void (const struct test_struct_a *)", "FvPK13test_struct_aE" },
	{ "void (const struct test_struct_b *)", "FvPK13test_struct_bE" },
	{ "void (const struct test_struct_c *)", "FvPK13test_struct_cE" },
	{ "void (union test_union_a *)", "FvP12test_union_aE" },
	{ "void (union test_union_b *)", "FvP12test_union_bE" },
	{ "void (enum test_enum_a *)", "FvP11test_enum_aE" },
	{ "void (enum test_enum_b *)", "FvP11test_enum_bE" },
	{ "void (unsigned long data)", "FvmE" }, { "void (struct tasklet *t)", "FvP7taskletE" },
	{ "struct test_struct_a *(void)", "FP13test_struct_avE" },
	{ "struct test_struct_b *(void)", "FP13test_struct_bvE" },
	{ "struct test_struct_c *(void)", "FP13test_struct_cvE" },
	{ "void (struct test_struct_a)", "Fv13test_struct_aE" },
	{ "void (struct test_struct_b)", "Fv13test_struct_bE" },
	{ "void (struct test_struct_c)", "Fv13test_struct_cE" },
	{ "struct test_struct_a (void)", "F13test_struct_avE" },
	{ "struct test_struct_b (void)", "F13test_struct_bvE" },
	{ "struct test_struct_c (void)", "F13test_struct_cvE" },
	{ "void (struct test_struct_a *, struct test_struct_b *)", "FvP13test_struct_aP13test_struct_bE" },
	{ "void (struct test_struct_b *, struct test_struct_a *)", "FvP13test_struct_bP13test_struct_aE" },
	/* typedef'd anonymous tags are printed with the typedef name */
	{ "void (struct typedef_struct_x *)", "FvP16typedef_struct_xE" },
	{ "void (struct typedef_struct_y *)", "FvP16typedef_struct_yE" },
	{ "void (struct typedef_struct_x)", "Fv16typedef_struct_xE" },
	{ "void (const struct typedef_struct_x)", "Fv16typedef_struct_xE" },
	{ "void (struct typedef_struct_x *const)", "FvP16typedef_struct_xE" },
	{ "void (union typedef_union_x *)", "FvP15typedef_union_xE" },
	{ "void (union typedef_union_y *)", "FvP15typedef_union_yE" },
	{ "void (union typedef_union_x)", "Fv15typedef_union_xE" },
	{ "void (enum typedef_enum_x *)", "FvP14typedef_enum_xE" },
	{ "void (enum typedef_enum_y *)", "FvP14typedef_enum_yE" },
	{ "void (enum typedef_enum_x)", "Fv14typedef_enum_xE" },
	{ "void (struct vla_member *)", "FvP10vla_memberE" },
	{ "void (struct vla_member)", "Fv10vla_memberE" },
	{ "void (struct recursive_struct_test *)", "FvP21recursive_struct_testE" },
	{ "void (struct $_0 *, union $_1, enum $_2)", "FvP3$_03$_13$_2E" },
	/* function pointers, as parameters and as return values */
	{ "void (void (*)(void))", "FvPFvvEE" }, { "void (void (*fp)(int))", "FvPFviEE" },
	{ "void (int (*)(void))", "FvPFivEE" }, { "void (void (*)(int, char))", "FvPFvicEE" },
	{ "int (*(void))(void)", "FPFivEvE" }, { "int (int (*(*)(int))(char))", "FiPFPFicEiEE" },
	{ "void (void (int), void g(int))", "FvPFviES0_E" },
	/* arrays decay; inner dimensions stay; VLAs are A_ */
	{ "void (int [])", "FvPiE" }, { "void (int arr[10])", "FvPiE" },
	{ "void (int n, int arr[*])", "FviPiE" }, { "void (int, int [*])", "FviPiE" },
	{ "void (int, int [])", "FviPiE" }, { "void (int, int *)", "FviPiE" },
	{ "void (int n, int arr[*][10])", "FviPA10_iE" }, { "void (int, int [][10])", "FviPA10_iE" },
	{ "void (int, int (*)[10])", "FviPA10_iE" },
	{ "void (int rows, int cols, int arr[*][*])", "FviiPA_iE" },
	{ "void (int, int, int [][*])", "FviiPA_iE" }, { "void (int, int, int [*][*])", "FviiPA_iE" },
	{ "void (int [static 10], int [const 5], int [volatile], int [restrict])", "FvPiS_S_S_E" },
	{ "void (int [_Atomic], int [const volatile 3])", "FvPiS_E" },
	{ "void (const int (*)[10])", "FvPA10_KiE" }, { "const int (*(void))[3]", "FPA3_KivE" },
	/* _Atomic is a type of its own, inside the cv-qualifiers */
	{ "void (_Atomic int, const _Atomic int)", "FvU7_AtomiciS_E" },
	{ "void (const _Atomic int *)", "FvPKU7_AtomiciE" }, { "void (_Atomic const int *)", "FvPKU7_AtomiciE" },
	{ "void (int *const _Atomic *)", "FvPKU7_AtomicPiE" },
	{ "void (volatile _Atomic int *, _Atomic volatile int *, int *_Atomic, int *_Atomic *)",
	  "FvPVU7_AtomiciS1_U7_AtomicPiPS3_E" },
	{ "_Atomic(int *) (_Atomic(int *) *)", "FU7_AtomicPiPS0_E" },
	/* other builtins */
	{ "void (_Float16, __bf16, long double, __int128, unsigned __int128, __float128)",
	  "FvDF16_DF16benogE" },
	{ "void (_Complex char, _Complex short, _Complex unsigned, _Complex _Float16)",
	  "FvCcCsCjCDF16_E" },
	{ "void (__vector(4) int, __vector(4) int, __vector(4) float, __vector(8) int)",
	  "FvDv4_iS_Dv4_fDv8_iE" },
	{ "void (nullptr_t, nullptr_t *)", "FvDnPDnE" },
	{ "void (bool, _Complex float, _Complex long double)", "FvbCfCeE" },
	{ "void (_BitInt(128), unsigned _BitInt(256), signed _BitInt(2))", "FvDB128_DU256_DB2_E" },
	/* substitutions: every non-builtin component, innermost first */
	{ "void (struct s *, struct s *)", "FvP1sS0_E" },
	{ "void (const char *, const char *)", "FvPKcS0_E" },
	{ "void (const char *, char *, const char *)", "FvPKcPcS0_E" },
	{ "void (struct s *, const struct s *, struct s)", "FvP1sPKS_S_E" },
	{ "void (int *, const int *, const int *const *)", "FvPiPKiPKS1_E" },
	{ "void (const int *, const int *, const volatile int *)", "FvPKiS0_PVKiE" },
	{ "int *(int *)", "FPiS_E" }, { "void (enum e, enum e, int)", "Fv1eS_iE" },
	{ "void (void (*)(int), void (*)(int), int (*)())", "FvPFviES0_PFiEE" },
	{ "void (_BitInt(32), _BitInt(32), unsigned _BitInt(7), unsigned _BitInt(7))",
	  "FvDB32_S_DU7_S0_E" },
	{ "void (_Complex double, _Complex double, _Complex int)", "FvCdS_CiE" },
	{ "void (int (*)[10], int (*)[10])", "FvPA10_iS0_E" },
	{ "void (int (*)[], int (*)[])", "FvPA_iS0_E" },
	/* ...but never a VLA: Clang does not unify VLA types */
	{ "void (int, int (*)[*], int (*)[*])", "FviPA_iPA_iE" },
	/* builtins are not candidates, even when they repeat */
	{ "void (long *, long long *)", "FvPlPxE" },
	{ "void (char, unsigned long, long, unsigned long long, long long, unsigned short, short, unsigned int)",
	  "FvcmlyxtsjE" },
	/* seq-ids count in base 36: S9_, SA_, ..., SZ_, S10_ */
	{ "void (struct t0 *, struct t1 *, struct t2 *, struct t3 *, struct t4 *, struct t5 *, "
	  "struct t6 *, struct t7 *, struct t8 *, struct t9 *, struct t10 *, struct t11 *, "
	  "struct t12 *, struct t13 *, struct t14 *, struct t15 *, struct t16 *, struct t17 *, "
	  "struct t18 *, struct t19 *, struct t5 *, struct t19 *, struct t5)",
	  "FvP2t0P2t1P2t2P2t3P2t4P2t5P2t6P2t7P2t8P2t9P3t10P3t11P3t12P3t13P3t14P3t15P3t16P3t17"
	  "P3t18P3t19SA_S12_S9_E" },
	/* specifier order and GNU spellings do not matter */
	{ "unsigned long int (long unsigned, int unsigned long, long int unsigned)", "FmmmmE" },
	{ "void (long long int, int long long, long signed long, unsigned long long int)", "FvxxxyE" },
	{ "void (char signed, char unsigned, __signed__ char, __signed int)", "FvahaiE" },
	{ "void (double long, long double _Complex, double _Complex long)", "FveCeS_E" },
	{ "void\t(\n int\r,int )", "FviiE" },
	/* x86 named address spaces: Clang's vendor qualifier, in front of
	 * the cv-qualifiers, one candidate with them */
	{ "void (__seg_gs int *)", "FvPU5AS256iE" },
	{ "void (__seg_fs int *)", "FvPU5AS257iE" },
	{ "void (const volatile __seg_gs int *, const volatile __seg_gs int *)", "FvPU5AS256VKiS0_E" },
	{ "void (__seg_gs int *, int *, __seg_gs int *)", "FvPU5AS256iPiS0_E" },
	{ "void (int *restrict __seg_gs *)", "FvPU5AS256rPiE" },
	{ "void (const _Atomic __seg_gs int *)", "FvPU5AS256KU7_AtomiciE" },
	{ "void (__seg_gs int (*)[3])", "FvPA3_U5AS256iE" },
	{ "void (__attribute__((address_space(1))) int *)", "FvPU3AS1iE" },
	{ "void (__attribute__ ((__address_space__ ( 0x10 ))) int *)", "FvPU4AS16iE" },
	{ "void (__attribute__((address_space(0))) int *)", "FvPiE" },
	{ "__seg_gs int (void)", "FU5AS256ivE" },
	/* cfi_salt: the outermost function's salt after a dot; inner salts
	 * only keep salted and unsalted types apart for substitutions */
	{ "void (void) __attribute__((cfi_salt(\"kvm\")))", "FvvE.kvm" },
	{ "void (void) __attribute__ (( __cfi_salt__ ( \"kvm\" ) ))", "FvvE.kvm" },
	{ "void (void) __attribute__((cfi_salt(\"\")))", "FvvE" },
	{ "void (void) __attribute__((cfi_salt(\"a\")))  __attribute__((cfi_salt(\"b\")))", "FvvE.b" },
	{ "int (int, ...) __attribute__((ms_abi)) __attribute__((cfi_salt(\"m\")))", "U6ms_abiFiizE.m" },
	{ "void (void) __attribute__((cfi_salt(\"q\\\"\\\\\\n\\x41\\101\")))", "FvvE.q\"\\\nAA" },
	{ "void (void (*)(void) __attribute__((cfi_salt(\"x\"))), void (*)(void))", "FvPFvvEPFvvEE" },
	{ "void (void (*)(void) __attribute__((cfi_salt(\"x\"))), void (*)(void) __attribute__((cfi_salt(\"x\"))))",
	  "FvPFvvES0_E" },
	{ "void (void (*)(void) __attribute__((cfi_salt(\"\"))), void (*)(void))", "FvPFvvES0_E" },
	{ "void (*(int) __attribute__((cfi_salt(\"o\"))))(char) __attribute__((cfi_salt(\"i\")))",
	  "FPFvcEiE.o" },
	{ "void (void (*)(int), int) __attribute__((cfi_salt(\"(,)\")))", "FvPFviEiE.(,)" },
};

/* Integer normalization (doc/abi.md 5): LP64, signed char. */
static const struct mangling normalized[] = {
	{ "void (void)", "FvvE" }, { "void (int)", "Fvu3i32E" }, { "int (int)", "Fu3i32S_E" },
	{ "void (_Bool)", "Fvu2u8E" },
	{ "void (char, signed char, unsigned char)", "Fvu2i8S_u2u8E" },
	{ "void (short, unsigned short, long, unsigned long, long long, unsigned long long)",
	  "Fvu3i16u3u16u3i64u3u64S1_S2_E" },
	{ "void (int *, const unsigned *)", "FvPu3i32PKu3u32E" },
	{ "void (__int128, unsigned __int128)", "Fvu4i128u4u128E" },
	{ "void (void (*)(int), int)", "FvPFvu3i32ES_E" },
	{ "void (void (*)(int, int), int, int)", "FvPFvu3i32S_ES_S_E" },
	{ "void (void (*)(int, int, int), int, int, int)", "FvPFvu3i32S_S_ES_S_S_E" },
	/* the C type, not the normalized spelling, decides substitutions of
	 * the types built on it */
	{ "void (long *, long long *)", "FvPu3i64PS_E" },
	{ "void (_Bool, unsigned char, char, signed char)", "Fvu2u8S_u2i8S0_E" },
	{ "void (const char *, char *, const char *)", "FvPKu2i8PS_S1_E" },
	{ "void (char, unsigned long, long, unsigned long long, long long, unsigned short, short, unsigned int)",
	  "Fvu2i8u3u64u3i64S0_S1_u3u16u3i16u3u32E" },
	{ "int (int (*(*)(int))(char))", "Fu3i32PFPFS_u2i8ES_EE" },
	{ "void (int, int (*)[*], int (*)[*])", "Fvu3i32PA_S_PA_S_E" },
	{ "void (int (*)[], int (*)[])", "FvPA_u3i32S1_E" },
	{ "void (_Atomic int, const _Atomic int)", "FvU7_Atomicu3i32S0_E" },
	{ "void (_Complex double, _Complex double, _Complex int)", "FvCdS_Cu3i32E" },
	{ "const int (const int *, const int)", "FKu3i32PS0_S_E" },
	{ "void (__vector(4) int, __vector(4) int, __vector(4) float, __vector(8) int)",
	  "FvDv4_u3i32S0_Dv4_fDv8_S_E" },
	/* enums, _BitInt, floats and nullptr_t are not integers here */
	{ "void (enum e, enum e, int)", "Fv1eS_u3i32E" },
	{ "void (_BitInt(32), _BitInt(32), unsigned _BitInt(7), unsigned _BitInt(7))",
	  "FvDB32_S_DU7_S0_E" },
	{ "void (_Float16, __bf16, long double, __int128, unsigned __int128, __float128)",
	  "FvDF16_DF16beu4i128u4u128gE" },
	{ "void (nullptr_t, float, double)", "FvDnfdE" },
	/* the salt comes before ".normalized" */
	{ "void (int) __attribute__((cfi_salt(\"kvm\")))", "Fvu3i32E.kvm" },
	{ "void (__seg_gs int *)", "FvPU5AS256u3i32E" },
};

/* Clang 22's -fsanitize-cfi-icall-generalize-pointers: whole names, with
 * the ids clang-22 -Xclang -fsanitize-kcfi-hash=FNV-1a put in preambles
 * (0: not taken from Clang). */
static const struct {
	bool normalize;
	const char *text, *name;
	uint32_t clang_fnv;
} generalized[] = {
	{ true, "void (int *)", "_ZTSFvPvE.normalized.generalized", 0x8b957281 },
	/* the pointee's qualifiers stay, and the void pointers substitute */
	{ true, "void (const char *, char *const *, volatile int **)",
	  "_ZTSFvPKvS0_PvE.normalized.generalized", 0xcb4a3b3a },
	/* qualifiers of array elements are the array's */
	{ true, "void (const int (*)[3])", "_ZTSFvPKvE.normalized.generalized", 0xf5d1cebc },
	{ true, "int *(void)", "_ZTSFPvvE.normalized.generalized", 0x1f3e3ce1 },
	{ true, "void (int *restrict *)", "_ZTSFvPrvE.normalized.generalized", 0x2a4a3071 },
	/* address spaces, function pointers: plain void * */
	{ true, "void (__seg_gs int *)", "_ZTSFvPvE.normalized.generalized", 0x8b957281 },
	{ true, "void (void (*)(int))", "_ZTSFvPvE.normalized.generalized", 0x8b957281 },
	{ true, "int *()", "_ZTSFPvE.normalized.generalized", 0x7c866495 },
	/* the salt first */
	{ true, "void (int *) __attribute__((cfi_salt(\"s\")))",
	  "_ZTSFvPvE.s.normalized.generalized", 0xd7f74148 },
	/* an _Atomic pointer is no pointer type to Clang */
	{ false, "void (_Atomic(int *), int)", "_ZTSFvU7_AtomicPiiE.generalized", 0 },
	{ false, "void (struct s *, int, char *const)", "_ZTSFvPviS_E.generalized", 0 },
	{ false, "void (int [3], int (*)[*], const char [])", "_ZTSFvPvS_PKvE.generalized", 0 },
	{ false, "int (int) __attribute__((ms_abi))", "_ZTSU6ms_abiFiiE.generalized", 0 },
};

static void test_generalized(void)
{
	for (size_t i = 0; i < COUNT(generalized); i++) {
		struct kcfi_typeid_opts o = lp64;
		o.normalize_integers = generalized[i].normalize;
		o.generalize_pointers = true;
		struct kcfi_typeid r;
		struct kcfi_type_error e;
		const char *text = generalized[i].text, *want = generalized[i].name;
		checks++;
		if (kcfi_typeid_of_function(text, strlen(text), &o, &r, &e)) {
			FAIL("'%s': error at column %u: %s", text, e.column, e.message);
			continue;
		}
		if (strcmp(r.mangled, want))
			FAIL("'%s' generalized: got %s, expected %s", text, r.mangled, want);
		else if (generalized[i].clang_fnv && r.id != generalized[i].clang_fnv)
			FAIL("'%s' generalized: id 0x%08x, clang-22 0x%08x", text, (unsigned)r.id,
			     (unsigned)generalized[i].clang_fnv);
		kcfi_typeid_release(&r);
	}
	/* A type that is no function type is what it was. */
	struct kcfi_typeid_opts o = lp64;
	o.generalize_pointers = true;
	expect(TYPE, "int *", "Pi", &o);
	expect(TYPE, "void (*)(int *)", "PFvPiE", &o);
}

/* Normalization under other data models. */
static const struct {
	unsigned char long_bits;
	bool char_signed;
	const char *text, *encoding;
} models[] = {
	{ 32, true, "void (long, int, unsigned long, unsigned)", "Fvu3i32S_u3u32S0_E" },
	{ 32, true, "void (long long, long)", "Fvu3i64u3i32E" },
	{ 64, false, "void (char, unsigned char, signed char)", "Fvu2u8S_u2i8E" },
	{ 64, false, "void (_Bool, char)", "Fvu2u8S_E" },
};

/* ---- hashes ---- */

static void test_hashes(void)
{
	static const struct {
		const char *s;
		uint32_t xx, fnv;
	} ids[] = {
		/* the xxHash column is what Clang and rustc emit */
		{ "_ZTSFvvE", 0xA540670C, 0x40E0D3C8 },
		{ "_ZTSFviE", 0x019C0CAC, 0x70E35DEF },
		{ "_ZTSFiiE", 0x00050794, 0xB8360626 },
		{ "_ZTSFvPFviEE", 0xB2595507, 0xC4BF13BC },
		{ "_ZTSFvPKczE", 0xCE2CA9D7, 0xC948A054 },
		{ "_ZTSFvu3i32E.normalized", 0x454A91CB, 0xE802E9EF },
		{ "_ZTSFu3i32S_E.normalized", 0xCDDE824B, 0x3C8888B9 },
		{ "_ZTSFvvE.normalized", 0xE5C47D60, 0xF4A344A7 },
		/* the constants of clang/test/CodeGen/kcfi-normalize.c */
		{ "_ZTSFvPFvu3i32ES_E.normalized", (uint32_t)-1143117868, 0 },
		{ "_ZTSFvPFvu3i32S_ES_S_E.normalized", (uint32_t)-460921415, 0 },
		{ "_ZTSFvPFvu3i32S_S_ES_S_S_E.normalized", (uint32_t)-333839615, 0 },
	};
	for (size_t i = 0; i < COUNT(ids); i++) {
		size_t n = strlen(ids[i].s);
		checks += 2;
		if (kcfi_hash_bytes(KCFI_HASH_XXHASH64, ids[i].s, n) != ids[i].xx)
			FAIL("xxHash64 of %s", ids[i].s);
		if (ids[i].fnv && kcfi_hash_bytes(KCFI_HASH_FNV1A, ids[i].s, n) != ids[i].fnv)
			FAIL("FNV-1a of %s", ids[i].s);
	}

	/* the reference vectors of XXH64 itself; lengths around the 32-, 8-
	 * and 4-byte steps of the algorithm */
	static const struct {
		const char *s;
		uint64_t seed, h;
	} xx[] = {
		{ "", 0, 0xef46db3751d8e999ull },
		{ "abc", 0, 0x44bc2cf5ad770999ull },
		{ "a", 0, 0xd24ec4f1a98c6e5bull },
		{ "message digest", 0, 0x066ed728fceeb3beull },
		{ "abcdefghijklmnopqrstuvwxyz", 0, 0xcfe1f278fa89835cull },
		{ "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
		  0, 0xe04a477f19ee145dull },
	};
	for (size_t i = 0; i < COUNT(xx); i++) {
		checks++;
		uint64_t h = kcfi_xxhash64(xx[i].s, strlen(xx[i].s), xx[i].seed);
		if (h != xx[i].h)
			FAIL("XXH64(\"%s\") = %016llx", xx[i].s, (unsigned long long)h);
	}
	/* FNV-1a 32 reference values */
	checks += 3;
	if (kcfi_fnv1a32("", 0) != 0x811c9dc5u)
		FAIL("FNV-1a of the empty string");
	if (kcfi_fnv1a32("a", 1) != 0xe40c292cu)
		FAIL("FNV-1a of \"a\"");
	if (kcfi_fnv1a32("foobar", 6) != 0xbf9cf968u)
		FAIL("FNV-1a of \"foobar\"");
}

/* ---- errors ---- */

static const struct {
	enum api api;
	const char *text;
	unsigned column;	/* 1-based; 0: no position */
	const char *part;	/* must occur in the message */
} errors[] = {
	/* specifier combinations: the column of the specifier that breaks it */
	{ FUNCTION, "long float (void)", 6, "'float' cannot be combined with 'long'" },
	{ FUNCTION, "signed void (void)", 8, "'void' cannot be combined with 'signed'" },
	{ FUNCTION, "float signed (void)", 7, "cannot be combined" },
	{ FUNCTION, "int char (void)", 5, "'char' cannot be combined with 'int'" },
	{ FUNCTION, "struct s int (void)", 10, "cannot be combined" },
	{ FUNCTION, "void (__int128 long)", 16, "cannot be combined" },
	{ FUNCTION, "void (double long long)", 19, "cannot be combined" },
	{ FUNCTION, "void (_Decimal32 _Complex)", 18, "cannot be combined" },
	{ FUNCTION, "void (nullptr_t unsigned)", 17, "cannot be combined" },
	{ FUNCTION, "void (bool signed)", 12, "cannot be combined" },
	{ FUNCTION, "void (__vector(4) _Bool)", 19, "cannot be combined" },
	{ FUNCTION, "void (__vector(4) _Complex float)", 19, "cannot be combined" },
	{ FUNCTION, "void (__vector(2) long double)", 7, "vector of long double" },
	{ FUNCTION, "short long (void)", 7, "cannot be combined" },
	{ FUNCTION, "unsigned unsigned (void)", 10, "duplicate 'unsigned'" },
	{ FUNCTION, "long long long (void)", 11, "too long" },
	{ FUNCTION, "_Complex (void)", 1, "needs a type specifier" },
	{ FUNCTION, "const (void)", 1, "type specifier missing" },
	{ FUNCTION, "void (const)", 7, "type specifier missing" },
	/* declarators C does not allow */
	{ FUNCTION, "int (void)(void)", 5, "function returning a function" },
	{ FUNCTION, "int (void)[3]", 5, "function returning an array" },
	{ FUNCTION, "void (int [](void))", 11, "array of functions" },
	{ FUNCTION, "void (void [3])", 12, "array of void" },
	{ FUNCTION, "void (int [][])", 11, "incomplete array" },
	{ FUNCTION, "restrict int *(void)", 1, "restrict requires a pointer" },
	{ FUNCTION, "void (int restrict)", 11, "restrict requires a pointer" },
	{ FUNCTION, "void (void (*restrict)(void))", 13, "function cannot be restrict" },
	{ FUNCTION, "_Atomic void (void)", 1, "_Atomic cannot be applied to void" },
	{ FUNCTION, "_Atomic(int [3]) (void)", 1, "_Atomic(type-name)" },
	{ FUNCTION, "_Atomic(const int) (void)", 1, "_Atomic(type-name)" },
	{ FUNCTION, "void (int [static])", 11, "'static'" },
	{ FUNCTION, "void (int [static *])", 11, "'static'" },
	{ FUNCTION, "void (int [3][static 3])", 14, "outermost" },
	{ FUNCTION, "void (int (*)[const 3])", 14, "outermost" },
	{ TYPE, "int [static 3]", 5, "outermost" },
	/* void parameters */
	{ FUNCTION, "void (int, void)", 12, "'void' must be the only parameter" },
	{ FUNCTION, "void (void, void)", 7, "'void' must be the only parameter" },
	{ FUNCTION, "void (void, ...)", 7, "'void' must be the only parameter" },
	{ FUNCTION, "void (void, int)", 7, "'void' must be the only parameter" },
	{ FUNCTION, "void (void x)", 7, "cannot be qualified or named" },
	{ FUNCTION, "void (const void)", 7, "cannot be qualified or named" },
	/* values out of range */
	{ FUNCTION, "void (_BitInt(1))", 7, "_BitInt width" },
	{ FUNCTION, "void (unsigned _BitInt(0))", 16, "_BitInt width" },
	{ FUNCTION, "void (_BitInt(8388609))", 7, "_BitInt width" },
	{ FUNCTION, "void (__vector(3) int)", 7, "power of two" },
	{ FUNCTION, "void (__vector(0) int)", 7, "power of two" },
	{ FUNCTION, "void (int [0x1g])", 12, "invalid integer constant '0x1g'" },
	{ FUNCTION, "void (int [08])", 12, "invalid integer constant" },
	{ FUNCTION, "void (int [10u])", 12, "invalid integer constant" },
	{ FUNCTION, "void (int [99999999999999999999999])", 12, "too large" },
	{ FUNCTION, "void (struct a, union a)", 23, "conflicts with 'struct a'" },
	/* syntax */
	{ FUNCTION, "", 1, "syntax error" },
	{ FUNCTION, "   ", 4, "syntax error" },
	{ FUNCTION, "int (*)(int", 12, "syntax error" },
	{ FUNCTION, "void (int,)", 11, "syntax error" },
	{ FUNCTION, "void (int, ..., int)", 15, "syntax error" },
	{ FUNCTION, "void (int) x", 12, "syntax error" },
	{ FUNCTION, "void (int);", 11, "unexpected character ';'" },
	{ FUNCTION, "void (int @)", 11, "unexpected character '@'" },
	{ FUNCTION, "int (\x01)", 6, "unexpected byte 0x01" },
	{ FUNCTION, "struct (void)", 8, "syntax error" },
	{ FUNCTION, "int x(void)", 5, "unexpected identifier" },
	{ FUNCTION, "void (int n, int [n])", 19, "syntax error" },	/* write [*] */
	{ FUNCTION, "void (int [n + 1])", 12, "syntax error" },
	{ FUNCTION, "typeof(int) (void)", 1, "syntax error" },
	/* not a function type */
	{ FUNCTION, "int", 1, "expected a function type" },
	{ FUNCTION, "void (*)(int)", 1, "not a pointer to one" },
	{ FUNCTION, "struct s", 1, "expected a function type" },
	{ CALLEE, "int *", 1, "expected a function type" },
	{ CALLEE, "void (**)(int)", 1, "expected a function type" },
	/* address spaces and salts (Clang's wording where it has one) */
	{ FUNCTION, "void (__seg_gs __seg_fs int *)", 16, "multiple address spaces" },
	{ FUNCTION, "void (int *__seg_gs __seg_fs *)", 21, "multiple address spaces" },
	{ FUNCTION, "void (__seg_gs int)", 7, "parameter may not be qualified with an address space" },
	{ FUNCTION, "void (__seg_gs int [3])", 7, "parameter may not be qualified with an address space" },
	{ FUNCTION, "void (int *__seg_gs)", 7, "parameter may not be qualified with an address space" },
	{ FUNCTION, "void (__attribute__((address_space(8388582))) int *)", 36,
	  "larger than the maximum supported (8388581)" },
	{ FUNCTION, "void (__attribute__((address_space(1x))) int *)", 36, "invalid integer constant" },
	{ FUNCTION, "void (void) __attribute__((cfi_salt(\"a\\0\")))", 39, "NUL byte" },
	{ FUNCTION, "void (void) __attribute__((cfi_salt(\"a\\q\")))", 39, "invalid escape sequence" },
	{ FUNCTION, "void (void) __attribute__((cfi_salt(kvm)))", 13, "syntax error" },
	{ FUNCTION, "void __attribute__((cfi_salt(\"x\"))) (void)", 6, "syntax error" },
};

static void test_errors(void)
{
	for (size_t i = 0; i < COUNT(errors); i++) {
		struct kcfi_typeid r;
		struct kcfi_type_error e;
		const char *t = errors[i].text;
		checks++;
		if (!run(errors[i].api, t, strlen(t), &lp64, &r, &e)) {
			FAIL("'%s' was accepted as %s", t, r.mangled);
			kcfi_typeid_release(&r);
			continue;
		}
		if (r.mangled)
			FAIL("'%s': mangled not NULL after an error", t);
		if (e.column != errors[i].column || !strstr(e.message, errors[i].part))
			FAIL("'%s': got column %u \"%s\", expected column %u \"...%s...\"", t,
			     e.column, e.message, errors[i].column, errors[i].part);
	}

	/* an embedded NUL is just a bad byte */
	struct kcfi_typeid r;
	struct kcfi_type_error e;
	checks++;
	if (!kcfi_typeid_of_function("void (int\0)", 11, &lp64, &r, &e) || e.column != 10 ||
	    !strstr(e.message, "0x00"))
		FAIL("embedded NUL: column %u \"%s\"", e.column, e.message);

	/* nesting and length limits */
	char buf[70000];
	checks++;
	strcpy(buf, "void (");
	for (int i = 0; i < 70; i++)
		strcat(buf, "(");
	if (!kcfi_typeid_of_function(buf, strlen(buf), &lp64, &r, &e) || e.column != 6 + 64 ||
	    !strstr(e.message, "nested too deeply"))
		FAIL("deep parentheses: column %u \"%s\"", e.column, e.message);
	checks++;
	strcpy(buf, "void (int ");
	for (int i = 0; i < 300; i++)
		strcat(buf, "*");
	strcat(buf, ")");
	if (!kcfi_typeid_of_function(buf, strlen(buf), &lp64, &r, &e) || !e.column ||
	    !strstr(e.message, "nested too deeply"))
		FAIL("long pointer chain: column %u \"%s\"", e.column, e.message);
	checks++;
	memset(buf, ' ', sizeof(buf));
	memcpy(buf, "void (void)", 11);
	if (!kcfi_typeid_of_function(buf, sizeof(buf), &lp64, &r, &e) || e.column ||
	    !strstr(e.message, "longer than"))
		FAIL("overlong text: column %u \"%s\"", e.column, e.message);
	/* ...while long but legal inputs are fine */
	checks++;
	strcpy(buf, "void (int");
	for (int i = 0; i < 5000; i++)
		strcat(buf, ", int");
	strcat(buf, ")");
	if (kcfi_typeid_of_function(buf, strlen(buf), &lp64, &r, &e))
		FAIL("5001 parameters: %s", e.message);
	else
		kcfi_typeid_release(&r);

	/* bad options */
	struct kcfi_typeid_opts bad = lp64;
	bad.model.long_bits = 16;
	checks++;
	if (!kcfi_typeid_of_function("void (void)", 11, &bad, &r, &e) || e.column ||
	    !strstr(e.message, "data model"))
		FAIL("long=16 accepted: \"%s\"", e.message);
	bad = lp64;
	bad.hash = (enum kcfi_hash)7;
	checks++;
	if (!kcfi_typeid_of_function("void (void)", 11, &bad, &r, &e) || !strstr(e.message, "hash"))
		FAIL("hash 7 accepted: \"%s\"", e.message);
	/* a NULL error record is allowed */
	checks++;
	if (!kcfi_typeid_of_function("int", 3, &lp64, &r, NULL) || r.mangled)
		FAIL("error without an error record");
}

/* ---- random inputs must fail cleanly, never crash ---- */

static void test_garbage(void)
{
	static const char *const pieces[] = {
		"int", "void", "char", "long", "unsigned", "const", "restrict", "_Atomic", "struct",
		"s", "(", ")", "[", "]", "*", ",", "...", "3", "static", "_BitInt", "__vector",
		"_Complex", "double", "x", "enum", "union", "0x", "(void)", "[*]", "\x80", "$",
	};
	uint64_t state = 12345;
	char text[256];
	unsigned accepted = 0;
	for (int round = 0; round < 20000; round++) {
		size_t len = 0;
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		unsigned n = 1 + (unsigned)(state >> 59);
		for (unsigned i = 0; i < n; i++) {
			state = state * 6364136223846793005ull + 1442695040888963407ull;
			const char *p = pieces[(state >> 33) % COUNT(pieces)];
			size_t m = strlen(p);
			if (len + m + 2 > sizeof(text))
				break;
			memcpy(text + len, p, m);
			len += m;
			text[len++] = (state >> 20) & 1 ? ' ' : '\t';
		}
		struct kcfi_typeid r;
		struct kcfi_type_error e;
		memset(&e, 0x55, sizeof(e));
		if (kcfi_typeid_of_type(text, len, &lp64, &r, &e) == 0) {
			accepted++;
			if (!r.mangled || strncmp(r.mangled, "_ZTS", 4))
				FAIL("garbage accepted without a name");
			kcfi_typeid_release(&r);
		} else if (!memchr(e.message, '\0', sizeof(e.message)) || !e.message[0] ||
			   e.column > len + 1) {
			FAIL("garbage '%.*s': bad error record (column %u)", (int)len, text, e.column);
		}
	}
	checks++;
	if (!accepted)
		FAIL("no random input parsed: the generator is broken");
}

/* ---- other properties ---- */

/* All 32 fixed-point types mangle to vendor names, pairwise distinct (what
 * the GCC series' builtin-typeinfo-fixed.c asks; GCC supports them on ARM
 * only, so the plugin side cannot run here). */
static void test_fixed_point(void)
{
	static const char *const sat[] = { "", "_Sat " }, *const sign[] = { "", "unsigned " };
	static const char *const size[] = { "short ", "", "long ", "long long " };
	static const char *const kind[] = { "_Fract", "_Accum" };
	char names[32][64];
	int n = 0;
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 2; b++)
			for (int c = 0; c < 4; c++)
				for (int d = 0; d < 2; d++, n++) {
					char text[64];
					snprintf(text, sizeof(text), "%s%s%s%s", sat[a], sign[b], size[c], kind[d]);
					struct kcfi_typeid r;
					checks++;
					if (kcfi_typeid_of_type(text, strlen(text), &lp64, &r, NULL)) {
						FAIL("'%s' rejected", text);
						names[n][0] = '\0';
						continue;
					}
					if (strncmp(r.mangled, "_ZTSu", 5) || !r.mangled[5])
						FAIL("'%s' is %s, not a vendor type", text, r.mangled);
					snprintf(names[n], sizeof(names[n]), "%s", r.mangled);
					kcfi_typeid_release(&r);
				}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			checks++;
			if (!strcmp(names[i], names[j]))
				FAIL("fixed-point types %d and %d collide: %s", i, j, names[i]);
		}
}

static void test_flags_and_modes(void)
{
	struct kcfi_typeid r;
	struct kcfi_type_error e;
	static const struct {
		const char *text;
		bool unprototyped;
	} flags[] = {
		{ "int ()", true }, { "int (void)", false }, { "void (int (*)())", false },
		{ "struct s *()", true }, { "void (...)", false },
	};
	for (size_t i = 0; i < COUNT(flags); i++) {
		checks++;
		if (kcfi_typeid_of_function(flags[i].text, strlen(flags[i].text), &lp64, &r, &e)) {
			FAIL("'%s': %s", flags[i].text, e.message);
			continue;
		}
		if (r.unprototyped != flags[i].unprototyped)
			FAIL("'%s': unprototyped is %d", flags[i].text, r.unprototyped);
		kcfi_typeid_release(&r);
	}

	/* The three entry points agree on function types; the callee form
	 * also takes pointers to functions. */
	static const char *const fn[] = { "void (int)", "int (*(void))(char)", "void ()" };
	for (size_t i = 0; i < COUNT(fn); i++) {
		struct kcfi_typeid a, b, c;
		checks++;
		if (kcfi_typeid_of_function(fn[i], strlen(fn[i]), &lp64, &a, &e) ||
		    kcfi_typeid_of_type(fn[i], strlen(fn[i]), &lp64, &b, &e) ||
		    kcfi_typeid_of_callee(fn[i], strlen(fn[i]), &lp64, &c, &e)) {
			FAIL("'%s': %s", fn[i], e.message);
			continue;
		}
		if (strcmp(a.mangled, b.mangled) || strcmp(a.mangled, c.mangled) || a.id != b.id ||
		    a.id != c.id)
			FAIL("'%s': the entry points disagree", fn[i]);
		kcfi_typeid_release(&b);
		kcfi_typeid_release(&c);
		kcfi_typeid_release(&a);
	}
	static const struct mangling callees[] = {
		{ "void (*)(struct tasklet *)", "FvP7taskletE" },
		{ "int (*const)(int)", "FiiE" },
		{ "int (*(*)(void))(char)", "FPFicEvE" },
	};
	for (size_t i = 0; i < COUNT(callees); i++)
		expect(CALLEE, callees[i].text, callees[i].encoding, &lp64);

	/* the id follows the hash option */
	struct kcfi_typeid_opts xx = lp64;
	xx.hash = KCFI_HASH_XXHASH64;
	checks++;
	if (kcfi_typeid_of_function("void (int)", 10, &xx, &r, &e) || r.id != 0x019C0CACu)
		FAIL("xxHash64 id of void (int)");
	else
		kcfi_typeid_release(&r);
	checks++;
	if (kcfi_typeid_of_function("void (int)", 10, NULL, &r, &e) || r.id != 0x70E35DEFu)
		FAIL("default options: FNV-1a id of void (int)");
	else
		kcfi_typeid_release(&r);
}

/* CPU time of this thread, and the best of three runs: `make -j check`
 * runs other tests (and compilers) on the same cores. */
static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double best_ms(void (*fn)(void *), void *arg)
{
	double best = 1e30;
	for (int i = 0; i < 3; i++) {
		double t0 = now_ms();
		fn(arg);
		double t = now_ms() - t0;
		if (t < best)
			best = t;
	}
	return best;
}

#define SPEED_COUNT 20000
static char speed_texts[SPEED_COUNT][256];	/* the longest needs 190 */

static void speed_run(void *arg)
{
	unsigned *bad = arg;
	for (unsigned i = 0; i < SPEED_COUNT; i++) {
		struct kcfi_typeid r;
		if (kcfi_typeid_of_function(speed_texts[i], strlen(speed_texts[i]), &lp64, &r, NULL)) {
			++*bad;
			continue;
		}
		kcfi_typeid_release(&r);
	}
}

struct long_list {
	const char *text;
	size_t len;
};

static void long_list_run(void *arg)
{
	struct long_list *l = arg;
	struct kcfi_typeid r;
	if (!kcfi_typeid_of_function(l->text, l->len, &lp64, &r, NULL))
		kcfi_typeid_release(&r);
}

/* 20 000 distinct prototypes, one to six parameters, through the whole
 * pipeline: the budget is 50 ms (enforced in optimized builds only).  And a
 * parameter list 8 times longer must cost about 8 times as much, not 64:
 * interning and substitution lookup are hashed, not searched. */
static void test_speed(void)
{
	static const char *const params[] = {
		"int", "const char *", "struct device *", "unsigned long", "void *",
		"struct list_head *", "void (*)(struct work_struct *)", "unsigned char [16]",
		"long long", "const struct file_operations *",
	};
	for (unsigned i = 0; i < SPEED_COUNT; i++) {
		int n = snprintf(speed_texts[i], sizeof(speed_texts[i]), "int (struct obj%u *", i);
		for (unsigned v = i; v; v /= 10)
			n += snprintf(speed_texts[i] + n, sizeof(speed_texts[i]) - (size_t)n, ", %s",
				      params[v % 10]);
		snprintf(speed_texts[i] + n, sizeof(speed_texts[i]) - (size_t)n, ")");
	}
	unsigned bad = 0;
	double ms = best_ms(speed_run, &bad);
	printf("speed: %d prototypes in %.1f ms\n", SPEED_COUNT, ms);
	checks++;
	if (bad)
		FAIL("%u speed-test prototypes failed", bad / 3);
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)	/* not under ASan either */
	checks++;
	if (ms > 50)
		FAIL("%d prototypes took %.1f ms, the budget is 50 ms", SPEED_COUNT, ms);
#endif

	static char text[65536];
	double t[2];
	for (int k = 0; k < 2; k++) {
		unsigned n = k ? 4000 : 500;
		size_t len = (size_t)snprintf(text, sizeof(text), "void (");
		for (unsigned i = 0; i < n; i++)	/* repeats too, for S<seq-id>_ */
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%sstruct s%u *",
						i ? "," : "", i % 3 ? i : i / 3);
		len += (size_t)snprintf(text + len, sizeof(text) - len, ")");
		struct long_list l = { text, len };
		t[k] = best_ms(long_list_run, &l);
	}
	printf("speed: 500 parameters in %.3f ms, 4000 in %.3f ms\n", t[0], t[1]);
	/* The work is linear (callgrind counts 7.6 times the instructions);
	 * the time is not quite, because the bigger arena leaves the caches
	 * and takes page faults.  Quadratic work would be 64 times. */
	checks++;
	if (t[1] > 32 * t[0] + 0.5)
		FAIL("8 times the parameters took %.0f times as long", t[1] / t[0]);
}

int main(int argc, char **argv)
{
	bool timing = argc > 1 && !strcmp(argv[1], "--speed");

	for (size_t i = 0; i < COUNT(type_names); i++)
		expect(TYPE, type_names[i].text, type_names[i].encoding, &lp64);
	for (size_t i = 0; i < COUNT(functions); i++) {
		expect(FUNCTION, functions[i].text, functions[i].encoding, &lp64);
		expect(TYPE, functions[i].text, functions[i].encoding, &lp64);
	}
	struct kcfi_typeid_opts norm = lp64;
	norm.normalize_integers = true;
	for (size_t i = 0; i < COUNT(normalized); i++)
		expect(FUNCTION, normalized[i].text, normalized[i].encoding, &norm);
	for (size_t i = 0; i < COUNT(models); i++) {
		struct kcfi_typeid_opts o = norm;
		o.model.long_bits = models[i].long_bits;
		o.model.ptr_bits = models[i].long_bits;
		o.model.char_signed = models[i].char_signed;
		expect(FUNCTION, models[i].text, models[i].encoding, &o);
	}
	test_generalized();
	test_hashes();
	test_errors();
	test_garbage();
	test_flags_and_modes();
	test_fixed_point();
	if (timing)
		test_speed();

	printf("%d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
