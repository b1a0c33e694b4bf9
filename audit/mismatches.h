/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-audit --mismatches (mismatches.c). */
#ifndef KCFI_AUDIT_MISMATCHES_H
#define KCFI_AUDIT_MISMATCHES_H

#include <stdbool.h>

/* Read the KCFI_CONVERSION records of PATHS[0..N) and print the places,
 * deduplicated and ranked, then the summary line.  Exit status: 0 none,
 * 1 some, 2 a file could not be read.  UNION_STORES: list the union
 * records too (else only counted). */
int mismatches_report(char *const *paths, int n, bool union_stores);

#endif
