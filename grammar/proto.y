/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Grammar of the prototype language (doc/directives.md section 4): one C type
 * name, with the abstract declarators of C17 6.7.7 and parameter
 * declarations that may name their parameter.
 *
 * The actions only assemble: typeids/spec.c checks specifier combinations,
 * typeids/declarator.c turns declarators into types, typeids/ctype.c checks
 * what C forbids.  Each returns NULL (or false) after recording the first
 * error, and CHECK stops the parse there.
 *
 * All lists are left-recursive so that the parser stack stays flat however
 * long a parameter list or pointer chain is; only bracket nesting grows it,
 * and the scanner caps that.
 */
%code top {
#include "config.h"
/* Generated code: keep the project's warnings for our own sources only. */
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
}

%code requires {
#include <stdbool.h>
#include <stdint.h>
#include "typeids/declarator.h"
#include "typeids/proto.h"
#include "typeids/spec.h"

/* bracket_quals: the qualifiers inside [ ], plus this bit for `static` */
#define PROTO_BRACKET_STATIC 0x100

/* @$ of a rule: from its first symbol to its last (empty rules are never
 * asked for a location). */
#define YYLLOC_DEFAULT(cur, rhs, n)					\
	do {								\
		(cur).first = YYRHSLOC(rhs, (n) ? 1 : 0).first;		\
		(cur).last = YYRHSLOC(rhs, (n)).last;			\
	} while (0)
}

%code provides {
int kcfi_proto_lex(KCFI_PROTO_STYPE *lval, struct proto_span *lloc, void *scanner);
}

%code {
static void kcfi_proto_error(struct proto_span *loc, void *scanner, struct proto_ctx *ctx,
			     const char *msg);
static struct spec *add_word(struct proto_ctx *ctx, struct spec *s, enum spec_word w,
			     uint64_t value, const struct ctype *type, struct proto_span at);
static struct spec *add_qual(struct proto_ctx *ctx, struct spec *s, unsigned qual,
			     struct proto_span at);
static const struct ctype *make_tag(struct proto_ctx *ctx, int kind, struct proto_span name);
static struct deriv *make_array(struct proto_ctx *ctx, enum ctype_kind kind, uint64_t count,
				unsigned quals, struct proto_span at);
static const struct ctype *finish_type_name(struct proto_ctx *ctx, struct spec *s,
					    const struct declarator *d);
static const struct ctype *atomic_of(struct proto_ctx *ctx, const struct ctype *type,
				     unsigned column);
static const struct ctype *add_param(struct proto_ctx *ctx, struct param_list *pl,
				     struct spec *s, const struct declarator *d,
				     struct proto_span at);
static struct deriv *fn_with(struct deriv *fn, const struct deriv *attrs);
static bool join_quals(struct proto_ctx *ctx, unsigned have, unsigned add, struct proto_span at,
		       unsigned *out);

#define TYPES	(ctx->types)
#define COL(loc) ((loc).first)
/* The location from the start of A to the end of B. */
#define SPAN(a, b) ((struct proto_span){ (a).first, (b).last })
#define CHECK(ok) do { if (!(ok)) YYABORT; } while (0)
}

%define api.pure full
%define api.location.type {struct proto_span}
%define api.prefix {kcfi_proto_}
%define api.token.prefix {TK_}
%define parse.error verbose
%locations
%param {void *scanner}
%parse-param {struct proto_ctx *ctx}
%expect 0

/* Only scalars and pointers: the parser copies values around a lot, and
 * small ones keep that cheap. */
%union {
	int word;
	unsigned quals;
	uint64_t num;
	struct spec *spec;
	struct declarator *decl;
	struct deriv *deriv;
	struct param_list *params;
	const struct ctype *type;
	const char *str;
}

