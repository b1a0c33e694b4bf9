/* SPDX-License-Identifier: GPL-2.0-or-later */
/* .debug_srcinfo and .kcfi_traps of one file (tables.c). */
#ifndef KCFI_AUDIT_TABLES_H
#define KCFI_AUDIT_TABLES_H

#include "audit/audit.h"

/* Read both tables into F (sorted).  0, or -1 after an error. */
int tables_read(struct audit_file *f);
/* Is AT listed in .kcfi_traps? */
bool tables_trap_listed(const struct audit_file *f, struct loc at);
/* The reason the branch at AT (LEN bytes) is exempt, or 0. */
unsigned tables_exempt(const struct audit_file *f, struct loc at, unsigned len);

/* The names recorded for ID: *N of them from the returned one (0: none;
 * more than one: different types with one id, a hash collision). */
const struct type_name *tables_type_names(const struct audit_file *f, uint32_t id, size_t *n);

/* Is AT inside a function kcfi-as instrumented (KCFI_RANGE_INSTRUMENTED)? */
bool tables_instrumented(const struct audit_file *f, struct loc at);

#endif
