/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Function definitions whose own type (the preamble's id) is not what the
 * declarations in the random batches cover: K&R definitions (promoted
 * prototype), unprototyped ones, ms_abi, VLA and [static] parameters,
 * qualified pointer returns, variadics; typedef names of anonymous tags and
 * transparent unions (K&R too).  Both Clang and kcfi-gcc compile
 * this; definitions.sh compares the ids in the __cfi_ preambles. */
struct s { int m; };
typedef struct { int x; } td_t;
typedef struct { int x; } *td_mp, td_m;
typedef const struct { int x; } td_qa;
typedef volatile union { int x; } td_qb, *td_qbp;
typedef union __attribute__((transparent_union)) { int *ip; long *lp; } td_tu;

int kr_char(a) char a; { return a; }
int kr_float_short(f, s, p) float f; short s; struct s *p; { return (int)f + s + p->m; }
double kr_mixed(u, c, d) unsigned char u; const char *c; double d; { return u + *c + d; }
int noproto() { return 0; }
void __attribute__((ms_abi)) ms(int a, const char *b) { (void)a; (void)b; }
long __attribute__((ms_abi)) ms_var(int a, ...) { return a; }
void vla(int n, int a[n], int b[static 4], int m, int c[n][m]) { (void)a; (void)b; (void)c; }
const char *ret_ptr_const(td_t *t) { return t ? "x" : 0; }
struct s *const *ret_quals(void) { return 0; }
void fptrs(void (*cb)(int, char), int (*noproto_cb)(), td_t (*ret)(void)) { (void)cb; (void)noproto_cb; (void)ret; }
_Atomic int atomic_ret(void) { return 0; }
void complexes(_Complex double a, __int128 b, _Float16 c, long double d) { (void)a; (void)b; (void)c; (void)d; }
void multi(td_mp a, td_m *b) { (void)a; (void)b; }
void qual_a(td_qa *a) { (void)a; }
void qual_b(td_qbp b, td_qa *a, void (*cb)(td_qb *)) { (void)b; (void)a; (void)cb; }
int kr_tu(u, n) td_tu u; short n; { return *u.ip + n; }
td_tu ret_tu(void (*cb)(td_tu)) { td_tu r = { 0 }; (void)cb; return r; }

void *tbl[] = { kr_char, kr_float_short, kr_mixed, noproto, ms, ms_var, vla, ret_ptr_const, ret_quals,
		fptrs, atomic_ret, complexes, multi, qual_a, qual_b, kr_tu, ret_tu };
