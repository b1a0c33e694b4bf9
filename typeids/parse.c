/* Runs the flex scanner and the bison parser of grammar/ over one prototype,
 * with the memos of type-memo.h in front: a prototype `R (P, ...)` whose
 * pieces the grammar has all read before is put together from them, and a
 * known parameter inside a new prototype reaches the parser as one token.
 * Either way the result is the node a full parse makes (types are
 * hash-consed), and the errors are its errors. */
#include "config.h"

#include <string.h>

#include "typeids/proto.h"
#include "grammar/proto-parse.h"
/* Without this, proto-lex.h would declare the scanner as yylex(yyscan_t);
 * its real signature, with the parser's value and location, is this one.
 * kcfi_proto_lex, which the parser calls, is the wrapper below. */
#define YY_DECL int kcfi_proto_scan(KCFI_PROTO_STYPE *, struct proto_span *, void *)
/* The header repeats the scanner's warning pragmas: keep them out of here. */
#pragma GCC diagnostic push
#include "grammar/proto-lex.h"
#pragma GCC diagnostic pop
YY_DECL;

/* What matters to finding where a declaration ends (blanks only at its
 * ends: they sort before the brackets, which end a fast skip). */
enum { PX_OTHER, PX_SPACE, PX_OPEN, PX_CLOSE_PAREN, PX_CLOSE_BRACKET, PX_COMMA };
static const unsigned char px_class[256] = {
	['('] = PX_OPEN, ['['] = PX_OPEN, [')'] = PX_CLOSE_PAREN, [']'] = PX_CLOSE_BRACKET,
	[','] = PX_COMMA, [' '] = PX_SPACE, ['\t'] = PX_SPACE, ['\r'] = PX_SPACE,
	['\n'] = PX_SPACE, ['\f'] = PX_SPACE, ['\v'] = PX_SPACE,
};

