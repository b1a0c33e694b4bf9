/* SPDX-License-Identifier: GPL-2.0-or-later */
/* __builtin_linux_abi_kcfi_name/_hash at run time: the mangled names the
 * GCC series and Clang agree on, for file-scope types (function-local ones
 * are a documented divergence), and hashes that are what the checks use. */
#include <stdio.h>
#include <string.h>

static int failed, passed;

#define NAME(T, want) expect_name(#T, __builtin_linux_abi_kcfi_name(T), "_ZTS" want)
#define OF(e, want) NAME(typeof(e), want)

static void expect_name(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want)) {
		printf("FAIL %s: got %s, want %s\n", what, got, want);
		failed++;
	} else {
		passed++;
	}
}

struct point { int x, y; };
union number { int i; float f; };
enum colour { RED };
typedef struct { int a; } anon_typedef_t;
typedef union { short s; } anon_union_t;
typedef enum { ONE } anon_enum_t;
typedef struct point point_t;
typedef point_t point2_t;
typedef void (*handler_t)(int, char);
typedef int (*getter_t)(void);
struct tasklet {
	int state;
	union {
		void (*func)(unsigned long data);
		void (*callback)(struct tasklet *t);
	};
};
struct { int a; } anon_var_0;
union { int a; } anon_var_1;

extern void v_void(void);
extern void v_args(int, char, short, long, unsigned char, unsigned short, unsigned, unsigned long,
		   signed char, long long, unsigned long long);
extern void v_ptrs(void *, const void *, char **, const volatile int *, int *restrict *);
extern void v_top_quals(int *const a, int *restrict b, const int c, int d[const], int e[static 4]);
extern void v_variadic(const char *fmt, ...);
extern void v_audit(struct point *ctx, unsigned int gfp, int type, const char *fmt, ...);
extern void v_structs(struct point, union number, enum colour, anon_typedef_t *, anon_union_t,
		      anon_enum_t *, point2_t *);
extern void v_fptrs(handler_t, void (*)(int, char), getter_t);
extern getter_t r_getter(void);
extern int (*r_opencoded(void))(void);
extern struct point *r_struct_ptr(void);
extern struct point r_struct(void);
extern void v_vla(int n, int a[n], int b[][10], int m, int c[n][m], int d[*][m]);
extern void v_complex(_Complex float, _Complex double, _Complex long double, _Complex int);
extern _Bool r_bool(_Bool, const _Bool *);
extern void v_float(float, double, long double, _Float32, _Float64, _Float32x, _Float64x);
extern void v_cb_restrict(void (*cb)(int *restrict), int *restrict *(*cb2)(void));
extern void v_atomic(_Atomic int *, _Atomic(long) *);
extern int v_noproto();
typedef int v4si __attribute__((vector_size(16)));
extern void v_vector(v4si, v4si *);
#ifdef __SIZEOF_INT128__
extern void v_int128(__int128, unsigned __int128);
#endif
#ifdef __DEC32_MANT_DIG__
extern void v_decimal(_Decimal32, _Decimal64, _Decimal128);
#endif
#ifdef __FLT16_MANT_DIG__
extern void v_float16(_Float16);
#endif
#ifdef __FLT128_MANT_DIG__
extern void v_float128(_Float128);
#endif

void defined_fn(struct point *p, ...);
void defined_fn(struct point *p, ...)
{
	p->x++;
}
void (*volatile keep)(struct point *, ...) = defined_fn;

/* K&R: the preamble carries the promoted prototype, as Clang's does. */
int kr_fn(a, b, c)
	char a;
	float b;
	short *c;
{
	return a + (int)b + *c;
}
int (*volatile keep_kr)() = kr_fn;

