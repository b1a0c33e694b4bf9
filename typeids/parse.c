/* Runs the flex scanner and the bison parser of grammar/ over one prototype. */
#include "config.h"

#include <string.h>

#include "typeids/proto.h"
#include "grammar/proto-parse.h"
/* Without this, proto-lex.h would declare the scanner as yylex(yyscan_t);
 * its real signature, with the parser's value and location, is the one in
 * proto-parse.h. */
#define YY_DECL int kcfi_proto_lex(KCFI_PROTO_STYPE *, struct proto_span *, void *)
/* The header repeats the scanner's warning pragmas: keep them out of here. */
#pragma GCC diagnostic push
#include "grammar/proto-lex.h"
#pragma GCC diagnostic pop

const struct ctype *proto_parse(struct ctype_table *types, const char *text, size_t len)
{
	if (len > PROTO_MAX_LEN)
		return ctype_error(types, 0, "prototype longer than %d bytes", PROTO_MAX_LEN);
	if (!text) {
		if (len)
			return ctype_error(types, 0, "no prototype text");
		text = "";
	}

	struct proto_ctx ctx = { .text = text, .len = len, .types = types };
	yyscan_t scanner;
	if (kcfi_proto_lex_init_extra(&ctx, &scanner))
		return ctype_error(types, 0, "out of memory");
	/* flex scans a writable copy ending in two NULs; yy_scan_bytes would
	 * make it one byte at a time. */
	char *copy = arena_zalloc(types->arena, len + 2);
	if (!copy) {
		kcfi_proto_lex_destroy(scanner);
		return ctype_error(types, 0, "out of memory");
	}
	memcpy(copy, text, len);
	YY_BUFFER_STATE buf = kcfi_proto__scan_buffer(copy, len + 2, scanner);
	int rc = buf ? kcfi_proto_parse(scanner, &ctx) : 2;
	if (buf)
		kcfi_proto__delete_buffer(buf, scanner);
	kcfi_proto_lex_destroy(scanner);

	if (rc == 0 && !types->failed)
		return ctx.result;
	/* Every failing path records its own message; this is a backstop so
	 * that a failure can never be silent. */
	return ctype_error(types, 0, rc == 2 ? "out of memory" : "invalid prototype");
}