%token END 0 "end of input"
%token <word> SPEC "type specifier"
%token <word> QUAL "type qualifier"
%token <word> TAG "struct, union or enum"
%token BITINT "_BitInt"
%token VECTOR "__vector"
%token ATOMIC_SPEC "_Atomic"
%token STATIC "static"
%token ELLIPSIS "..."
%token IDENT "identifier"
%token <num> NUMBER "integer constant"
%token <word> CC "calling-convention attribute"
%token <str> SALT "cfi_salt attribute"
%token START_PARAM "start of a parameter"	/* never scanned (see input) */
%token <type> PARAM "parameter declaration"	/* one the scanner knew (typeids/type-memo.h) */
%token BAD "invalid token"

%type <spec> specs spec_first
%type <type> type_name
%type <decl> declarator declarator_opt pointer direct_declarator
%type <deriv> array fn_suffix
%type <deriv> fn_attrs
%type <quals> quals_opt bracket_quals
%type <params> param_list params

%%

input:
	type_name			{ ctx->result = $1; }
	/* Not in the language: typeids/parse.c asks for one parameter
	 * declaration of a prototype this way. */
	| START_PARAM specs declarator_opt
					{ CHECK(ctx->result = add_param(ctx, params_new(TYPES), $2, $3, SPAN(@2, @3))); }
	;

type_name:
	specs declarator_opt		{ $$ = finish_type_name(ctx, $1, $2); CHECK($$); }
	;

/* A specifier list is checked one specifier at a time (typeids/spec.c);
 * the first one creates it. */
specs:
	spec_first
	| specs SPEC			{ CHECK($$ = add_word(ctx, $1, (enum spec_word)$2, 0, NULL, @2)); }
	| specs QUAL			{ CHECK($$ = add_qual(ctx, $1, (unsigned)$2, @2)); }
	| specs TAG IDENT		{ CHECK($$ = add_word(ctx, $1, SW_GIVEN, 0, make_tag(ctx, $2, @3), SPAN(@2, @3))); }
	| specs BITINT '(' NUMBER ')'	{ CHECK($$ = add_word(ctx, $1, SW_BITINT, $4, NULL, SPAN(@2, @5))); }
	| specs VECTOR '(' NUMBER ')'	{ CHECK($$ = add_word(ctx, $1, SW_VECTOR, $4, NULL, SPAN(@2, @5))); }
	| specs ATOMIC_SPEC '(' type_name ')'
					{ CHECK($$ = add_word(ctx, $1, SW_GIVEN, 0, atomic_of(ctx, $4, COL(@2)), SPAN(@2, @5))); }
	;

spec_first:
	SPEC				{ CHECK($$ = add_word(ctx, NULL, (enum spec_word)$1, 0, NULL, @1)); }
	| QUAL				{ CHECK($$ = add_qual(ctx, NULL, (unsigned)$1, @1)); }
	| TAG IDENT			{ CHECK($$ = add_word(ctx, NULL, SW_GIVEN, 0, make_tag(ctx, $1, @2), @$)); }
	| BITINT '(' NUMBER ')'		{ CHECK($$ = add_word(ctx, NULL, SW_BITINT, $3, NULL, @$)); }
	| VECTOR '(' NUMBER ')'		{ CHECK($$ = add_word(ctx, NULL, SW_VECTOR, $3, NULL, @$)); }
	| ATOMIC_SPEC '(' type_name ')'	{ CHECK($$ = add_word(ctx, NULL, SW_GIVEN, 0, atomic_of(ctx, $3, COL(@1)), @$)); }
	;

declarator_opt:
	%empty				{ $$ = NULL; }
	| declarator
	;

declarator:
	pointer
	| pointer direct_declarator	{ $$ = decl_join($2, $1); CHECK($$); }
	| direct_declarator
	;

/* `* const * volatile`: the leftmost star is the innermost derivation. */
pointer:
	'*' quals_opt			{ $$ = decl_add_inner(decl_new(TYPES), deriv_pointer(TYPES, $2, COL(@1))); CHECK($$); }
	| pointer '*' quals_opt		{ $$ = decl_add_outer($1, deriv_pointer(TYPES, $3, COL(@2))); CHECK($$); }
	;

