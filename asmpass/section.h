/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which section the assembler is in, modelled from the section directives.
 *
 * Trap-table entries are SHF_LINK_ORDER sections linked to the code section
 * that holds the trap, so the core must always know that section's name (and
 * its COMDAT group, if any).  The model follows GNU as: .section/.text/.data/
 * .bss switch, .pushsection/.popsection nest, .previous swaps with the
 * previous section.  Subsections do not change the section.
 */
#ifndef KCFI_ASMPASS_SECTION_H
#define KCFI_ASMPASS_SECTION_H

#include <stdbool.h>
#include <stddef.h>

struct section {
	char *name;		/* ".text", ".text.foo" */
	char *group;		/* COMDAT group signature, or NULL */
	size_t name_cap, group_cap;
};

struct section_state {
	struct section cur, prev;
	struct section *stack;	/* .pushsection: saved (cur, prev) pairs */
	size_t depth, cap;
};

void section_state_init(struct section_state *s);
void section_state_free(struct section_state *s);

/* Apply one directive.  NAME is the directive without its dot ("section",
 * "pushsection", "text", ...), ARGS its operand text.  Returns 1 if the
 * directive was a section directive, 0 if not, -1 if it was malformed
 * (MSG then says why). */
int section_apply(struct section_state *s, const char *name, size_t name_len,
		  const char *args, size_t args_len, const char **msg);

/* A 64-bit key of S (name and group), to tell sections apart without
 * keeping their names. */
unsigned long long section_hash(const struct section *s);

#endif
