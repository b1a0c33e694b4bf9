/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs the flex scanner and the bison parser of grammar/ over one prototype,
 * with the memos of type-memo.h in front: a prototype `R (P, ...)`, or one
 * returning a pointer to a function or an array, is put together from its
 * pieces (the grammar reads only those it has not read before, pointers to
 * functions among them being put together in turn), and a known parameter
 * inside a prototype of another shape reaches the parser as one token.
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
 * around it, the hash of that, and the deepest ( and [ nesting inside it. */
struct piece {
	size_t start, end;
	uint32_t hash;
	unsigned nest;
};

static size_t skip_blanks(const unsigned char *t, size_t i, size_t n)
{
	while (i < n && px_class[t[i]] == PX_SPACE)
		i++;
	return i;
}

/* The declaration from *POS (just after a `(` or `,`) to the `,` or `)`
 * closing it at its own level before N, which *POS is left at.  False when
 * it is not closed so. */
static bool next_piece(const char *text, size_t *pos, size_t n, struct piece *out)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t i = skip_blanks(t, *pos, n);
	size_t start = i;
	unsigned depth = 0, nest = 0;
	for (;; i++) {
		/* The text's NUL-free end is not a sentinel: bound every step. */
		while (i < n && px_class[t[i]] <= PX_SPACE)
			i++;
		if (i == n)
			return false;
		switch (px_class[t[i]]) {
		case PX_OPEN:
			if (++depth > nest)
				nest = depth;
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
	*out = (struct piece){ start, end, type_memo_hash(text + start, end - start), nest };
	*pos = i;
	return true;
}

static const struct type_memo_entry *find(const struct proto_ctx *ctx, const struct type_memo *m,
					  const struct piece *p)
{
	return type_memo_find(m, ctx->text + p->start, p->end - p->start, p->hash);
}

/* Whether P is the string literal S. */
#define piece_is(ctx, p, s) \
	((p)->end - (p)->start == sizeof(s) - 1 && memcmp((ctx)->text + (p)->start, s, sizeof(s) - 1) == 0)

/* ---- declarations made of known pieces ---- */

/* Lists with more parameters, and pointers to functions nested deeper in
 * parameters, are parsed. */
#define SHAPE_MAX_PARAMS 32
#define SHAPE_MAX_LEVEL 4
#define SHAPE_MAX_DIMS 4

/* A parameter list: its `(` and its declarations. */
struct plist {
	size_t open;
	size_t n;
	struct piece v[SHAPE_MAX_PARAMS];
};

/* The declarations put together from pieces, R being specifiers (and
 * stars) with no bracket but a specifier's:
 *   R (P, ...)                a prototype (STARS 0)
 *   R (*(P, ...))(Q, ...)     a prototype of a function returning a pointer
 *                             to a function (any number of stars)
 *   R (*(P, ...))[N]          ... returning a pointer to an array ([N], []
 *                             or [*], up to SHAPE_MAX_DIMS of them)
 *   R (*)(Q, ...), R (*)[N]   parameters: pointers to those
 * a function optionally followed by its calling convention, as the plugin
 * spells it. */
struct shape {
	struct piece ret;
	unsigned stars;
	size_t star;			/* the first `*` */
	struct plist params;		/* P: the prototype's own */
	struct plist inner;		/* Q: the pointed-to function's */
	enum ccall cc;
	unsigned ndims;			/* not 0: a pointer to an array, no Q */
	struct {
		size_t open;		/* its `[` */
		uint64_t count;
		enum ctype_kind kind;	/* CT_ARRAY, CT_ARRAY_UNSIZED, CT_ARRAY_VLA */
	} dims[SHAPE_MAX_DIMS];
	bool vla;			/* a dimension is [*]: never remembered */
	bool ret_known;			/* R is in the memo already */
};

/* Whether the `(` at OPEN belongs to a specifier (`__vector(4)`, `_BitInt(7)`,
 * `_Atomic(int)`): the word before it says, as it does for the scanner
 * (`_Atomic` followed by `(` is the specifier, not the qualifier). */
static bool specifier_paren(const struct proto_ctx *ctx, size_t start, size_t open)
{
	static const struct {
		const char *s;
		size_t n;
	} words[] = { { "__vector", 8 }, { "_BitInt", 7 }, { "_Atomic", 7 } };
	size_t end = open;
	while (end > start && px_class[(unsigned char)ctx->text[end - 1]] == PX_SPACE)
		end--;
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		size_t n = words[i].n;
		if (end - start >= n && !memcmp(ctx->text + end - n, words[i].s, n) &&
		    (end - start == n || !word_char((unsigned char)ctx->text[end - n - 1])))
			return true;
	}
	return false;
}

/* R from I to the `(` after it, which *OPEN is set to. */
static bool scan_return(const struct proto_ctx *ctx, size_t i, size_t n, struct piece *ret,
			size_t *open)
{
	const unsigned char *t = (const unsigned char *)ctx->text;
	i = skip_blanks(t, i, n);
	*ret = (struct piece){ i, i, 0, 0 };
	unsigned depth = 0;	/* inside a specifier's parentheses */
	for (; i < n; i++) {
		switch (px_class[t[i]]) {
		case PX_SPACE:
			continue;
		case PX_OPEN:
			if (t[i] == '[')
				return false;
			if (!depth && !specifier_paren(ctx, ret->start, i))
				goto found;
			if (++depth > ret->nest)
				ret->nest = depth;
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
		ret->end = i + 1;
	}
	return false;
found:
	if (ret->end == ret->start)
		return false;
	ret->hash = type_memo_hash(ctx->text + ret->start, ret->end - ret->start);
	type_memo_prefetch_bucket(&ctx->memo->returns, ret->hash);
	*open = i;
	return true;
}

/* The list whose `(` is at *POS; *POS is left after its `)`. */
static bool scan_list(const struct proto_ctx *ctx, size_t *pos, size_t n, struct plist *l)
{
	size_t i = *pos;
	l->open = i;
	l->n = 0;
	do {
		if (l->n == SHAPE_MAX_PARAMS)
			return false;
		i++;
		if (!next_piece(ctx->text, &i, n, &l->v[l->n]))
			return false;
		type_memo_prefetch_bucket(&ctx->memo->params, l->v[l->n++].hash);
	} while (ctx->text[i] != ')');
	*pos = i + 1;
	return true;
}

/* The attribute after the last list, exactly as the plugin writes it (the
 * parse takes every other spelling); I is just after the list.  Returns
 * where the text must end, or 0. */
static size_t scan_tail(const struct proto_ctx *ctx, size_t i, size_t n, enum ccall *cc)
{
	static const struct {
		const char *text;
		size_t len;
		enum ccall cc;
	} tails[] = {
		{ "__attribute__((ms_abi))", 23, CC_MS_ABI },
		{ "__attribute__((sysv_abi))", 25, CC_DEFAULT },
		{ "__attribute__((stdcall))", 24, CC_STDCALL },
		{ "__attribute__((fastcall))", 25, CC_FASTCALL },
	};
	const unsigned char *t = (const unsigned char *)ctx->text;
	*cc = CC_DEFAULT;
	i = skip_blanks(t, i, n);
	if (i == n)
		return n;
	for (size_t k = 0; k < sizeof(tails) / sizeof(*tails); k++) {
		size_t len = tails[k].len;
		if (n - i >= len && !memcmp(t + i, tails[k].text, len)) {
			*cc = tails[k].cc;
			return skip_blanks(t, i + len, n) == n ? n : 0;
		}
	}
	return 0;
}

/* The array dimensions of S from I, `[N]`, `[]` or `[*]` as the plugin
 * writes them (N in decimal, below a billion: other spellings are the
 * parse's), to the end of the text. */
static bool scan_dims(const struct proto_ctx *ctx, size_t i, size_t n, struct shape *s)
{
	const unsigned char *t = (const unsigned char *)ctx->text;
	s->ndims = 0;
	s->vla = false;
	do {
		if (s->ndims == SHAPE_MAX_DIMS)
			return false;
		size_t d = s->ndims++, digits = 0;
		uint64_t count = 0;
		s->dims[d].open = i;
		s->dims[d].kind = CT_ARRAY_UNSIZED;
		if (++i < n && t[i] == '*') {
			s->dims[d].kind = CT_ARRAY_VLA;
			s->vla = true;
			i++;
		}
		for (; i < n && t[i] >= '0' && t[i] <= '9' && digits < 9; i++, digits++)
			count = count * 10 + (t[i] - '0');
		if (i == n || t[i] != ']' || (digits && t[s->dims[d].open + 1] == '0') ||
		    (digits && s->dims[d].kind == CT_ARRAY_VLA))
			return false;
		if (digits)
			s->dims[d].kind = CT_ARRAY;
		s->dims[d].count = count;
		i = skip_blanks(t, i + 1, n);
	} while (i < n && t[i] == '[');
	return i == n;
}

/* TEXT[START, N) as one of the shapes: with a list of its own when
 * PROTOTYPE, else as a pointer to a function or an array. */
static bool match_shape(const struct proto_ctx *ctx, size_t start, size_t n, bool prototype,
			struct shape *s)
{
	const unsigned char *t = (const unsigned char *)ctx->text;
	size_t i;
	if (!scan_return(ctx, start, n, &s->ret, &i))
		return false;
	s->stars = 0;
	s->ndims = 0;
	s->vla = false;
	s->params.n = s->inner.n = 0;
	size_t j = skip_blanks(t, i + 1, n);
	if (j == n || t[j] != '*') {
		if (!prototype || !scan_list(ctx, &i, n, &s->params))
			return false;
		return scan_tail(ctx, i, n, &s->cc) == n;
	}
	s->star = j;
	for (; j < n && (t[j] == '*' || px_class[t[j]] == PX_SPACE); j++)
		s->stars += t[j] == '*';
	/* A prototype's text is a function: `R (*)(Q)` there is the parse's
	 * error to report, and `R (*(P))(Q)` in a parameter is left to it. */
	if (j == n || t[j] != (prototype ? '(' : ')'))
		return false;
	if (prototype) {
		if (!scan_list(ctx, &j, n, &s->params))
			return false;
		j = skip_blanks(t, j, n);
		if (j == n || t[j] != ')')
			return false;
	}
	j = skip_blanks(t, j + 1, n);
	s->cc = CC_DEFAULT;
	if (j < n && t[j] == '[')
		return scan_dims(ctx, j, n, s);
	if (j == n || t[j] != '(' || !scan_list(ctx, &j, n, &s->inner))
		return false;
	return scan_tail(ctx, j, n, &s->cc) == n;
}

/* The tags of known E, written at START, named again in this prototype. */
static bool name_tags(struct proto_ctx *ctx, const struct type_memo_entry *e, size_t start)
{
	for (size_t i = 0; i < e->ntags; i++)
		if (!ctype_tag_named(ctx->types, e->tags[i].tag,
				     (unsigned)start + 1 + e->tags[i].offset))
			return false;
	return true;
}

static const struct type_memo_entry *parse_return(struct proto_ctx *ctx, const struct piece *r,
						  unsigned base);
static const struct ctype *parse_param(struct proto_ctx *ctx, const struct piece *p,
				       unsigned base);
static const struct ctype *assemble_param(struct proto_ctx *ctx, const struct piece *p,
					  unsigned base, unsigned level);

/* The parameters of list L, whose declarations are BASE brackets deep, in
 * text order: *COUNT adjusted types into TYPES, and how the list reads.
 * Known ones come from the memo, the others are put together or read on
 * their own.  False when one does not come out so. */
static bool resolve_list(struct proto_ctx *ctx, const struct plist *l, unsigned base,
			 unsigned level, const struct ctype **types, size_t *count,
			 bool *variadic, bool *prototyped)
{
	size_t n = l->n;
	*prototyped = true;
	*variadic = false;
	if (n == 1 && l->v[0].start == l->v[0].end) {
		*prototyped = false;	/* T () */
		n = 0;
	} else if (n == 1 && piece_is(ctx, &l->v[0], "void")) {
		n = 0;
	} else if (piece_is(ctx, &l->v[n - 1], "...")) {
		*variadic = true;
		n--;
	}
	for (size_t i = 0; i < n; i++) {
		const struct piece *p = &l->v[i];
		if (base + p->nest > PROTO_MAX_NEST)
			return false;
		const struct type_memo_entry *e = find(ctx, &ctx->memo->params, p);
		if (e) {
			if (!name_tags(ctx, e, p->start))
				return false;
			types[i] = e->type;
			continue;
		}
		types[i] = level < SHAPE_MAX_LEVEL ? assemble_param(ctx, p, base, level + 1) : NULL;
		if (!types[i] && (ctx->types->failed || !(types[i] = parse_param(ctx, p, base))))
			return false;
	}
	*count = n;
	return true;
}

/* R of S, from the memo or read now. */
static const struct type_memo_entry *resolve_return(struct proto_ctx *ctx, struct shape *s,
						    unsigned base)
{
	if (base + s->ret.nest > PROTO_MAX_NEST)
		return NULL;
	const struct type_memo_entry *ret = find(ctx, &ctx->memo->returns, &s->ret);
	s->ret_known = ret;
	if (!ret)
		ret = parse_return(ctx, &s->ret, base);
	return ret && name_tags(ctx, ret, s->ret.start) ? ret : NULL;
}

/* The pointer to `R (Q)` or `R [N]` of S, its lists BASE deep. */
static const struct ctype *pointer_of(struct proto_ctx *ctx, const struct shape *s,
				      const struct ctype *ret, unsigned base, unsigned level)
{
	const struct ctype *type = ret;
	/* The last dimension is the innermost. */
	for (unsigned i = s->ndims; i-- > 0;)
		type = ctype_array(ctx->types, s->dims[i].kind, type, s->dims[i].count,
				   (unsigned)s->dims[i].open + 1);
	if (!s->ndims) {
		const struct ctype *types[SHAPE_MAX_PARAMS];
		size_t n;
		bool variadic, prototyped;
		if (!resolve_list(ctx, &s->inner, base, level, types, &n, &variadic, &prototyped))
			return NULL;
		type = ctype_function(ctx->types, ret, types, n, variadic, prototyped, s->cc, NULL,
				      (unsigned)s->inner.open + 1);
	}
	for (unsigned i = 0; i < s->stars; i++)
		type = ctype_pointer(ctx->types, type, (unsigned)s->star + 1);
	return type;
}

/* Remember parameter P, put together as TYPE from S, unless it holds a VLA
 * (a [*] of its own, or a piece that is not in the memo for that reason). */
static void remember_param(struct proto_ctx *ctx, const struct piece *p, const struct shape *s,
			   const struct type_memo_entry *ret, const struct ctype *type)
{
	const struct type_memo_entry *known[SHAPE_MAX_PARAMS];
	size_t ntags = ret->ntags;
	if (s->vla)
		return;
	for (size_t i = 0; i < s->inner.n; i++) {
		const struct piece *q = &s->inner.v[i];
		if (q->start == q->end || piece_is(ctx, q, "...") || piece_is(ctx, q, "void")) {
			known[i] = NULL;
			continue;
		}
		if (!(known[i] = find(ctx, &ctx->memo->params, q)))
			return;
		ntags += known[i]->ntags;
	}
	struct type_memo_tag *tags = NULL;
	if (ntags && !(tags = arena_zalloc(ctx->types->scratch, ntags * sizeof(*tags))))
		return;
	size_t k = 0;
	for (size_t i = 0; i < ret->ntags; i++)
		tags[k++] = (struct type_memo_tag){ ret->tags[i].tag, ret->tags[i].offset +
						    (unsigned)(s->ret.start - p->start) };
	for (size_t i = 0; i < s->inner.n; i++)
		for (size_t j = 0; known[i] && j < known[i]->ntags; j++)
			tags[k++] = (struct type_memo_tag){
				known[i]->tags[j].tag,
				known[i]->tags[j].offset + (unsigned)(s->inner.v[i].start - p->start) };
	type_memo_add(&ctx->memo->params, ctx->text + p->start, p->end - p->start, type, p->nest,
		      tags, ntags);
}

/* Parameter P, BASE brackets deep, if it is a pointer to a function whose
 * pieces come out: its adjusted type, remembered.  NULL otherwise, after
 * an error when one was found. */
static const struct ctype *assemble_param(struct proto_ctx *ctx, const struct piece *p,
					  unsigned base, unsigned level)
{
	struct shape s;
	if (!match_shape(ctx, p->start, p->end, false, &s) || base + 1 > PROTO_MAX_NEST)
		return NULL;
	const struct type_memo_entry *ret = resolve_return(ctx, &s, base);
	const struct ctype *type = ret ? pointer_of(ctx, &s, ret->type, base + 1, level) : NULL;
	type = ctype_adjust_param(ctx->types, type, (unsigned)p->start + 1);
	if (type)
		remember_param(ctx, p, &s, ret, type);
	return type;
}

/* The prototype S put together from its pieces, in text order as a parse
 * would meet them: known ones from the memos, the others put together or
 * read on their own by the grammar (and so known from now on).  NULL, with
 * no error, when a piece does not come out so: the whole prototype is then
 * parsed for the error it really has (or for a type no piece can stand for
 * alone, such as a VLA or void). */
static const struct ctype *assemble(struct proto_ctx *ctx, struct shape *s)
{
	type_memo_prefetch_entry(&ctx->memo->returns, s->ret.hash);
	for (size_t i = 0; i < s->params.n; i++)
		type_memo_prefetch_entry(&ctx->memo->params, s->params.v[i].hash);
	for (size_t i = 0; i < s->inner.n; i++)
		type_memo_prefetch_entry(&ctx->memo->params, s->inner.v[i].hash);
	struct kcfi_type_error *err = ctx->types->err, discarded;
	ctx->types->err = &discarded;
	const struct ctype *types[SHAPE_MAX_PARAMS], *ret = NULL;
	size_t n;
	bool prototyped, variadic;
	const struct type_memo_entry *r = resolve_return(ctx, s, 0);
	bool ok = r && resolve_list(ctx, &s->params, s->stars ? 2 : 1, 0, types, &n, &variadic,
				    &prototyped);
	if (ok)
		ret = s->stars ? pointer_of(ctx, s, r->type, 1, 0) : r->type;
	if (!ret) {
		ctype_table_next(ctx->types, err);
		ctx->ntags = 0;
		return NULL;
	}
	ctx->types->err = err;
	ctx->memo->assembled++;
	return ctype_function_once(ctx->types, ret, types, n, variadic, prototyped,
				   s->stars ? CC_DEFAULT : s->cc, NULL, (unsigned)s->params.open + 1);
}

/* R of a prototype shaped S that was parsed whole as TYPE. */
static const struct ctype *return_of(const struct shape *s, const struct ctype *type)
{
	if (type->kind != CT_FUNCTION)
		return NULL;
	type = type->inner;
	for (unsigned i = 0; type && i < s->stars; i++)
		type = type->kind == CT_POINTER ? type->inner : NULL;
	if (s->stars && !s->ndims)
		type = type && type->kind == CT_FUNCTION ? type->inner : NULL;
	for (unsigned i = 0; type && i < s->ndims; i++)
		type = type->kind == CT_ARRAY || type->kind == CT_ARRAY_UNSIZED ||
		       type->kind == CT_ARRAY_VLA ? type->inner : NULL;
	return type;
}

/* Remember R of S as TYPE, with the tags named in it. */
static const struct type_memo_entry *note_return(struct proto_ctx *ctx, const struct piece *r,
						 const struct ctype *type)
{
	unsigned first = (unsigned)r->start + 1, last = (unsigned)r->end;
	struct type_memo_tag tags[8];
	size_t ntags = 0;
	for (size_t i = 0; i < ctx->ntags && ctx->tags[i].column <= last; i++) {
		if (ctx->tags[i].column < first)
			continue;
		if (ntags == sizeof(tags) / sizeof(*tags))
			return NULL;		/* not worth remembering */
		tags[ntags++] = (struct type_memo_tag){ ctx->tags[i].tag,
							ctx->tags[i].column - first };
	}
	const char *text = ctx->text + r->start;
	size_t len = r->end - r->start;
	if (!type_memo_add(&ctx->memo->returns, text, len, type, 0, tags, ntags))
		return NULL;
	return type_memo_find(&ctx->memo->returns, text, len, r->hash);
}

static const struct ctype *parse(struct proto_ctx *ctx);

/* TEXT[P) read by the grammar on its own, BASE brackets deep, with the
 * columns it has in the prototype and its tags logged as if the whole
 * prototype were read: as a parameter declaration when START_PARAM, else
 * as a type name. */
static const struct ctype *parse_piece(struct proto_ctx *ctx, const struct piece *p,
				       unsigned base, bool start_param)
{
	struct proto_ctx q = {
		.text = ctx->text, .len = p->end, .pos = p->start, .nest = base,
		.types = ctx->types, .memo = ctx->memo, .start_param = start_param,
		.tags = ctx->tags, .ntags = ctx->ntags, .tags_cap = ctx->tags_cap,
		.last_vla = ctx->last_vla,
	};
	const struct ctype *type = parse(&q);
	ctx->tags = q.tags;
	ctx->ntags = q.ntags;
	ctx->tags_cap = q.tags_cap;
	return type;
}

/* R, BASE brackets deep, read on its own as the type name it is. */
static const struct type_memo_entry *parse_return(struct proto_ctx *ctx, const struct piece *r,
						  unsigned base)
{
	const struct ctype *type = parse_piece(ctx, r, base, false);
	return type ? note_return(ctx, r, type) : NULL;
}

/* Parameter P of a prototype, BASE brackets deep, read on its own: its
 * adjusted type, which the parse also remembered if it could.  NULL for a
 * void one: whether that is `(void)` or an error is the whole prototype's
 * business. */
static const struct ctype *parse_param(struct proto_ctx *ctx, const struct piece *p,
				       unsigned base)
{
	const struct ctype *type = parse_piece(ctx, p, base, true);
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
	    !next_piece(ctx->text, &next, ctx->len, &p))
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

	/* A string (a cfi_salt) may hold brackets and commas that the memo's
	 * piece scanner would take for the prototype's own: such texts are
	 * rare and read whole, without the memo. */
	if (memo && memchr(text, '"', len))
		memo = NULL;
	struct proto_ctx ctx = { .text = text, .len = len, .types = types, .memo = memo };
	if (!memo)
		return parse(&ctx);
	struct shape s;
	bool shaped = match_shape(&ctx, 0, len, true, &s);
	if (shaped) {
		const struct ctype *type = assemble(&ctx, &s);
		if (type || types->failed)
			return type;
	}
	const struct ctype *type = parse(&ctx);
	const struct ctype *ret = type && shaped && !s.ret_known ? return_of(&s, type) : NULL;
	if (ret)
		note_return(&ctx, &s.ret, ret);
	return type;
}
