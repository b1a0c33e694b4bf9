/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The prototype-language parser (grammar/proto.l, grammar/proto.y): text in,
 * interned ctype out.  The language is doc/directives.md section 4.
 */
#ifndef KCFI_TYPEIDS_PROTO_H
#define KCFI_TYPEIDS_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#include "typeids/ctype.h"
#include "typeids/type-memo.h"

/* Longer prototypes are rejected before any parsing; the longest one in a
 * Linux build is a few hundred bytes. */
#define PROTO_MAX_LEN 65536
/* Open ( and [ allowed at once: deeper nesting is hostile, not C. */
#define PROTO_MAX_NEST 64

/* A token's or rule's place in the text: 1-based byte columns, inclusive.
 * Eight bytes, because the parser copies one per shift and reduction. */
struct proto_span {
	unsigned first, last;
};

/* What parse.c remembers across the prototypes of a TU (type-memo.h). */
struct proto_memo {
	struct type_memo params;	/* parameter declarations, as adjusted */
	struct type_memo returns;	/* R of the shapes parse.c puts together */
	unsigned long assembled;	/* prototypes put together from known pieces */
};

/* A tag the prototype named, and where (the memo entries keep them). */
struct proto_named_tag {
	const struct ctype *tag;
	unsigned column;
};

/* State shared by the scanner and the parser of one prototype. */
struct proto_ctx {
	const char *text;
	size_t len;
	struct ctype_table *types;	/* the arenas and the error record */
	const struct ctype *result;
	size_t pos;			/* bytes scanned so far */
	unsigned nest;			/* open ( and [ */

	/* All unused when MEMO is NULL. */
	struct proto_memo *memo;
	bool start_param;		/* parse one parameter declaration from POS */
	char *copy;			/* what the scanner reads: TEXT from COPY_FROM on, two NULs */
	size_t copy_from;
	int last_token;
	const struct type_memo_entry *pending;	/* the next token is this parameter */
	struct proto_span pending_at;
	struct proto_named_tag *tags;	/* in text order */
	size_t ntags, tags_cap;
	unsigned last_vla;		/* column of the last [*] (0: none) */
};

/* Parse TEXT[0..LEN) as one type name, using and filling MEMO unless it is
 * NULL (its nodes must be TYPES's).  Returns the type, or NULL with the
 * error recorded in TYPES. */
const struct ctype *proto_parse(struct ctype_table *types, struct proto_memo *memo,
				const char *text, size_t len);

/* For the parser's actions: TAG was named at COLUMN; a parameter spanning
 * AT was read and has type TYPE (remembered unless memo rules exclude it). */
bool proto_note_tag(struct proto_ctx *ctx, const struct ctype *tag, unsigned column);
void proto_note_param(struct proto_ctx *ctx, struct proto_span at, const struct ctype *type);

#endif
