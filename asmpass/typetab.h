/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-TU table of .kcfi_type definitions: each prototype is parsed,
 * mangled and hashed once, then referenced by number. */
#ifndef KCFI_ASMPASS_TYPETAB_H
#define KCFI_ASMPASS_TYPETAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "typeids/typeid.h"

struct type_entry {
	bool defined;
	bool unprototyped;
	bool used;			/* by a preamble, check or __kcfi_typeid_ */
	uint32_t id;
	unsigned long line;		/* of its definition */
	char *mangled;			/* "_ZTSFvPiE", for the name records */
};

struct typetab {
	struct type_entry *v;
	size_t cap;
	struct kcfi_typeids *typeids;	/* the TU's types, made on first use */
};

void typetab_free(struct typetab *t);
/* NULL if ID was never defined. */
const struct type_entry *typetab_get(const struct typetab *t, unsigned id);
/* Define ID as TEXT, written at LINE.  Returns 0; or -1 with ERR filled
 * (parse errors carry a column into TEXT; a conflicting redefinition has
 * column 0). */
int typetab_define(struct typetab *t, unsigned id, const char *text, size_t len,
		   unsigned long line, const struct kcfi_typeid_opts *opts,
		   struct kcfi_type_error *err);

/* The TU's type cache, for types that are no .kcfi_type (made on first
 * use). */
struct kcfi_typeids *typetab_typeids(struct typetab *t);

struct sink;
/* ID as a directive that puts it into code or a symbol needs it: its entry,
 * recorded as used (typetab_use), or NULL if no .kcfi_type defined it, for
 * the message TYPETAB_UNDEFINED (the directive's name, ID). */
const struct type_entry *typetab_need(struct typetab *t, unsigned id);
#define TYPETAB_UNDEFINED "%s refers to type %u, which no .kcfi_type defined"
/* ID (defined) goes into code or a symbol: its name is recorded. */
void typetab_use(struct typetab *t, unsigned id);
/* The KCFI_TYPE_NAME records (common/exempt.h) of the used types into
 * .debug_srcinfo, one per distinct id and name, so that kcfi-audit can
 * name the type behind an id, as the code of ARCH holds it (arch_code_id()). */
struct kcfi_arch;
void typetab_write_names(const struct typetab *t, struct sink *out,
			 const struct kcfi_arch *arch);

#endif
