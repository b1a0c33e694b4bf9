/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Symbol names as the input writes them (quoted or not), and the names and
 * aliases kcfi-as derives from them. */
#ifndef KCFI_ASMPASS_SYMBOL_H
#define KCFI_ASMPASS_SYMBOL_H

#include <stdbool.h>

#include "asmpass/sink.h"
#include "asmpass/stmt.h"

/* S without the quotes a symbol may be written with. */
struct slice sym_unquoted(struct slice s);
bool sym_same(struct slice a, struct slice b);
/* PREFIX + NAME as a symbol, quoted if NAME had to be; NUL-terminated in
 * SCRATCH, valid until its next use. */
const char *sym_prefixed(struct buf *scratch, const char *prefix, struct slice name);
/* The lines that define __kcfi_stub_NAME as a hidden alias of TARGET with
 * BINDING (".globl", ".weak"), into OUT (doc/extern-stubs.md). */
void sym_stub_alias(struct buf *out, struct buf *scratch, struct slice name,
		    struct slice target, const char *binding);

#endif