quals_opt:
	%empty				{ $$ = 0; }
	| quals_opt QUAL		{ CHECK(join_quals(ctx, $1, (unsigned)$2, @2, &$$)); }
	;

direct_declarator:
	IDENT				{ $$ = decl_named(TYPES, COL(@1)); CHECK($$); }
	| '(' declarator ')'		{ $$ = $2; }
	| array				{ $$ = decl_add_inner(decl_new(TYPES), $1); CHECK($$); }
	| fn_suffix			{ $$ = decl_add_inner(decl_new(TYPES), $1); CHECK($$); }
	| direct_declarator array	{ $$ = decl_add_inner($1, $2); CHECK($$); }
	| direct_declarator fn_suffix	{ $$ = decl_add_inner($1, $2); CHECK($$); }
	;

/* `(params)`, `()`, optionally followed by a calling convention and a
 * salt, in any order; the last of each counts (Clang keeps the last salt). */
fn_suffix:
	'(' ')' fn_attrs		{ CHECK($$ = fn_with(deriv_function(TYPES, NULL, COL(@1)), $3)); }
	| '(' param_list ')' fn_attrs	{ CHECK($$ = fn_with(deriv_function(TYPES, $2, COL(@1)), $4)); }
	;

/* A deriv that carries only cc and salt, or NULL when there are none. */
fn_attrs:
	%empty				{ $$ = NULL; }
	| fn_attrs CC			{ CHECK($$ = $1 ? $1 : deriv_new_attrs(TYPES, COL(@2))); $$->cc = (enum ccall)$2; }
	| fn_attrs SALT			{ CHECK($$ = $1 ? $1 : deriv_new_attrs(TYPES, COL(@2))); $$->salt = $2; }
	;

array:
	'[' bracket_quals ']'		{ CHECK($$ = make_array(ctx, CT_ARRAY_UNSIZED, 0, $2, @1)); }
	| '[' bracket_quals NUMBER ']'	{ CHECK($$ = make_array(ctx, CT_ARRAY, $3, $2, @1)); }
	| '[' bracket_quals '*' ']'	{ CHECK($$ = make_array(ctx, CT_ARRAY_VLA, 0, $2, @1)); }
	;

bracket_quals:
	%empty				{ $$ = 0; }
	| bracket_quals QUAL		{ CHECK(join_quals(ctx, $1, (unsigned)$2, @2, &$$)); }
	| bracket_quals STATIC		{ $$ = $1 | PROTO_BRACKET_STATIC; }
	;

param_list:
	params
	| params ',' ELLIPSIS		{ $$ = $1; $$->variadic = true; }
	| ELLIPSIS			{ $$ = params_new(TYPES); CHECK($$); $$->variadic = true; }
	;

params:
	specs declarator_opt		{ $$ = params_new(TYPES); CHECK($$ && add_param(ctx, $$, $1, $2, SPAN(@1, @2))); }
	| PARAM				{ $$ = params_new(TYPES); CHECK($$ && params_append(TYPES, $$, $1)); }
	| params ',' specs declarator_opt
					{ $$ = $1; CHECK(add_param(ctx, $$, $3, $4, SPAN(@3, @4))); }
	| params ',' PARAM		{ $$ = $1; CHECK(params_append(TYPES, $$, $3)); }
	;

%%

static void kcfi_proto_error(struct proto_span *loc, void *scanner, struct proto_ctx *ctx,
			     const char *msg)
{
	(void)scanner;
	/* A scanner error has already been recorded and is more precise. */
	ctype_error(TYPES, COL(*loc), "%s", msg);
}

static struct spec_at at_of(struct proto_span loc)
{
	return (struct spec_at){ loc.first, loc.last - loc.first + 1 };
}

