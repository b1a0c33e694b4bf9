/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which branches a call-site directive (.kcfi_call, .kcfi_call_unchecked,
 * .kcfi_call_direct, .kcfi_branch_nocall) may annotate. */
#ifndef KCFI_ASMPASS_ANNOT_H
#define KCFI_ASMPASS_ANNOT_H

#include <stdbool.h>

#include "asmpass/arch.h"
#include "asmpass/directive.h"

/* Is a branch of class CLS what directive KIND may annotate? */
bool annot_kind_ok(enum kcfi_dir kind, enum insn_class cls);
/* May statements come between directive KIND and its branch?  GCC prints
 * some branches as the last statement of a pattern (jump tables, x86 TLS). */
bool annot_lenient(enum kcfi_dir kind);
/* CLS for messages: "an indirect call". */
const char *annot_class_name(enum insn_class cls);
/* What directive KIND must annotate, for messages. */
const char *annot_wants(enum kcfi_dir kind);

#endif
