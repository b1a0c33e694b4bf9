/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The options tables: each tool's options are declared once, in TOOL.opt
 * (driver/kcfi-gcc.opt, asmpass/kcfi-as.opt, audit/kcfi-audit.opt,
 * tools/kcfi-typeid.opt, prepass/plugin.opt), and scripts/optgen.awk makes
 * of each a TOOL-opts.h with an array of these, the --help text and the
 * manual page's entries.  Plain C data, read by C and by the plugin's C++. */
#ifndef KCFI_OPTS_H
#define KCFI_OPTS_H

#include <stdbool.h>
#include <string.h>

enum kcfi_opt_kind {
	KCFI_OPT_FLAG,			/* exactly the spelling */
	KCFI_OPT_JOINED,		/* the spelling, then the value: --top=N */
	KCFI_OPT_SEPARATE,		/* the spelling; the value is the next word */
	KCFI_OPT_JOINED_OR_SEPARATE,	/* -BDIR or -B DIR */
};

enum kcfi_opt_action {
	KCFI_OPT_ACCEPTED,	/* the tool's own */
	KCFI_OPT_TRANSLATED,	/* replaced by other options */
	KCFI_OPT_DROPPED,	/* taken off the command line */
	KCFI_OPT_REFUSED,	/* an error (reason) */
	KCFI_OPT_PASSED,	/* read, and passed on unchanged */
	KCFI_OPT_INTERNAL,	/* between our own tools only */
};

struct kcfi_opt {
	const char *spelling;
	enum kcfi_opt_kind kind;
	enum kcfi_opt_action action;
	int id;
	const char *reason;	/* why it is refused */
};

/* The option of TABLE (ended by a null spelling) that ARG is, the longest
 * spelling that matches; *VALUE: the joined value, or NULL (a flag, or a
 * separate value, which is the next word).  NULL if none matches. */
static inline const struct kcfi_opt *kcfi_opt_find(const struct kcfi_opt *table, const char *arg,
						   const char **value)
{
	const struct kcfi_opt *best = 0;
	size_t best_len = 0;
	for (const struct kcfi_opt *o = table; o->spelling; o++) {
		size_t len = strlen(o->spelling);
		bool exact = !strcmp(arg, o->spelling);
		bool prefix = !strncmp(arg, o->spelling, len);
		bool match = o->kind == KCFI_OPT_FLAG || o->kind == KCFI_OPT_SEPARATE ? exact :
			     o->kind == KCFI_OPT_JOINED ? prefix && (len && o->spelling[len - 1] == '=' ?
								     true : !exact) :
			     prefix;
		if (match && (!best || len > best_len)) {
			best = o;
			best_len = len;
		}
	}
	if (value)
		*value = !best || best->kind == KCFI_OPT_FLAG || best->kind == KCFI_OPT_SEPARATE ||
				 (best->kind == KCFI_OPT_JOINED_OR_SEPARATE && !arg[best_len]) ?
				 0 : arg + best_len;
	return best;
}

/* The entry of TABLE with id ID (the first one). */
static inline const struct kcfi_opt *kcfi_opt_by_id(const struct kcfi_opt *table, int id)
{
	for (const struct kcfi_opt *o = table; o->spelling; o++)
		if (o->id == id)
			return o;
	return 0;
}

#endif
