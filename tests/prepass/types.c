/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The C type names the plugin prints (doc/directives.md section 4).  Each
   declaration's address is taken, so it shows up as .kcfi_extern.  */

#include <stddef.h>

struct tagged;
union utagged;
enum etagged { E_ZERO };
typedef struct { int x; } anon_s;
typedef anon_s anon_s_again;
typedef union { int a; float b; } anon_u;
typedef enum { A_ZERO } anon_e;
/* One typedef declaring several names: the anonymous tag is named for
   linkage by the first name declared as the tag type itself, whichever
   name a declaration uses (Clang's rule).  */
typedef struct { int m; } multi_s, *multi_sp, multi_sa[4];
typedef struct { int m; } *ptrfirst_sp, ptrfirst_s;
typedef union { int m; } multi_u, *multi_up;
typedef enum { M_ZERO } multi_e, *multi_ep;
/* Transparent unions: as a parameter or the return type of the function
   type itself, Clang 22 counts one as its first member, unless Clang
   dropped the attribute (tu_sizes: members of different sizes, which GCC
   accepts).  */
typedef union __attribute__ ((transparent_union)) { int *ip; long *lp; } tu_ptr;
union __attribute__ ((transparent_union)) tu_named { const char *cp; void *vp; };
typedef union __attribute__ ((transparent_union)) { long l; int i; } tu_sizes;
typedef union { int *const ip; long *lp; } tu_late __attribute__ ((transparent_union));
typedef struct tagged tagged_t;
typedef unsigned long my_ulong;
typedef int __attribute__ ((may_alias)) aliasing_int;
typedef float quad_float __attribute__ ((vector_size (16)));
typedef int (*int_op) (int);

#define TAKE(name, ...) \
  void name (__VA_ARGS__); \
  void (*const p_##name) (__VA_ARGS__) __attribute__ ((used)) = name;

TAKE (t_chars, char, signed char, unsigned char, char *, const char *)
TAKE (t_ints, short, unsigned short, int, unsigned, long, unsigned long,
      long long, unsigned long long, _Bool)
TAKE (t_wide, __int128, unsigned __int128, size_t, my_ulong, aliasing_int)
/* x86 has _Float16 from GCC 12 on; GCC defines __FLT16_MAX__ with it.  */
#ifdef __FLT16_MAX__
#define F16 _Float16,
#else
#define F16
#endif
TAKE (t_floats, float, double, long double, F16 _Float32, _Float64,
      _Float128, _Float32x, _Float64x)
TAKE (t_decimal, _Decimal32, _Decimal64, _Decimal128)
TAKE (t_complex, _Complex float, _Complex double, _Complex int)
TAKE (t_tags, struct tagged *, union utagged *, enum etagged, tagged_t *)
TAKE (t_anon, anon_s, anon_s_again *, anon_u, anon_e, const anon_s *)
TAKE (t_multi, multi_s *, multi_sp, multi_sa, ptrfirst_sp, ptrfirst_s *,
      multi_up, multi_ep, const multi_e *)
TAKE (t_transparent, tu_ptr, union tu_named, tu_sizes, tu_late, tu_ptr *,
      void (*) (tu_ptr))
struct { int y; } bare_s;
union { int z; } bare_u;
TAKE (t_bare, __typeof__ (bare_s) *, __typeof__ (bare_u) *)
TAKE (t_quals, const int *, volatile int *, const volatile int *,
      _Atomic int *, int *const *, char *restrict *, int *const)
TAKE (t_arrays, int (*)[10], int (*)[], int (*)[0], int *[4], int[6])
TAKE (t_funcs, void (*) (int), int (*(*) (int)) (char), void (*) (void),
      int (*) (), int_op, void (*) (const char *, ...))
TAKE (t_vla, int n, int (*)[n])
TAKE (t_vector, quad_float)
TAKE (t_va, const char *, ...)
TAKE (t_void, void)
TAKE (t_unproto)

int *returns_pointer (int);
int *(*p_returns_pointer) (int) __attribute__ ((used)) = returns_pointer;
int (*returns_fp (void)) (int);
int (*(*p_returns_fp) (void)) (int) __attribute__ ((used)) = returns_fp;
tu_ptr returns_transparent (int);
tu_ptr (*p_returns_transparent) (int) __attribute__ ((used)) = returns_transparent;
tu_late returns_qualified (void);
tu_late (*p_returns_qualified) (void) __attribute__ ((used)) = returns_qualified;
