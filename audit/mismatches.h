/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcfi-audit --mismatches (mismatches.c). */
#ifndef KCFI_AUDIT_MISMATCHES_H
#define KCFI_AUDIT_MISMATCHES_H

/* Read the KCFI_CONVERSION records of PATHS[0..N) and print the places,
 * deduplicated and ranked, then the summary line.  Exit status: 0 none,
 * 1 some, 2 a file could not be read. */
int mismatches_report(char *const *paths, int n);

#endif
