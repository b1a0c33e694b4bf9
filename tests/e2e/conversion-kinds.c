// SPDX-License-Identifier: GPL-2.0-or-later
/* The classes of conversions the front end hides from a plain walk
 * (tests/e2e/conversion-kinds.sh, issue 42 item 2): ?: and comma operands,
 * casts through void * or an integer (GCC folds the inner cast away as it
 * builds the expression: these get the kind of where the value goes, not
 * void*; only a detour through a variable is void*), one place per type,
 * and stores into unions.  A line marked "K kind fn..." gets one
 * -Wkcfi-cast warning and one record of that kind per fn, converted to
 * void (*)(long); a line marked "U fn type" one union record of fn as that
 * type and no warning; "N" lines nothing at all. */
typedef void (*vf)(long);
typedef int fn_t(long);
int y(long a) { return (int)a; }
int w(long a) { return (int)a + 2; }
int g(void);
void take(vf f);
vf p;

vf sel(int c) { return c ? (vf)y : (vf)w; }			/* K return y w */
void set(int c) { p = c ? (vf)y : (vf)w; }			/* K assign y w */
void set2(int c) { p = c ? (vf)y : 0; }				/* K assign y */
void set3(int c) { p = (vf)(c ? y : w); }			/* K assign y w */
void nest(int c, int d) { p = c ? (d ? (vf)y : (vf)w) : 0; }	/* K assign y w */
void comma(void) { p = (g(), (vf)y); }				/* K assign y */
void twice(int c) { p = c ? (vf)y : (vf)y; }			/* K assign y */
void argcond(int c) { take(c ? (vf)y : (vf)w); }		/* K arg y w */
vf retcomma(void) { return (g(), (vf)w); }			/* K return w */

void v1(void) { p = (vf)(void *)y; }				/* K assign y */
void v2(void) { p = (void *)y; }				/* K assign y */
vf v3(void) { return (vf)(unsigned long)y; }			/* K return y */
#define VCAST(f) ((vf)(void *)(f))
void v4(void) { p = VCAST(y); }					/* K assign y */
void v5(void) { void *v = (void *)y; p = v; }			/* K void* y */
void v6(void) { take((vf)(unsigned long)(void *)w); }		/* K arg w */
void c1(void) { p = (vf)(y); }					/* K assign y */
void c2(void) { p = (vf)(fn_t *)y; }				/* K assign y */
void c3(void) { p = (vf)((y)); }				/* K assign y */

union ops {
	int (*a)(long);
	void (*b)(long);
	void (*c)(long);
	void (*d)(long);
	int (*e)(int);
};
static int f(long x) { return (int)x; }
union ops o = { .a = f };					/* U f void (long) / U f int (int) */
union ops o2;
void ua(void) { o2.a = f; }					/* U f void (long) / U f int (int) */
void ub(void) { o2.b = (vf)f; }					/* K assign f / U f int (int) */
union same { vf x; void (*z)(long); int (*i)(long); };
union same s = { .i = y };					/* U y void (long) */
void un(void) { union same t = { .x = 0 }; p = t.x; }		/* N */
