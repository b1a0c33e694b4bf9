// SPDX-License-Identifier: GPL-2.0-or-later
/* Each way a function's address becomes a pointer of another type id
 * (tests/e2e/conversions.sh): a line marked WARN fn gets -Wkcfi-cast's
 * warning for fn; other lines get none. */
typedef void (*vl_fn)(long);
typedef int (*il_fn)(long);
typedef long mylong;

int y(long a) { return (int)a; }
static int z(long a) { return (int)a + 1; }
int lng(long a) { return (int)a; }
extern int ext(long);			/* defined as long (long) in conversions-def.c */
void take(vl_fn f);

struct ops { vl_fn f; il_fn g; };
const struct ops table = {
	.f = (vl_fn)y,			/* WARN y init */
	.g = y,
};
union u { vl_fn v; il_fn i; };
union u uu;

vl_fn ret(void)
{
	return (vl_fn)z;		/* WARN z return */
}

vl_fn p, q;
il_fn e, same;
int (*ll)(long long);
int (*kept)(mylong);

void code(long x)
{
	((vl_fn)y)(x);			/* WARN y cast */
	p = (vl_fn)z;			/* WARN z assign */
	take((vl_fn)y);			/* WARN y arg */
	void *vp = (void *)y;
	q = (vl_fn)vp;			/* WARN y void* */
	uu.i = y;			/* UNION y: recorded, no warning */
	e = ext;
	same = (il_fn)y;
	ll = (int (*)(long long))lng;	/* WARN lng assign */
	kept = (int (*)(mylong))lng;
}