/* FNV-1a, written out again here: the test must not trust the library. */
static unsigned fnv1a(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

int main(void)
{
	NAME(void, "v");
	NAME(char, "c");
	NAME(signed char, "a");
	NAME(unsigned char, "h");
	NAME(short, "s");
	NAME(int, "i");
	NAME(long, "l");
	NAME(unsigned long long, "y");
	NAME(float, "f");
	NAME(double, "d");
	NAME(_Bool, "b");
	NAME(const int, "Ki");
	NAME(volatile int, "Vi");
	NAME(const volatile int, "VKi");
	NAME(char *, "Pc");
	NAME(const char *, "PKc");
	NAME(int *restrict, "rPi");
	NAME(int[10], "A10_i");
	NAME(char[20], "A20_c");
	NAME(short[], "A_s");
	NAME(int (*)[3], "PA3_i");
	NAME(_Complex float, "Cf");
	NAME(_Complex double, "Cd");
	NAME(_Complex int, "Ci");
	NAME(_Complex float *, "PCf");
	NAME(struct point, "5point");
	NAME(union number, "6number");
	NAME(enum colour, "6colour");
	NAME(anon_typedef_t, "14anon_typedef_t");
	NAME(anon_union_t *, "P12anon_union_t");
	NAME(anon_enum_t, "11anon_enum_t");
	NAME(point2_t, "5point");
	NAME(handler_t, "PFvicE");
	NAME(getter_t, "PFivE");
	NAME(_Atomic int, "U7_Atomici");
	NAME(v4si, "Dv4_i");
	NAME(void (void), "FvvE");

	OF(v_void, "FvvE");
	OF(v_args, "FvicslhtjmaxyE");
	OF(v_ptrs, "FvPvPKvPPcPVKiPrPiE");
	OF(v_top_quals, "FvPiS_iS_S_E");
	OF(v_variadic, "FvPKczE");
	OF(v_audit, "FvP5pointjiPKczE");
	OF(v_structs, "Fv5point6number6colourP14anon_typedef_t12anon_union_tP11anon_enum_tPS_E");
	OF(v_fptrs, "FvPFvicES0_PFivEE");
	OF(r_getter, "FPFivEvE");
	OF(r_opencoded, "FPFivEvE");
	OF(r_struct_ptr, "FP5pointvE");
	OF(r_struct, "F5pointvE");
	OF(v_vla, "FviPiPA10_iiPA_iPA_iE");	/* each VLA is its own type */
	OF(v_complex, "FvCfCdCeCiE");
	OF(r_bool, "FbbPKbE");
	OF(v_float, "FvfdeDF32_DF64_DF32xDF64xE");
	OF(v_cb_restrict, "FvPFvPiEPFPrS_vEE");
	OF(v_atomic, "FvPU7_AtomiciPU7_AtomiclE");
	OF(v_noproto, "FiE");
	OF(v_vector, "FvDv4_iPS_E");
#ifdef __SIZEOF_INT128__
	OF(v_int128, "FvnoE");
#endif
#ifdef __DEC32_MANT_DIG__
	OF(v_decimal, "FvDfDdDeE");
#endif
#ifdef __FLT16_MANT_DIG__
	OF(v_float16, "FvDF16_E");
#endif
#ifdef __FLT128_MANT_DIG__
	OF(v_float128, "FvDF128_E");
#ifdef __SIZEOF_FLOAT128__	/* the target also spells it __float128 */
	/* in GCC's C, __float128 is _Float128 */
	if (strcmp(__builtin_linux_abi_kcfi_name(__float128), __builtin_linux_abi_kcfi_name(_Float128)))
		printf("FAIL __float128 and _Float128 differ\n"), failed++;
	else
		passed++;
#endif
#endif
	NAME(_Float32x, "DF32x");
	NAME(_Complex _Float64, "CDF64_");

	/* union member discrimination through expressions */
	struct tasklet t, *p = &t;
	OF(*p->func, "FvmE");
	OF(*p->callback, "FvP7taskletE");
	OF(t, "7tasklet");

	/* anonymous tags: numbered in the order first mangled */
	OF(anon_var_0, "3$_0");
	OF(anon_var_1, "3$_1");
	OF(&anon_var_0, "P3$_0");

	/* function-local tags: plain names, as in the GCC series (Clang would
	 * say Z4mainE7local_s: a documented divergence) */
	struct local_s { int x; };
	typedef struct { int y; } local_td;
	extern void local_fn(struct local_s *, local_td);
	NAME(struct local_s, "7local_s");
	OF(local_fn, "FvP7local_s8local_tdE");

	/* distinct typedefs of identical anonymous structs stay distinct */
	typedef struct { int x; } type_a;
	typedef struct { int x; } type_b;
	if (!strcmp(__builtin_linux_abi_kcfi_name(type_a), __builtin_linux_abi_kcfi_name(type_b)))
		printf("FAIL type_a and type_b collide\n"), failed++;

	/* hashes: the FNV-1a of the name (default hash), a plain unsigned int */
	unsigned h = __builtin_linux_abi_kcfi_hash(typeof(v_audit));
	const char *n = __builtin_linux_abi_kcfi_name(typeof(v_audit));
#ifndef KCFI_XXHASH
	if (h != fnv1a(n))
		printf("FAIL hash %08x is not FNV-1a(%s)\n", h, n), failed++;
#else
	if (h == fnv1a(n))
		printf("FAIL hash %08x is FNV-1a(%s) under xxHash64\n", h, n), failed++;
#endif
#if defined(__x86_64__)
	/* The id a check compares with sits in the preamble, 4 bytes before
	 * the entry (no patchable prefix here). */
	unsigned pre;
	const char *volatile entry = (const char *)keep;
	memcpy(&pre, entry - 4, sizeof(pre));
	if (pre != __builtin_linux_abi_kcfi_hash(typeof(defined_fn)))
		printf("FAIL preamble id %08x, builtin %08x\n", pre,
		       __builtin_linux_abi_kcfi_hash(typeof(defined_fn))), failed++;
	else
		passed++;
	entry = (const char *)keep_kr;
	memcpy(&pre, entry - 4, sizeof(pre));
	if (pre != __builtin_linux_abi_kcfi_hash(int (int, double, short *)))
		printf("FAIL K&R preamble id %08x\n", pre), failed++;
	else
		passed++;
#endif
	if (__builtin_linux_abi_kcfi_hash(int) == __builtin_linux_abi_kcfi_hash(long))
		printf("FAIL int and long hash alike\n"), failed++;
	_Static_assert(__builtin_types_compatible_p(__typeof__(__builtin_linux_abi_kcfi_hash(int)),
						    unsigned int), "hash is unsigned int");
	_Static_assert(__builtin_types_compatible_p(__typeof__(__builtin_linux_abi_kcfi_name(int)),
						    const char *), "name is const char *");

	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
