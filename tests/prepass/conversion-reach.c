// SPDX-License-Identifier: GPL-2.0-or-later
/* Conversion records only from code the unit can contain
 * (tests/prepass/conversion-reach.sh): places in static inline functions
 * and static variables that GCC drops unused, as Linux's headers have them
 * (clear_page's clear_page_orig...), write nothing; places in code that is
 * emitted, inlined or cloned, and in variables whose value code reads,
 * write their records: the lines marked R, one kind:function each; a
 * function only declared (decl) at the first place that is written. */
typedef void (*vf)(long);
typedef int (*il)(long);
extern int gone(long);
extern int gone_decl(long);
extern int inl(long);
extern int noinl(long);
extern int clone(long);
extern int later(long);
extern int var(long);
extern int unread(long);
extern int folded(long);
vf sink;
void take(vf f);
union u { vf v; il i; };
union u uu;

/* Never called: nothing of these reaches the object, of any kind.  */
static inline vf unused(void)
{
	take((vf)gone);
	sink = (vf)gone;
	uu.i = gone;
	void *p = (void *)gone;
	sink = (vf)p;
	static vf keep = (vf)gone;
	sink = keep;
	(void)&gone_decl;
	(void)&later;
	return (vf)gone;
}
/* Called only by a function that is never called.  */
static inline void chained(void) { sink = (vf)gone; }
static inline void unused2(void) { chained(); }

static inline void inlined(void) { sink = (vf)inl; }	/* R assign:inl decl:inl */
static __attribute__((noinline)) void kept(void) { sink = (vf)noinl; }	/* R assign:noinl decl:noinl */
static __attribute__((noinline)) void cloned(int k) { if (k) sink = (vf)clone; }	/* R assign:clone decl:clone */
static vf out = (vf)var;	/* R init:var decl:var */
/* Nobody reads nobody; ops is read, and its value folded into user as
   GCC gimplifies: neither is output at -O2, both are written (see
   conversions.cc).  */
static const vf nobody = (vf)unread;	/* R init:unread decl:unread */
struct ops { vf f; int n; };
static const struct ops ops = { .f = (vf)folded, .n = 1 };	/* R init:folded decl:folded */

vf *user(void)
{
	inlined();
	kept();
	cloned(1);
	sink = (vf)later;	/* R assign:later decl:later */
	sink = ops.f;
	return &out;
}
