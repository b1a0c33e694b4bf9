/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Types that recur across prototypes, as parameters, as return types and
   as whole function types: the plugin prints each once and reuses the
   text (reused-types.sh).  */

/* Truly anonymous tags, shared through __typeof__: the same type nodes in
   every prototype below, in different orders and positions.  */
struct { int a; } *anon_s;
union { int b; } *anon_u;
typedef __typeof__ (anon_s) S;
typedef __typeof__ (anon_u) U;

extern void su (S, U);
extern void us (U, S);
extern void uu (U, U, int);
extern S ret_s (U);
extern U (*ret_fp (S)) (U, S);
extern void nested (void (*) (U, S), S);

/* Unwritable types: Clang returns the array a transparent union begins
   with.  Every prototype with one is an error of its own, once, even when
   the same function type was seen before.  */
typedef union __attribute__ ((transparent_union)) { long a[1]; long l; } tu_arr; typedef tu_arr bad_ft (S);
extern tu_arr bad1 (int);
extern tu_arr bad2 (int, S);
extern bad_ft bad3;
extern bad_ft bad4;
extern void good_after (int, long);

/* A function type shared by a declaration, a definition and a call.  */
typedef int op (int, S);
extern op op_decl;
int op_def (int x, S s) { return x + (s ? s->a : 0); }
int call_op (op *f, S s) { return f (1, s); }

#ifndef WITH_ERRORS
void *table[] = { su, us, uu, ret_s, ret_fp, nested, good_after, op_decl };
#else
void *table[] = { su, us, uu, ret_s, ret_fp, nested, bad1, bad2, bad3, bad4,
		  good_after, op_decl };
#endif
