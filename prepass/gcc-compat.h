/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What differs between the GCC versions the plugin is built for (11, 12 in
 * CI; 13 and 14 are meant to be a configure away).  One place for every
 * version test, one shim or feature macro per difference, each saying what
 * changed in which GCC.  The rest of prepass/ tests these macros only.
 *
 * BUILDING_GCC_MAJOR comes from the plugin headers (bversion.h through
 * gcc-plugin.h); it is the version of the cc1 that will load the plugin,
 * and configure builds every plugin with that version's own g++.
 *
 * GCC 11 against 12: nothing the plugin uses changed its spelling; the
 * plugin compiles unchanged.  What differs at run time (tail merging,
 * ICF, sibcalls) is covered by `make check-gcc11`, not by shims here.
 */
#ifndef KCFI_GCC_COMPAT_H
#define KCFI_GCC_COMPAT_H

#include "bversion.h"

#if BUILDING_GCC_MAJOR < 11
#error "kcfi: the plugin supports GCC 11 and later"
#endif

/* _BitInt(N): the BITINT_TYPE tree code is new in GCC 14 (C23).  Older
   compilers have no such type to name (typename.cc).  */
#define KCFI_HAVE_BITINT_TYPE (BUILDING_GCC_MAJOR >= 14)

/* The C front end's diagnostic finalizer (typeinfo-diag.cc): GCC 11 to 13
   have diagnostic_context::end_diagnostic of type
   void (*) (diagnostic_context *, diagnostic_info *, diagnostic_t), read
   and set through the diagnostic_finalizer (DC) macro of diagnostic.h.
   GCC 14 made diagnostic_context a class with m_ members and changed the
   finalizer's signature; there nothing is wrapped (misuse of the typeinfo
   builtins is still an error, with GCC's own follow-on messages).  The
   user also tests defined (diagnostic_finalizer) after diagnostic.h.  */
#define KCFI_HAVE_DIAGNOSTIC_FINALIZER \
  (BUILDING_GCC_MAJOR >= 11 && BUILDING_GCC_MAJOR <= 13)

#endif
