/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verify.c: the checks that are not per branch. */
#ifndef KCFI_AUDIT_VERIFY_H
#define KCFI_AUDIT_VERIFY_H

#include "audit/audit.h"

void verify_traps(struct audit_file *f);
void verify_preambles(struct audit_file *f);

#endif