/* What the scanner's identifiers are made of. */
static bool word_char(unsigned char c)
{
	return c == '_' || c == '$' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static bool starts_word(unsigned char c)
{
	return c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* One declaration of a parameter list: [start, end) without the blanks
 * around it, and the hash of that. */
struct piece {
	size_t start, end;
	uint32_t hash;
};

/* The declaration from *POS (just after a `(` or `,`) to the `,` or `)`
 * closing it at its own level, which *POS is left at.  False when it is
 * not closed so. */
static bool next_piece(const struct proto_ctx *ctx, size_t *pos, struct piece *out)
{
	const unsigned char *t = (const unsigned char *)ctx->text;
	size_t i = *pos, n = ctx->len;
	while (i < n && px_class[t[i]] == PX_SPACE)
		i++;
	size_t start = i;
	unsigned depth = 0;
	for (;; i++) {
		/* The text's NUL-free end is not a sentinel: bound every step. */
		while (i < n && px_class[t[i]] <= PX_SPACE)
			i++;
		if (i == n)
			return false;
		switch (px_class[t[i]]) {
		case PX_OPEN:
			depth++;
			continue;
		case PX_CLOSE_BRACKET:
			if (!depth)
				return false;
			depth--;
			continue;
		case PX_CLOSE_PAREN:
			if (!depth)
				break;
			depth--;
			continue;
		case PX_COMMA:
			if (!depth)
				break;
			continue;
		}
		break;
	}
	size_t end = i;
	while (end > start && px_class[t[end - 1]] == PX_SPACE)
		end--;
	*out = (struct piece){ start, end, type_memo_hash(ctx->text + start, end - start) };
	*pos = i;
	return true;
}

static const struct type_memo_entry *find(const struct proto_ctx *ctx, const struct type_memo *m,
					  const struct piece *p)
{
	return type_memo_find(m, ctx->text + p->start, p->end - p->start, p->hash);
}

static bool piece_is(const struct proto_ctx *ctx, const struct piece *p, const char *s)
{
	size_t n = strlen(s);
	return p->end - p->start == n && memcmp(ctx->text + p->start, s, n) == 0;
}

/* ---- prototypes made of known pieces ---- */

/* Prototypes with more parameters are parsed. */
#define SHAPE_MAX_PARAMS 32

/* `R (P1, ..., Pn)` with no bracket in R and nothing after the `)`. */
struct shape {
	struct piece ret;
	size_t open;			/* the `(` */
	size_t nparams;
	struct piece params[SHAPE_MAX_PARAMS];
	bool ret_known;			/* R is in the memo already */
};

/* Whether the `(` at OPEN belongs to a specifier (`__vector(4)`, `_BitInt(7)`,
 * `_Atomic(int)`): the word before it says, as it does for the scanner
 * (`_Atomic` followed by `(` is the specifier, not the qualifier). */
static bool specifier_paren(const struct proto_ctx *ctx, size_t start, size_t open)
{
	static const char *const words[] = { "__vector", "_BitInt", "_Atomic" };
	size_t end = open;
	while (end > start && px_class[(unsigned char)ctx->text[end - 1]] == PX_SPACE)
		end--;
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		size_t n = strlen(words[i]);
		if (end - start >= n && !memcmp(ctx->text + end - n, words[i], n) &&
		    (end - start == n || !word_char((unsigned char)ctx->text[end - n - 1])))
			return true;
	}
	return false;
}

static bool find_shape(const struct proto_ctx *ctx, struct shape *s)
{
	const unsigned char *t = (const unsigned char *)ctx->text;
	size_t i = 0, n = ctx->len;
	while (i < n && px_class[t[i]] == PX_SPACE)
		i++;
	s->ret = (struct piece){ i, i, 0 };
	unsigned depth = 0;	/* inside a specifier's parentheses */
	for (; i < n; i++) {
		switch (px_class[t[i]]) {
		case PX_SPACE:
			continue;
		case PX_OPEN:
			if (t[i] == '[')
				return false;
			if (!depth && !specifier_paren(ctx, s->ret.start, i))
				goto params;
			depth++;
			break;
		case PX_CLOSE_PAREN:
			if (!depth--)
				return false;
			break;
		case PX_COMMA:
		case PX_CLOSE_BRACKET:
			if (!depth)
				return false;
			break;
		}
		s->ret.end = i + 1;
	}
	return false;
params:
	if (s->ret.end == s->ret.start)
		return false;
	s->ret.hash = type_memo_hash(ctx->text + s->ret.start, s->ret.end - s->ret.start);
	s->open = i;
	s->nparams = 0;
	for (;;) {
		if (s->nparams == SHAPE_MAX_PARAMS)
			return false;
		i++;
		if (!next_piece(ctx, &i, &s->params[s->nparams++]))
			return false;
		if (t[i] == ')')
			break;
	}
	for (i++; i < n; i++)
		if (px_class[t[i]] != PX_SPACE)
			return false;
	return true;
}

/* The parameters of S: *COUNT of them, KNOWN[i] from the memo or NULL, and
 * how the list reads.  False when a known one would nest too deep here. */
static bool params_of(struct proto_ctx *ctx, const struct shape *s,
		      const struct type_memo_entry **known, size_t *count,
		      bool *prototyped, bool *variadic)
{
	size_t n = s->nparams;
	*prototyped = true;
	*variadic = false;
	if (n == 1 && s->params[0].start == s->params[0].end) {
		*prototyped = false;	/* T () */
		n = 0;
	} else if (n == 1 && piece_is(ctx, &s->params[0], "void")) {
		n = 0;
	} else if (piece_is(ctx, &s->params[n - 1], "...")) {
		*variadic = true;
		n--;
	}
	for (size_t i = 0; i < n; i++) {
		known[i] = find(ctx, &ctx->memo->params, &s->params[i]);
		if (known[i] && known[i]->nest + 1 > PROTO_MAX_NEST)
			return false;
	}
	*count = n;
	return true;
}

static const struct type_memo_entry *parse_return(struct proto_ctx *ctx, const struct shape *s);
static const struct ctype *parse_param(struct proto_ctx *ctx, const struct piece *p);

/* The prototype S put together from its pieces, in text order as a parse
 * would meet them: known ones from the memos, the others read on their own
 * by the grammar (and so known from now on).  NULL, with no error, when a
 * piece does not come out so: the whole prototype is then parsed for the
 * error it really has (or for a type no piece can stand for alone, such as
 * a VLA or void). */
static const struct ctype *assemble(struct proto_ctx *ctx, struct shape *s)
{
	const struct type_memo_entry *known[SHAPE_MAX_PARAMS];
	size_t n;
	bool prototyped, variadic;
	if (!params_of(ctx, s, known, &n, &prototyped, &variadic))
		return NULL;
	const struct type_memo_entry *ret = find(ctx, &ctx->memo->returns, &s->ret);
	s->ret_known = ret;

	struct kcfi_type_error *err = ctx->types->err, discarded;
	ctx->types->err = &discarded;
	bool ok = ret || (ret = parse_return(ctx, s));
	for (size_t i = 0; ok && i < ret->ntags; i++)
		ok = ctype_tag_named(ctx->types, ret->tags[i].tag,
				     (unsigned)s->ret.start + 1 + ret->tags[i].offset);
	const struct ctype *types[SHAPE_MAX_PARAMS];
	for (size_t i = 0; ok && i < n; i++) {
		if (!known[i]) {
			ok = (types[i] = parse_param(ctx, &s->params[i]));
			continue;
		}
		for (size_t j = 0; ok && j < known[i]->ntags; j++)
			ok = ctype_tag_named(ctx->types, known[i]->tags[j].tag,
					     (unsigned)s->params[i].start + 1 + known[i]->tags[j].offset);
		types[i] = known[i]->type;
	}
	if (!ok) {
		ctype_table_next(ctx->types, err);
		ctx->ntags = 0;
		return NULL;
	}
	ctx->types->err = err;
	ctx->memo->assembled++;
	return ctype_function_once(ctx->types, ret->type, types, n, variadic, prototyped,
				   CC_DEFAULT, (unsigned)s->open + 1);
}

/* Remember R of S as TYPE, with the tags named in it. */
static const struct type_memo_entry *note_return(struct proto_ctx *ctx, const struct shape *s,
						 const struct ctype *type)
{
	unsigned first = (unsigned)s->ret.start + 1, last = (unsigned)s->ret.end;
	struct type_memo_tag tags[8];
	size_t ntags = 0;
	for (size_t i = 0; i < ctx->ntags && ctx->tags[i].column <= last; i++) {
		if (ntags == sizeof(tags) / sizeof(*tags))
			return NULL;		/* not worth remembering */
		tags[ntags++] = (struct type_memo_tag){ ctx->tags[i].tag,
							ctx->tags[i].column - first };
	}
	const char *text = ctx->text + s->ret.start;
	size_t len = s->ret.end - s->ret.start;
	if (!type_memo_add(&ctx->memo->returns, text, len, type, 0, tags, ntags))
		return NULL;
	return type_memo_find(&ctx->memo->returns, text, len, s->ret.hash);
}

static const struct ctype *parse(struct proto_ctx *ctx);

/* R of S, read by the grammar on its own as the type name it is.  The text
 * handed over is the prototype's own up to R's end, so that columns stay
 * the prototype's. */
static const struct type_memo_entry *parse_return(struct proto_ctx *ctx, const struct shape *s)
{
	struct proto_ctx r = { .text = ctx->text, .len = s->ret.end, .types = ctx->types,
			       .memo = ctx->memo };
	const struct ctype *type = parse(&r);
	ctx->tags = r.tags;
	ctx->ntags = r.ntags;
	ctx->tags_cap = r.tags_cap;
	return type ? note_return(ctx, s, type) : NULL;
}

/* Parameter P of a prototype, read by the grammar on its own, with the
 * columns and nesting it has in the prototype: its adjusted type, which the
 * parse also remembered if it could.  NULL for a void one: whether that is
 * `(void)` or an error is the whole prototype's business. */
static const struct ctype *parse_param(struct proto_ctx *ctx, const struct piece *p)
{
	struct proto_ctx q = {
		.text = ctx->text, .len = p->end, .pos = p->start, .nest = 1,
		.types = ctx->types, .memo = ctx->memo, .start_param = true,
		.tags = ctx->tags, .ntags = ctx->ntags, .tags_cap = ctx->tags_cap,
		.last_vla = ctx->last_vla,
	};
	const struct ctype *type = parse(&q);
	ctx->tags = q.tags;
	ctx->ntags = q.ntags;
	ctx->tags_cap = q.tags_cap;
	return type && !ctype_is_void(ctype_unqualified(type)) ? type : NULL;
}

/* ---- known parameters inside a parse ---- */

/* After a `(` that opens a parameter list, or a `,`: if the parameter there
 * is known, the scanner resumes after it and the parser gets it as one
 * token. */
static void look_up_param(struct proto_ctx *ctx, void *scanner)
{
	size_t next = ctx->pos;
	struct piece p;
	if (next >= ctx->len || !starts_word((unsigned char)ctx->text[next] ) ||
	    !next_piece(ctx, &next, &p))
		return;
	const struct type_memo_entry *e = find(ctx, &ctx->memo->params, &p);
	/* Too deep here though not where it was first read: scan it again
	 * for the scanner's own error. */
	if (!e || ctx->nest + e->nest > PROTO_MAX_NEST)
		return;
	/* Scanning on from the middle of the copy is still a buffer ending in
	 * two NULs, which is all flex asks. */
	if (!kcfi_proto__scan_buffer(ctx->copy + (next - ctx->copy_from), ctx->len - next + 2,
				     scanner))
		return;
	ctx->pos = next;
	ctx->pending = e;
	ctx->pending_at = (struct proto_span){ (unsigned)p.start + 1, (unsigned)p.end };
	ctx->memo->params.hits++;
}

/* The known parameter as a token; its tags are named here as if read. */
static int take_pending(struct proto_ctx *ctx, KCFI_PROTO_STYPE *lval, struct proto_span *lloc)
{
	const struct type_memo_entry *e = ctx->pending;
	ctx->pending = NULL;
	*lloc = ctx->pending_at;
	for (size_t i = 0; i < e->ntags; i++) {
		unsigned column = lloc->first + e->tags[i].offset;
		if (!ctype_tag_named(ctx->types, e->tags[i].tag, column) ||
		    !proto_note_tag(ctx, e->tags[i].tag, column))
			return TK_BAD;
	}
	lval->type = e->type;
	return TK_PARAM;
}

int kcfi_proto_lex(KCFI_PROTO_STYPE *lval, struct proto_span *lloc, void *scanner)
{
	struct proto_ctx *ctx = kcfi_proto_get_extra(scanner);
	if (ctx->start_param) {
		ctx->start_param = false;
		*lloc = (struct proto_span){ (unsigned)ctx->pos + 1, (unsigned)ctx->pos };
		return ctx->last_token = TK_START_PARAM;
	}
	int token = ctx->pending ? take_pending(ctx, lval, lloc)
				 : kcfi_proto_scan(lval, lloc, scanner);
	/* `(` opens a parameter list unless it belongs to _Atomic(type-name)
	 * (or to _BitInt( and __vector(, followed by a number anyway). */
	if (ctx->memo && (token == ',' || (token == '(' && ctx->last_token != TK_ATOMIC_SPEC &&
					   ctx->last_token != TK_BITINT &&
					   ctx->last_token != TK_VECTOR)))
		look_up_param(ctx, scanner);
	ctx->last_token = token;
	return token;
}

bool proto_note_tag(struct proto_ctx *ctx, const struct ctype *tag, unsigned column)
{
	if (!ctx->memo)
		return true;
	if (ctx->ntags == ctx->tags_cap) {
		size_t cap = ctx->tags_cap ? ctx->tags_cap * 2 : 16;
		struct proto_named_tag *v = arena_zalloc(ctx->types->scratch, cap * sizeof(*v));
		if (!v) {
			ctype_error(ctx->types, 0, "out of memory");
			return false;
		}
		if (ctx->ntags)
			memcpy(v, ctx->tags, ctx->ntags * sizeof(*v));
		ctx->tags = v;
		ctx->tags_cap = cap;
	}
	ctx->tags[ctx->ntags++] = (struct proto_named_tag){ tag, column };
	return true;
}

void proto_note_param(struct proto_ctx *ctx, struct proto_span at, const struct ctype *type)
{
	if (!ctx->memo || ctx->types->failed || ctype_is_void(ctype_unqualified(type)) ||
	    ctx->last_vla >= at.first)
		return;
	const char *text = ctx->text + at.first - 1;
	size_t len = at.last - at.first + 1;
	unsigned depth = 0, nest = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = px_class[(unsigned char)text[i]];
		if (c == PX_OPEN && ++depth > nest)
			nest = depth;
		else if (c == PX_CLOSE_PAREN || c == PX_CLOSE_BRACKET)
			depth--;
	}
	/* Its tags are the last ones named (the log is in text order). */
	size_t first = ctx->ntags;
	while (first && ctx->tags[first - 1].column >= at.first)
		first--;
	size_t ntags = ctx->ntags - first;
	struct type_memo_tag *tags = NULL;
	if (ntags) {
		tags = arena_zalloc(ctx->types->scratch, ntags * sizeof(*tags));
		if (!tags)
			return;
		for (size_t i = 0; i < ntags; i++)
			tags[i] = (struct type_memo_tag){ ctx->tags[first + i].tag,
							  ctx->tags[first + i].column - at.first };
	}
	type_memo_add(&ctx->memo->params, text, len, type, nest, tags, ntags);
}

