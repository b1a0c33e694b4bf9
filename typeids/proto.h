/* The prototype-language parser (grammar/proto.l, grammar/proto.y): text in,
 * interned ctype out.  The language is doc/directives.md section 4.
 */
#ifndef KCFI_TYPEIDS_PROTO_H
#define KCFI_TYPEIDS_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#include "typeids/ctype.h"

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

/* State shared by the scanner and the parser of one prototype. */
struct proto_ctx {
	const char *text;
	size_t len;
	struct ctype_table *types;	/* the arena and the error record */
	const struct ctype *result;
	size_t pos;			/* bytes scanned so far */
	unsigned nest;			/* open ( and [ */
};

/* Parse TEXT[0..LEN) as one type name.  Returns the type, or NULL with the
 * error recorded in TYPES. */
const struct ctype *proto_parse(struct ctype_table *types, const char *text, size_t len);

#endif
