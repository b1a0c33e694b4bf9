/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -fsanitize-kcfi-arity: one function per way of passing arguments on
   x86_64 (tests/e2e/arity.sh has the register each preamble must name).
   The bodies use every parameter, so that Clang's count of live
   registers is the whole count, except in the -O2 kinds at the end.  */
#include <stdarg.h>

struct s8 { long a; };
struct s16 { long a, b; };
struct s24 { long a, b, c; };
struct sf { float a, b; };
struct smix { long a; double b; };
struct empty { };
typedef union __attribute__ ((transparent_union)) { int *ip; long *lp; } tu;

#define USE(x) __asm__ volatile ("" : : "m" (x))

void f0 (void) { }
void f1 (int a) { USE (a); }
void f2 (int a, long b) { USE (a); USE (b); }
void f6 (int a, int b, int c, int d, int e, int f)
{ USE (a); USE (b); USE (c); USE (d); USE (e); USE (f); }
void f7 (int a, int b, int c, int d, int e, int f, int g)
{ USE (a); USE (b); USE (c); USE (d); USE (e); USE (f); USE (g); }
void fd (double d, float f) { USE (d); USE (f); }
void ff_i (float f, int i) { USE (f); USE (i); }
void fld (long double x) { USE (x); }
void fi128 (__int128 x) { USE (x); }
void fi128_last (int a, int b, int c, int d, int e, __int128 x)
{ USE (a); USE (b); USE (c); USE (d); USE (e); USE (x); }
void fcd (_Complex double x) { USE (x); }
void fci (_Complex int x) { USE (x); }
void fcl (_Complex long double x) { USE (x); }
void fs8 (struct s8 x) { USE (x); }
void fs16 (struct s16 x) { USE (x); }
void fs24 (struct s24 x) { USE (x); }
void fsf (struct sf x) { USE (x); }
void fsmix (struct smix x) { USE (x); }
void fempty (struct empty e, int a) { USE (e); USE (a); }
void ftu (tu x) { USE (x); }
struct s24 sret (int a) { struct s24 r = { a, 0, 0 }; return r; }
int vnamed (int n, ...) { USE (n); return 0; }
int vstart (int n, ...)
{
  va_list ap;
  va_start (ap, n);
  int r = va_arg (ap, int);
  va_end (ap);
  return r;
}
#ifdef __x86_64__
void __attribute__ ((ms_abi)) ms (int a) { USE (a); }
#endif

/* -O2: what Clang's liveness leaves out.  */
void o2_unused (int a, long b) { }
void o2_second (int a, long b) { USE (b); }