/* The grammar's parse of the whole text. */
static const struct ctype *parse(struct proto_ctx *ctx)
{
	struct ctype_table *types = ctx->types;
	yyscan_t scanner;
	if (kcfi_proto_lex_init_extra(ctx, &scanner))
		return ctype_error(types, 0, "out of memory");
	/* flex scans a writable copy ending in two NULs; yy_scan_bytes would
	 * make it one byte at a time.  Only TEXT from POS on is scanned. */
	size_t n = ctx->len - ctx->pos;
	ctx->copy = arena_zalloc(types->scratch, n + 2);
	if (!ctx->copy) {
		kcfi_proto_lex_destroy(scanner);
		return ctype_error(types, 0, "out of memory");
	}
	memcpy(ctx->copy, ctx->text + ctx->pos, n);
	ctx->copy_from = ctx->pos;
	int rc = kcfi_proto__scan_buffer(ctx->copy, n + 2, scanner)
		 ? kcfi_proto_parse(scanner, ctx) : 2;
	kcfi_proto_lex_destroy(scanner);

	if (rc == 0 && !types->failed)
		return ctx->result;
	/* Every failing path records its own message; this is a backstop so
	 * that a failure can never be silent. */
	return ctype_error(types, 0, rc == 2 ? "out of memory" : "invalid prototype");
}

const struct ctype *proto_parse(struct ctype_table *types, struct proto_memo *memo,
				const char *text, size_t len)
{
	if (len > PROTO_MAX_LEN)
		return ctype_error(types, 0, "prototype longer than %d bytes", PROTO_MAX_LEN);
	if (!text) {
		if (len)
			return ctype_error(types, 0, "no prototype text");
		text = "";
	}

	struct proto_ctx ctx = { .text = text, .len = len, .types = types, .memo = memo };
	if (!memo)
		return parse(&ctx);
	struct shape s;
	bool shaped = find_shape(&ctx, &s);
	if (shaped) {
		const struct ctype *type = assemble(&ctx, &s);
		if (type || types->failed)
			return type;
	}
	const struct ctype *type = parse(&ctx);
	if (type && shaped && !s.ret_known && type->kind == CT_FUNCTION)
		note_return(&ctx, &s, type->inner);
	return type;
}
