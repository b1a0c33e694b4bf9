/* Function definitions whose own type (the preamble's id) is not what the
 * declarations in the random batches cover: K&R definitions (promoted
 * prototype), unprototyped ones, ms_abi, VLA and [static] parameters,
 * qualified pointer returns, variadics.  Both Clang and kcfi-gcc compile
 * this; definitions.sh compares the ids in the __cfi_ preambles. */
struct s { int m; };
typedef struct { int x; } td_t;

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

void *tbl[] = { kr_char, kr_float_short, kr_mixed, noproto, ms, ms_var, vla, ret_ptr_const, ret_quals,
		fptrs, atomic_ret, complexes };