/* S, or a new list starting at AT when S is NULL (the first specifier). */
static struct spec *spec_list(struct proto_ctx *ctx, struct spec *s, struct proto_span at)
{
	if (s)
		return s;
	s = arena_zalloc(TYPES->scratch, sizeof(*s));
	if (!s)
		return ctype_error(TYPES, 0, "out of memory");
	spec_init(s, ctx->text, COL(at));
	return s;
}

static struct spec *add_word(struct proto_ctx *ctx, struct spec *s, enum spec_word w,
			     uint64_t value, const struct ctype *type, struct proto_span at)
{
	if (TYPES->failed)	/* TYPE was not built */
		return NULL;
	s = spec_list(ctx, s, at);
	return s && spec_add(s, TYPES, w, at_of(at), value, type) ? s : NULL;
}

static struct spec *add_qual(struct proto_ctx *ctx, struct spec *s, unsigned qual,
			     struct proto_span at)
{
	s = spec_list(ctx, s, at);
	return s && spec_add_qual(s, TYPES, qual, at_of(at)) ? s : NULL;
}

static const struct ctype *make_tag(struct proto_ctx *ctx, int kind, struct proto_span name)
{
	const struct ctype *tag = ctype_tag(TYPES, (enum ctag_kind)kind, ctx->text + COL(name) - 1,
					    at_of(name).len, COL(name));
	return tag && proto_note_tag(ctx, tag, COL(name)) ? tag : NULL;
}

static struct deriv *make_array(struct proto_ctx *ctx, enum ctype_kind kind, uint64_t count,
				unsigned quals, struct proto_span at)
{
	if (kind == CT_ARRAY_VLA)
		ctx->last_vla = COL(at);
	return deriv_array(TYPES, kind, count, quals & ~PROTO_BRACKET_STATIC,
			   quals & PROTO_BRACKET_STATIC, COL(at));
}

/* A qualifier list: a second, different address space is an error. */
static bool join_quals(struct proto_ctx *ctx, unsigned have, unsigned add, struct proto_span at,
		       unsigned *out)
{
	if (CQ_AS_OF(have) && CQ_AS_OF(add) && CQ_AS_OF(have) != CQ_AS_OF(add)) {
		ctype_error(TYPES, COL(at), "multiple address spaces specified for type");
		return false;
	}
	*out = have | add;
	return true;
}

/* FN with the calling convention and salt of ATTRS (NULL: none). */
static struct deriv *fn_with(struct deriv *fn, const struct deriv *attrs)
{
	if (fn && attrs) {
		fn->cc = attrs->cc;
		fn->salt = attrs->salt;
	}
	return fn;
}

static const struct ctype *finish_type_name(struct proto_ctx *ctx, struct spec *s,
					    const struct declarator *d)
{
	return decl_apply(TYPES, spec_finish(s, TYPES), d, DECL_TYPE_NAME);
}

/* _Atomic(T): C17 6.7.2.4p3 rules out arrays, functions, atomic and
 * qualified types. */
static const struct ctype *atomic_of(struct proto_ctx *ctx, const struct ctype *type,
				     unsigned column)
{
	switch (type->kind) {
	case CT_ARRAY:
	case CT_ARRAY_UNSIZED:
	case CT_ARRAY_VLA:
	case CT_FUNCTION:
	case CT_ATOMIC:
	case CT_QUAL:
		return ctype_error(TYPES, column, "_Atomic(type-name) needs an unqualified object type "
				   "that is not an array");
	default:
		return ctype_qualified(TYPES, type, CQ_ATOMIC, column);
	}
}

/* The parameter's adjusted type (a void one is not added), or NULL. */
static const struct ctype *add_param(struct proto_ctx *ctx, struct param_list *pl,
				     struct spec *s, const struct declarator *d,
				     struct proto_span at)
{
	const struct ctype *base = spec_finish(s, TYPES);
	const struct ctype *type = base ? params_add(TYPES, pl, base, d, COL(at)) : NULL;
	if (type)
		proto_note_param(ctx, at, type);
	return type;
}
