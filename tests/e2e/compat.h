/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Cross-unit (and cross-compiler) KCFI: the caller unit and the target unit
   see the targets through this one header, so they agree on every type —
   unless COMPAT_MISMATCH makes the target unit define scale() with another
   parameter type than the caller believes.  */
#ifndef COMPAT_H
#define COMPAT_H

struct span { const char *text; unsigned long len; };

typedef int (*unary_fn) (int);
typedef int (*binary_fn) (int, int);
typedef int (*load_fn) (int *);
typedef unsigned long (*measure_fn) (const char *, struct span *);

#ifdef COMPAT_MISMATCH
#define SCALE_ARG long
#else
#define SCALE_ARG int
#endif

extern int add_one (int);
extern int sum (int, int);
extern int scale (SCALE_ARG);
extern int product (int, int);
/* The const of the parameter itself is not part of the function type.  */
extern int load (int *const);
extern unsigned long measure (const char *, struct span *);

extern int run_calls (void);

#endif
