/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Functions a unit defines under another name with .symver NAME@@VERSION. */
#ifndef KCFI_SYMVER_H
#define KCFI_SYMVER_H

#include <stdbool.h>
#include <stdint.h>

#include "asmpass/stmt.h"

struct symver_entry {
	char *local;		/* the defined symbol (new_foo) */
	char *name;		/* the name it is the default version of (foo) */
	bool defined;		/* .kcfi_func local came, typed */
	uint32_t id;		/* its preamble's id, once defined */
};

struct symver_table {
	struct symver_entry *v;
	size_t n, cap;
};

/* The operands of a .symver directive: remembered when they make LOCAL
 * the default version (@@ or @@@) of a name. */
void symver_note(struct symver_table *st, struct slice args);
/* .kcfi_func LOCAL with a preamble of ID. */
void symver_defined(struct symver_table *st, struct slice local, uint32_t id);
/* The local definition that NAME's references bind to in this unit, with a
 * preamble of ID, or NULL. */
const char *symver_local_for(const struct symver_table *st, struct slice name, uint32_t id);
void symver_free(struct symver_table *st);

#endif
